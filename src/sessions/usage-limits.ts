import type { Clock } from '../clock.js';
import { stringField, type StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import { readUsageLimitEntry, type UsageLimitEntry } from '../runs/usage-limit-entry.js';
import { isRunning, LimitReset, type SessionRecord, type UsageLimitHold } from './session.js';
import type { SessionManager } from './session-manager.js';

/** What the hub types into a session whose turn a usage limit cut off, once the limit reset. */
export const continueText =
  'The usage limit that stopped your last turn has reset. Continue that turn where it stopped.';

/** A limit of one account: until when, and what claude said of it. */
export interface AccountLimit {
  readonly until: number;
  readonly kind: string | null;
  readonly reset: LimitReset;
}

/** The waits for a limit claude gave no reset time for: the first, and the longest. */
export const backoffMs = { first: 60_000, max: 30 * 60_000 } as const;

/** How far before claude's StopFailure its transcript entry of the refusal may lie. */
const entryWindowMs = 2 * 60_000;
/** How often, and how far apart, the transcript is read for the refusal. */
const entryReads = 5;
const entryReadGapMs = 400;

export interface UsageLimitsDeps {
  readonly sessions: Pick<SessionManager, 'get' | 'list' | 'amend' | 'appendHubEvent' | 'enqueue'>;
  readonly clock: Clock;
  readonly log: Logger;
  /** The refusal claude recorded in a transcript at or after `since` (readUsageLimitEntry). */
  readonly entryOf?: (transcript: string, since: number) => Promise<UsageLimitEntry | null>;
  /** Tells the other nodes of a cluster of a limit learned here. */
  readonly share?: (account: string, limit: AccountLimit) => void;
}

/** The account a session's limits are kept by: a session started by hand has only its own. */
function accountOf(record: SessionRecord): string {
  return record.account ?? `session:${record.id}`;
}

/**
 * Usage limits: when claude reports that its account reached a usage or rate limit (a StopFailure
 * with `error: "rate_limit"`; the reset time from the refusal claude recorded in its
 * transcript), every running session of that account on this node holds its queued messages until
 * the reset (Session.usageLimit, status LIMITED when idle) and the other nodes are told; a session
 * that starts meanwhile is held too. At the reset the sessions go on, each whose turn the limit
 * cut off first asked to continue it (a message ahead of the waiting ones). Without a reset time
 * (an API key's 429 after claude's own retries) the hub waits a minute, doubling while the account
 * keeps being refused, at most half an hour. The holds live in the session records, so a restarted
 * hub keeps them.
 */
export class UsageLimits {
  readonly #deps: UsageLimitsDeps;
  readonly #limits = new Map<string, AccountLimit>();
  readonly #timers = new Map<string, () => void>();
  /** Per account, how many limits in a row came without a reset time. */
  readonly #backoffs = new Map<string, number>();
  /** Per account, the refusals being read: its sessions' messages wait for the hold they bring. */
  readonly #reading = new Map<string, number>();

  constructor(deps: UsageLimitsDeps) {
    this.#deps = deps;
  }

  /** Takes up the holds the records kept (a restart), resetting those whose time has come. */
  start(): void {
    for (const record of this.#deps.sessions.list()) {
      const hold = record.usageLimit;
      if (!hold) continue;
      const account = accountOf(record);
      const known = this.#limits.get(account);
      const { until, kind, reset } = hold;
      if (!known || known.until < until) this.#limits.set(account, { until, kind, reset });
    }
    for (const account of this.#limits.keys()) this.#arm(account);
  }

  close(): void {
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }

  /** Whether a usage limit holds the session's messages back. */
  isHeld(id: string): boolean {
    const record = this.#deps.sessions.get(id);
    return !!record && (!!record.usageLimit || this.#reading.has(accountOf(record)));
  }

  /** The limit an account is under now, if any. */
  limitOf(account: string): AccountLimit | null {
    return this.#limits.get(account) ?? null;
  }

  /** Hears every stored event of this node's sessions. */
  heard(event: StoredEvent): void {
    const record = this.#deps.sessions.get(event.sessionId);
    if (!record) return;
    const account = accountOf(record);
    switch (event.eventName) {
      case 'StopFailure':
        if (stringField(event.payload, 'error') !== 'rate_limit') break;
        // Held now, before the turn's end wakes the queue: no message runs into the limit.
        this.#reading.set(account, (this.#reading.get(account) ?? 0) + 1);
        void this.#refused(record, event)
          .catch((error: unknown) =>
            this.#deps.log.warn({ err: error, sessionId: record.id }, 'a usage limit was not kept'),
          )
          .finally(() => {
            const left = (this.#reading.get(account) ?? 1) - 1;
            if (left > 0) this.#reading.set(account, left);
            else this.#reading.delete(account);
            this.#wake(account);
          });
        break;
      case 'Stop':
        this.#backoffs.delete(account);
        break;
      case 'SessionStart': {
        const limit = this.#limits.get(account);
        if (limit && !record.usageLimit) void this.#hold(record, account, limit, false);
        break;
      }
      case 'UserPromptSubmit':
        // A person, or claude's own resume at the reset, went on with the turn.
        if (record.usageLimit?.cutOff)
          this.#deps.sessions.amend(record.id, (held) => {
            if (held.usageLimit) held.usageLimit = { ...held.usageLimit, cutOff: false };
          });
        break;
    }
  }

  /** A limit another node of the cluster learned: this node's sessions of the account wait too. */
  shared(account: string, limit: AccountLimit): void {
    if (limit.until <= this.#deps.clock.now()) return;
    this.#apply(account, limit, null);
  }

  async #refused(record: SessionRecord, event: StoredEvent): Promise<void> {
    const { clock, log } = this.#deps;
    const account = accountOf(record);
    const transcript = stringField(event.payload, 'transcript_path') ?? record.transcriptPath;
    const read = this.#deps.entryOf ?? readUsageLimitEntry;
    let entry: UsageLimitEntry | null = null;
    // claude may fire StopFailure before its transcript has the refusal: read it a few times.
    for (let tries = 0; transcript && !entry && tries < entryReads; tries++) {
      if (tries > 0) await clock.sleep(entryReadGapMs);
      entry = await read(transcript, event.receivedAt - entryWindowMs).catch((error: unknown) => {
        log.warn(
          { err: error, sessionId: record.id },
          'the usage limit claude recorded could not be read',
        );
        return null;
      });
    }
    const now = clock.now();
    let limit: AccountLimit;
    if (entry?.resetsAt && entry.resetsAt > now) {
      this.#backoffs.delete(account);
      limit = { until: entry.resetsAt, kind: entry.kind, reset: LimitReset.Claude };
    } else {
      const tries = this.#backoffs.get(account) ?? 0;
      this.#backoffs.set(account, tries + 1);
      const wait = Math.min(backoffMs.first * 2 ** tries, backoffMs.max);
      limit = { until: now + wait, kind: entry?.kind ?? null, reset: LimitReset.Backoff };
    }
    log.info(
      {
        sessionId: record.id,
        account,
        until: new Date(limit.until).toISOString(),
        kind: limit.kind,
      },
      'usage limit reached: the sessions of its account wait for the reset',
    );
    this.#apply(account, limit, record.id);
    this.#deps.share?.(account, limit);
  }

  /** Holds every running session of the account until the limit (or a later one) resets. */
  #apply(account: string, limit: AccountLimit, cutOff: string | null): void {
    const known = this.#limits.get(account);
    const merged = known && known.until >= limit.until ? known : limit;
    this.#limits.set(account, merged);
    for (const record of this.#deps.sessions.list()) {
      if (accountOf(record) !== account || !isRunning(record.status)) continue;
      void this.#hold(record, account, merged, record.id === cutOff);
    }
    this.#arm(account);
  }

  async #hold(
    record: SessionRecord,
    account: string,
    limit: AccountLimit,
    cutOff: boolean,
  ): Promise<void> {
    const was = record.usageLimit;
    const hold: UsageLimitHold = {
      ...limit,
      since: was?.since ?? this.#deps.clock.now(),
      cutOff: cutOff || (was?.cutOff ?? false),
    };
    if (was && was.until === hold.until && was.cutOff === hold.cutOff) return;
    this.#deps.sessions.amend(record.id, (held) => (held.usageLimit = hold));
    await this.#deps.sessions
      .appendHubEvent(record.id, 'HubUsageLimited', {
        account,
        until: new Date(hold.until).toISOString(),
        kind: hold.kind,
        reset: hold.reset,
        cut_off: hold.cutOff,
      })
      .catch((error: unknown) =>
        this.#deps.log.warn({ err: error, sessionId: record.id }, 'HubUsageLimited not stored'),
      );
  }

  #arm(account: string): void {
    this.#timers.get(account)?.();
    const limit = this.#limits.get(account);
    if (!limit) return;
    const wait = Math.max(0, limit.until - this.#deps.clock.now());
    this.#timers.set(
      account,
      this.#deps.clock.after(wait, () => {
        this.#timers.delete(account);
        void this.#reset(account);
      }),
    );
  }

  /** The account's limit is over: its sessions go on, a cut-off turn first. */
  async #reset(account: string): Promise<void> {
    const { sessions, log } = this.#deps;
    const limit = this.#limits.get(account);
    if (limit && limit.until > this.#deps.clock.now()) return this.#arm(account);
    this.#limits.delete(account);
    const held = sessions.list().filter((r) => r.usageLimit && accountOf(r) === account);
    // Before any wait: a limit met meanwhile cuts off turns of its own, for its own reset.
    const continued = held.map((record) => {
      if (!record.usageLimit!.cutOff || !isRunning(record.status)) return false;
      sessions.amend(record.id, (r) => (r.usageLimit = { ...r.usageLimit!, cutOff: false }));
      try {
        sessions.enqueue(record.id, continueText, null, { first: true });
        return true;
      } catch (error) {
        log.warn({ err: error, sessionId: record.id }, 'a cut-off turn could not be continued');
        return false;
      }
    });
    // The events first: the messages the reset lets through come after them in the streams.
    for (const [i, record] of held.entries()) {
      await sessions
        .appendHubEvent(record.id, 'HubUsageLimitReset', { account, continued: continued[i] })
        .catch((error: unknown) =>
          log.warn({ err: error, sessionId: record.id }, 'HubUsageLimitReset not stored'),
        );
    }
    // A limit met meanwhile holds them on.
    if (this.#limits.has(account)) return;
    for (const record of held)
      if (sessions.get(record.id)) sessions.amend(record.id, (r) => (r.usageLimit = null));
    log.info({ account }, 'usage limit reset: the sessions of its account go on');
  }

  /** Wakes the account's sessions' queues, held or not. */
  #wake(account: string): void {
    for (const record of this.#deps.sessions.list())
      if (accountOf(record) === account) this.#deps.sessions.amend(record.id, () => {});
  }
}
