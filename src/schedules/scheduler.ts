import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import type { CreateInput, Hub } from '../hub/hub.js';
import type { Logger } from '../log.js';
import { MessageStatus } from '../sessions/message.js';
import { checkMessageText, MessageKind } from '../sessions/message-text.js';
import { SessionStatus } from '../sessions/session.js';
import type { RecordTable } from '../store/record-table.js';
import { checkCron, checkTimezone, nextRunAfter } from './cron.js';
import { ScheduleOverlap, skippedBusy, type ScheduleRecord } from './schedule.js';

/** At most this many schedules; one more is refused. */
export const maxSchedules = 1000;

/** A longer text is refused (a schedule repeats it; a paste of a whole file is not a prompt). */
export const maxScheduleTextChars = 100_000;

/** The longest a timer waits before it is armed again, nearer the tick. */
export const maxTimerWaitMs = 24 * 60 * 60 * 1000;

/** What the scheduler asks of the hub: this node's, or the cluster's, which routes to the owner. */
export type ScheduleHub = Pick<
  Hub,
  'get' | 'require' | 'statusOf' | 'resume' | 'enqueue' | 'create' | 'messages'
>;

/**
 * Who fires a tick. On one hub every tick is its own; in a cluster, where every node has the
 * schedule, exactly one node wins each tick (see RedisTickClaims).
 */
export interface TickClaims {
  /** True for the one caller that fires the schedule's tick at `tickAt`. */
  claim(scheduleId: string, tickAt: number): Promise<boolean>;
}

/** A change to the cluster's schedules: one made or run here, or one another node shares. */
export type ScheduleChange =
  | { readonly kind: 'put'; readonly record: ScheduleRecord }
  | { readonly kind: 'delete'; readonly id: string };

export interface ScheduleInput {
  readonly cron: string;
  readonly text: string;
  readonly timezone?: string | null | undefined;
  readonly overlap?: ScheduleOverlap | null | undefined;
  readonly sessionId?: string | null | undefined;
  readonly createSession?: CreateInput | null | undefined;
}

export interface SchedulerOptions {
  readonly table: Pick<RecordTable<ScheduleRecord>, 'save' | 'delete' | 'loadAll'>;
  /** Read at each tick: the cluster's Hub once this node has joined one. */
  readonly hub: () => ScheduleHub;
  /** Null: every tick is this node's. */
  readonly claims: () => TickClaims | null;
  readonly clock: Clock;
  readonly log: Logger;
  /** Hears each schedule made, deleted, or run here (a cluster node shares them). */
  readonly changed?: (change: ScheduleChange) => void;
}

const stopped: readonly string[] = [SessionStatus.Stopped, SessionStatus.Crashed];
const onItsWay: readonly string[] = [MessageStatus.Queued, MessageStatus.Sent];

/**
 * Sends each schedule's text at the times of its cron line, with one timer per schedule on the
 * injected clock. A tick arms the next one before it sends, from the later of its own time and
 * now, so a slow send or a clock moved on fires once, never a burst. Ticks missed while the hub
 * was down fire once at start.
 */
