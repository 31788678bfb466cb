import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import type { HubEventName } from '../../src/events/registry.js';
import { createLogger } from '../../src/log.js';
import type { UsageLimitEntry } from '../../src/runs/usage-limit-entry.js';
import type { EnqueueOptions } from '../../src/sessions/message-queue.js';
import type { SessionRecord, SessionStatus } from '../../src/sessions/session.js';
import {
  backoffMs,
  continueText,
  UsageLimits,
  type UsageLimitsDeps,
} from '../../src/sessions/usage-limits.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { message, session } from '../helpers/records.js';

/** Lets every promise chain that waits on nothing real run to its end. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

interface HubEvent {
  readonly sessionId: string;
  readonly name: HubEventName;
  readonly fields: Record<string, unknown>;
}

/** The sessions UsageLimits uses, in memory: amend edits the record in place. */
class FakeSessions implements Required<UsageLimitsDeps['sessions']> {
  readonly records = new Map<string, SessionRecord>();
  readonly hubEvents: HubEvent[] = [];
  readonly enqueued: { id: string; text: string; options: EnqueueOptions }[] = [];
  amends = 0;

  add(id: string, account: string | null, status: SessionStatus = 'IDLE'): SessionRecord {
    const record = { ...session(id, status, 0), account, transcriptPath: `/t/${id}.jsonl` };
    this.records.set(id, record);
    return record;
  }

  get(id: string): SessionRecord | undefined {
    return this.records.get(id);
  }

  list(): SessionRecord[] {
    return [...this.records.values()];
  }

  amend(id: string, edit: (record: SessionRecord) => void): SessionRecord {
    const record = this.records.get(id);
    if (!record) throw new Error(`no session ${id}`);
    edit(record);
    this.amends++;
    return record;
  }

  async appendHubEvent(
    sessionId: string,
    name: HubEventName,
    fields: Record<string, unknown>,
  ): Promise<void> {
    this.hubEvents.push({ sessionId, name, fields });
  }

  enqueue(id: string, text: string, _channel: string | null = null, options: EnqueueOptions = {}) {
    this.enqueued.push({ id, text, options });
    return message(`m${this.enqueued.length}`, id, 0, 'QUEUED');
  }

  names(sessionId: string): string[] {
    return this.hubEvents.filter((e) => e.sessionId === sessionId).map((e) => e.name);
  }
}

let seq = 0;
function event(
  eventName: string,
  sessionId: string,
  receivedAt: number,
  fields: Record<string, unknown> = {},
): StoredEvent {
  const payload = { session_id: sessionId, hook_event_name: eventName, ...fields };
  return { sessionId, seq: ++seq, eventName, receivedAt, raw: JSON.stringify(payload), payload };
}

function setUp(entryOf: UsageLimitsDeps['entryOf']) {
  const clock = new FakeClock();
  const sessions = new FakeSessions();
  const shared: { account: string; until: number }[] = [];
  const limits = new UsageLimits({
    sessions,
    clock,
    log: createLogger('silent'),
    entryOf,
    share: (account, limit) => shared.push({ account, until: limit.until }),
  });
  const refused = (id: string, fields: Record<string, unknown> = {}) =>
    limits.heard(
      event('StopFailure', id, clock.now(), {
        error: 'rate_limit',
        transcript_path: `/t/${id}.jsonl`,
        ...fields,
      }),
    );
  return { clock, sessions, limits, shared, refused };
}

const hour = 60 * 60_000;