export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #schedules = new Map<string, ScheduleRecord>();
  readonly #timers = new Map<string, () => void>();
  readonly #runs = new Set<Promise<void>>();
  #closed = false;
  #started = false;

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  /** Reads the stored schedules, arming none yet (a cluster node may replace them first). */
  load(): void {
    for (const record of this.#options.table.loadAll()) this.#schedules.set(record.id, record);
  }

  /** Arms every schedule; one whose tick passed while the hub was down fires now, once. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const now = this.#options.clock.now();
    for (const record of this.#schedules.values()) {
      if (this.#started && record.nextRunAt !== null && record.nextRunAt <= now)
        this.#tick(record.id);
      else this.#arm(record);
    }
  }

  /**
   * Takes another node's change, telling no one: a schedule it made or ran replaces this node's
   * copy whole (its next run too), one it deleted goes. Before start, a next run that passed
   * is a tick no node fired (the node that fires one shares the next): start fires it, claimed.
   * After start, the node that ran the schedule last has it, and this one goes on from now.
   */
  applyShared(change: ScheduleChange): void {
    if (change.kind === 'delete') {
      this.#drop(change.id);
      return;
    }
    const record = structuredClone(change.record);
    const now = this.#options.clock.now();
    if (this.#started && record.nextRunAt !== null && record.nextRunAt <= now)
      record.nextRunAt = nextRunAfter(record.cron, record.timezone, now);
    this.#schedules.set(record.id, record);
    this.#options.table.save(record);
    if (this.#started) this.#arm(record);
  }

  /** Every schedule, oldest first. */
  list(): ScheduleRecord[] {
    return [...this.#schedules.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  /** A new schedule, checked (BAD_USER_INPUT naming the field), stored and armed. */
  add(input: ScheduleInput, createdBy: string): ScheduleRecord {
    const cron = checkCron(input.cron);
    const timezone = checkTimezone(input.timezone ?? 'UTC');
    checkTarget(input);
    checkMessageText(input.text, 'text', MessageKind.Prompt);
    if (input.text.length > maxScheduleTextChars) {
      throw new HubError(
        ErrorCode.BadInput,
        `text must be at most ${maxScheduleTextChars} characters, got ${input.text.length}`,
        { field: 'text' },
      );
    }
    if (input.sessionId != null) this.#options.hub().require(input.sessionId);
    if (this.#schedules.size >= maxSchedules) {
      throw new HubError(ErrorCode.BadInput, `the hub holds ${maxSchedules} schedules already`);
    }
    const now = this.#options.clock.now();
    const record: ScheduleRecord = {
      id: randomUUID(),
      cron,
      timezone,
      text: input.text,
      sessionId: input.sessionId ?? null,
      createSession: input.createSession ?? null,
      overlap: input.overlap ?? ScheduleOverlap.Wait,
      nextRunAt: nextRunAfter(cron, timezone, now),
      lastRunAt: null,
      lastSessionId: null,
      lastMessageId: null,
      lastError: null,
      createdAt: now,
      createdBy,
    };
    this.#options.table.save(record);
    this.#schedules.set(record.id, record);
    this.#arm(record);
    this.#options.changed?.({ kind: 'put', record });
    return record;
  }

  /** Deletes a schedule; false when none has that id. A run under way goes on. */
  remove(id: string): boolean {
    if (!this.#drop(id)) return false;
    this.#options.changed?.({ kind: 'delete', id });
    return true;
  }

  #drop(id: string): boolean {
    if (!this.#schedules.delete(id)) return false;
    this.#timers.get(id)?.();
    this.#timers.delete(id);
    this.#options.table.delete([id]);
    return true;
  }

  /** Resolves once the runs under way have ended (tests wait on it). */
  async settled(): Promise<void> {
    while (this.#runs.size > 0) await Promise.all(this.#runs);
  }

  /** Stops every timer; a run under way ends without saving. */
  close(): void {
    this.#closed = true;
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }

  /**
   * One timer up to the next tick. A tick further off than a timer can wait (Node's timers
   * overflow past 2^31 ms, some 24.8 days, and fire at once) is reached by waits of a day.
   */
  #arm(record: ScheduleRecord): void {
    this.#timers.get(record.id)?.();
    this.#timers.delete(record.id);
    if (this.#closed || !this.#started || record.nextRunAt === null) return;
    const { clock } = this.#options;
    const wait = Math.max(0, record.nextRunAt - clock.now());
    const { id } = record;
    this.#timers.set(
      id,
      wait > maxTimerWaitMs
        ? clock.after(maxTimerWaitMs, () => {
            const now = this.#schedules.get(id);
            if (now) this.#arm(now);
          })
        : clock.after(wait, () => this.#tick(id)),
    );
  }

  /** The tick at the schedule's nextRunAt: the next one armed, then the text sent. */
  #tick(id: string): void {
    const record = this.#schedules.get(id);
    if (!record || record.nextRunAt === null || this.#closed) return;
    const tickAt = record.nextRunAt;
    const now = this.#options.clock.now();
    record.nextRunAt = nextRunAfter(record.cron, record.timezone, Math.max(tickAt, now));
    this.#options.table.save(record);
    this.#arm(record);
    const run = this.#run(record, tickAt).finally(() => this.#runs.delete(run));
    this.#runs.add(run);
  }

  async #run(record: ScheduleRecord, tickAt: number): Promise<void> {
    try {
      const claims = this.#options.claims();
      if (claims && !(await claims.claim(record.id, tickAt))) return;
    } catch (error) {
      this.#options.log.warn({ err: error, schedule: record.id }, 'schedule tick not claimed');
      return;
    }
    record.lastRunAt = this.#options.clock.now();
    try {
      record.lastError = record.sessionId
        ? await this.#sendTo(record, record.sessionId)
        : await this.#create(record);
    } catch (error) {
      record.lastError = error instanceof Error ? error.message : String(error);
    }
    if (this.#closed || this.#schedules.get(record.id) !== record) return;
    this.#options.table.save(record);
    this.#options.changed?.({ kind: 'put', record });
  }

  /** Into an existing session, resumed first when it has ended; the reason of a skip, or null. */
  async #sendTo(record: ScheduleRecord, sessionId: string): Promise<string | null> {
    const hub = this.#options.hub();
    const session = hub.require(sessionId);
    const status = hub.statusOf(session);
    const lastOnItsWay =
      record.lastMessageId !== null &&
      hub
        .messages(sessionId, 1000)
        .some(
          (message) => message.id === record.lastMessageId && onItsWay.includes(message.status),
        );
    if (record.overlap === ScheduleOverlap.Skip && (status === SessionStatus.Busy || lastOnItsWay))
      return skippedBusy;
    if (stopped.includes(status)) await hub.resume(sessionId);
    const message = await hub.enqueue(sessionId, record.text, null);
    record.lastSessionId = sessionId;
    record.lastMessageId = message.id;
    return null;
  }

  /** A new session with the text as its prompt; SKIP while the last one made is still BUSY. */
  async #create(record: ScheduleRecord): Promise<string | null> {
    const hub = this.#options.hub();
    const last = record.lastSessionId === null ? undefined : hub.get(record.lastSessionId);
    if (
      record.overlap === ScheduleOverlap.Skip &&
      last !== undefined &&
      hub.statusOf(last) === SessionStatus.Busy
    )
      return skippedBusy;
    const created = await hub.create({
      ...record.createSession!,
      prompt: record.text,
      createdBy: record.createdBy,
    });
    record.lastSessionId = created.id;
    record.lastMessageId = null;
    return null;
  }
}

/** Exactly one of sessionId and createSession; a session input that a tick can make again. */
function checkTarget(input: ScheduleInput): void {
  if ((input.sessionId == null) === (input.createSession == null)) {
    throw new HubError(
      ErrorCode.BadInput,
      'give exactly one of sessionId (send into that session) and createSession (make a new session at each tick)',
      { field: input.sessionId == null ? 'sessionId' : 'createSession' },
    );
  }
  const create = input.createSession;
  if (create == null) return;
  for (const field of ['id', 'resume', 'prompt'] as const) {
    if (create[field] != null) {
      throw new HubError(
        ErrorCode.BadInput,
        `createSession.${field} must be absent: each tick makes a new session, with the schedule's text as its prompt`,
        { field: `createSession.${field}` },
      );
    }
  }
}