describe('usage limits', () => {
  it("holds the account's running sessions until claude's reset, then continues the cut-off turn", async () => {
    let answer: (entry: UsageLimitEntry | null) => void = () => {};
    const reads: { transcript: string; since: number }[] = [];
    const { clock, sessions, limits, shared, refused } = setUp((transcript, since) => {
      reads.push({ transcript, since });
      return new Promise((resolve) => (answer = resolve));
    });
    const cut = sessions.add('cut', 'acct-a', 'BUSY');
    const other = sessions.add('other', 'acct-a', 'IDLE');
    const stopped = sessions.add('stopped', 'acct-a', 'STOPPED');
    const elsewhere = sessions.add('elsewhere', 'acct-b', 'BUSY');
    const until = clock.now() + hour;

    refused('cut');
    // Held before the refusal is read, with the account's others: no message runs into it.
    expect(limits.isHeld('cut')).toBe(true);
    expect(limits.isHeld('other')).toBe(true);
    expect(limits.isHeld('elsewhere')).toBe(false);
    expect(cut.usageLimit).toBeNull();
    await settle();
    expect(reads).toEqual([{ transcript: '/t/cut.jsonl', since: clock.now() - 2 * 60_000 }]);

    answer({ resetsAt: until, kind: 'five_hour', at: clock.now() });
    await settle();
    expect(cut.usageLimit).toMatchObject({
      until,
      kind: 'five_hour',
      reset: 'CLAUDE',
      cutOff: true,
      since: clock.now(),
    });
    expect(other.usageLimit).toMatchObject({ until, reset: 'CLAUDE', cutOff: false });
    expect(stopped.usageLimit).toBeNull();
    expect(elsewhere.usageLimit).toBeNull();
    expect(limits.isHeld('cut')).toBe(true);
    expect(limits.isHeld('other')).toBe(true);
    expect(limits.isHeld('elsewhere')).toBe(false);
    expect(limits.limitOf('acct-a')).toEqual({ until, kind: 'five_hour', reset: 'CLAUDE' });
    expect(limits.limitOf('acct-b')).toBeNull();
    expect(shared).toEqual([{ account: 'acct-a', until }]);
    expect(sessions.names('cut')).toEqual(['HubUsageLimited']);
    expect(sessions.hubEvents[0]?.fields).toEqual({
      account: 'acct-a',
      until: new Date(until).toISOString(),
      kind: 'five_hour',
      reset: 'CLAUDE',
      cut_off: true,
    });
    expect(sessions.names('other')).toEqual(['HubUsageLimited']);
    expect(sessions.names('elsewhere')).toEqual([]);

    clock.advance(hour - 1);
    await settle();
    expect(sessions.enqueued).toEqual([]);
    expect(cut.usageLimit).not.toBeNull();

    clock.advance(1);
    await settle();
    expect(sessions.enqueued).toEqual([
      { id: 'cut', text: continueText, options: { first: true } },
    ]);
    expect(cut.usageLimit).toBeNull();
    expect(other.usageLimit).toBeNull();
    expect(limits.isHeld('cut')).toBe(false);
    expect(limits.limitOf('acct-a')).toBeNull();
    expect(sessions.names('cut')).toEqual(['HubUsageLimited', 'HubUsageLimitReset']);
    expect(sessions.names('other')).toEqual(['HubUsageLimited', 'HubUsageLimitReset']);
    expect(sessions.hubEvents.filter((e) => e.name === 'HubUsageLimitReset')).toEqual([
      {
        sessionId: 'cut',
        name: 'HubUsageLimitReset',
        fields: { account: 'acct-a', continued: true },
      },
      {
        sessionId: 'other',
        name: 'HubUsageLimitReset',
        fields: { account: 'acct-a', continued: false },
      },
    ]);
    clock.advance(10 * hour);
    await settle();
    expect(sessions.enqueued).toHaveLength(1);
  });

  it('reads the transcript again while claude has not written the refusal yet', async () => {
    let reads = 0;
    const until = Date.UTC(2026, 0, 1, 5);
    const { clock, sessions, refused } = setUp(async () =>
      ++reads < 3 ? null : { resetsAt: until, kind: 'seven_day', at: 0 },
    );
    const cut = sessions.add('cut', 'acct', 'BUSY');
    refused('cut');
    await settle();
    expect(reads).toBe(1);
    clock.advance(400);
    await settle();
    expect(reads).toBe(2);
    clock.advance(400);
    await settle();
    expect(reads).toBe(3);
    expect(cut.usageLimit).toMatchObject({ until, kind: 'seven_day', reset: 'CLAUDE' });
  });

  it('without a reset time backs off a minute, doubling until a turn ends well, at most half an hour', async () => {
    const { clock, sessions, limits, refused } = setUp(async () => ({
      resetsAt: null,
      kind: null,
      at: 0,
    }));
    const cut = sessions.add('cut', 'key', 'BUSY');
    const waits: number[] = [];
    const refuse = async () => {
      refused('cut');
      await settle();
      const hold = cut.usageLimit;
      expect(hold).toMatchObject({ reset: 'BACKOFF', kind: null, cutOff: true });
      waits.push(hold!.until - clock.now());
      clock.advance(hold!.until - clock.now());
      await settle();
      expect(cut.usageLimit).toBeNull();
    };

    await refuse();
    await refuse();
    limits.heard(event('Stop', 'cut', clock.now()));
    await refuse();
    await refuse();
    await refuse();
    await refuse();
    await refuse();
    await refuse();
    await refuse();
    const first = backoffMs.first;
    expect(waits).toEqual([
      first,
      2 * first,
      first,
      2 * first,
      4 * first,
      8 * first,
      16 * first,
      backoffMs.max,
      backoffMs.max,
    ]);
    expect(sessions.enqueued).toHaveLength(9);
  });

  it('backs off when five reads find no refusal, counting from the last read', async () => {
    let reads = 0;
    const { clock, sessions, refused } = setUp(async () => {
      reads++;
      return null;
    });
    const cut = sessions.add('cut', 'key', 'BUSY');
    const start = clock.now();
    refused('cut');
    for (let i = 0; i < 6; i++) {
      await settle();
      clock.advance(400);
    }
    await settle();
    expect(reads).toBe(5);
    expect(cut.usageLimit).toMatchObject({
      until: start + 4 * 400 + backoffMs.first,
      reset: 'BACKOFF',
      cutOff: true,
    });
  });

  it('takes a reset time already past as none: it backs off', async () => {
    const { clock, sessions, refused } = setUp(async () => ({
      resetsAt: Date.UTC(2025, 0, 1),
      kind: 'five_hour',
      at: 0,
    }));
    const cut = sessions.add('cut', 'acct', 'BUSY');
    refused('cut');
    await settle();
    expect(cut.usageLimit).toMatchObject({
      until: clock.now() + backoffMs.first,
      kind: 'five_hour',
      reset: 'BACKOFF',
    });
  });

  it('keeps the holds of the records across a restart and resets them when their time comes', async () => {
    const { clock, sessions, limits } = setUp(async () => null);
    const now = clock.now();
    const hold = { until: now + hour, kind: 'five_hour', reset: 'CLAUDE' as const, since: now };
    const cut = sessions.add('cut', 'acct', 'IDLE');
    cut.usageLimit = { ...hold, cutOff: true };
    const other = sessions.add('other', 'acct', 'IDLE');
    other.usageLimit = { ...hold, cutOff: false };
    const past = sessions.add('past', 'old', 'IDLE');
    past.usageLimit = { ...hold, until: now - 1, cutOff: true };
    const free = sessions.add('free', 'acct', 'IDLE');

    limits.start();
    const { until, kind, reset } = cut.usageLimit!;
    expect(limits.limitOf('acct')).toEqual({ until, kind, reset });
    expect(limits.isHeld('cut')).toBe(true);
    expect(limits.isHeld('free')).toBe(false);
    clock.advance(0);
    await settle();
    // The hold whose time passed while the hub was down resets at once.
    expect(past.usageLimit).toBeNull();
    expect(sessions.enqueued).toEqual([
      { id: 'past', text: continueText, options: { first: true } },
    ]);
    expect(cut.usageLimit).not.toBeNull();

    // A session that starts meanwhile waits too.
    limits.heard(event('SessionStart', 'free', clock.now()));
    await settle();
    expect(free.usageLimit).toMatchObject({ until: now + hour, cutOff: false });

    clock.advance(hour);
    await settle();
    expect(cut.usageLimit).toBeNull();
    expect(other.usageLimit).toBeNull();
    expect(free.usageLimit).toBeNull();
    expect(sessions.enqueued.map((m) => m.id)).toEqual(['past', 'cut']);
    expect(sessions.names('cut')).toEqual(['HubUsageLimitReset']);
    limits.close();
  });

  it("holds this node's sessions of an account another node learned of, not cutting them off", async () => {
    const { clock, sessions, limits } = setUp(async () => null);
    const a = sessions.add('a', 'acct', 'BUSY');
    const b = sessions.add('b', 'other', 'IDLE');
    limits.shared('acct', { until: clock.now() - 1, kind: null, reset: 'CLAUDE' });
    await settle();
    expect(a.usageLimit).toBeNull();
    expect(limits.limitOf('acct')).toBeNull();

    const until = clock.now() + hour;
    limits.shared('acct', { until, kind: 'five_hour', reset: 'CLAUDE' });
    await settle();
    expect(a.usageLimit).toMatchObject({ until, cutOff: false });
    expect(b.usageLimit).toBeNull();
    expect(sessions.names('a')).toEqual(['HubUsageLimited']);
    // Told again of the same limit, nothing changes.
    limits.shared('acct', { until, kind: 'five_hour', reset: 'CLAUDE' });
    // An earlier one does not shorten it.
    limits.shared('acct', { until: until - 1000, kind: 'five_hour', reset: 'CLAUDE' });
    await settle();
    expect(a.usageLimit?.until).toBe(until);
    expect(sessions.names('a')).toEqual(['HubUsageLimited']);

    clock.advance(hour);
    await settle();
    expect(a.usageLimit).toBeNull();
    expect(sessions.enqueued).toEqual([]);
  });

  it('clears cutOff once the turn goes on', async () => {
    const { sessions, limits, clock } = setUp(async () => null);
    const cut = sessions.add('cut', 'acct', 'IDLE');
    cut.usageLimit = {
      until: clock.now() + hour,
      kind: null,
      reset: 'CLAUDE',
      since: clock.now(),
      cutOff: true,
    };
    limits.heard(event('UserPromptSubmit', 'cut', clock.now()));
    expect(cut.usageLimit).toMatchObject({ cutOff: false });
  });

  it('leaves a turn that failed for another reason alone', async () => {
    let reads = 0;
    const { clock, sessions, limits, shared, refused } = setUp(async () => {
      reads++;
      return { resetsAt: Date.UTC(2026, 0, 2), kind: 'five_hour', at: 0 };
    });
    const cut = sessions.add('cut', 'acct', 'BUSY');
    refused('cut', { error: 'server_error' });
    limits.heard(event('StopFailure', 'cut', clock.now(), {}));
    expect(limits.isHeld('cut')).toBe(false);
    clock.advance(5000);
    await settle();
    expect(reads).toBe(0);
    expect(cut.usageLimit).toBeNull();
    expect(sessions.hubEvents).toEqual([]);
    expect(sessions.amends).toBe(0);
    expect(shared).toEqual([]);
    // And an event of a session it does not know.
    limits.heard(event('StopFailure', 'nobody', clock.now(), { error: 'rate_limit' }));
    expect(limits.isHeld('nobody')).toBe(false);
  });

  it('keeps holding the sessions when a new limit comes while a reset is under way, and asks to continue once', async () => {
    const { clock, sessions, limits, refused } = setUp(async () => ({
      resetsAt: clock.now() + hour,
      kind: 'five_hour',
      at: clock.now(),
    }));
    const a = sessions.add('a', 'acct', 'BUSY');
    const b = sessions.add('b', 'acct', 'BUSY');
    refused('a');
    await settle();
    expect(a.usageLimit?.cutOff).toBe(true);

    // The reset's events are slow to store: b meets the next limit meanwhile.
    const stored: (() => void)[] = [];
    const append = sessions.appendHubEvent.bind(sessions);
    sessions.appendHubEvent = (id, name, fields) =>
      name === 'HubUsageLimitReset'
        ? new Promise<void>((resolve) =>
            stored.push(() => void append(id, name, fields).then(resolve)),
          )
        : append(id, name, fields);
    clock.advance(hour);
    await settle();
    expect(sessions.enqueued.map((m) => m.id)).toEqual(['a']);
    refused('b');
    await settle();
    while (stored.length > 0) {
      stored.shift()!();
      await settle();
    }
    expect(b.usageLimit).toMatchObject({ until: clock.now() + hour, cutOff: true });
    expect(a.usageLimit).toMatchObject({ until: clock.now() + hour, cutOff: false });
    expect(limits.isHeld('a')).toBe(true);

    sessions.appendHubEvent = append;
    clock.advance(hour);
    await settle();
    expect(sessions.enqueued.map((m) => m.id)).toEqual(['a', 'b']);
    expect(a.usageLimit).toBeNull();
    expect(b.usageLimit).toBeNull();
  });
});
