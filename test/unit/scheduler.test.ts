import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { checkCron, checkTimezone, nextRunAfter } from '../../src/schedules/cron.js';
import type { ScheduleRecord } from '../../src/schedules/schedule.js';
import {
  Scheduler,
  type ScheduleChange,
  type ScheduleHub,
  type TickClaims,
} from '../../src/schedules/scheduler.js';
import type { MessageRecord } from '../../src/sessions/message.js';
import type { SessionRecord, SessionStatus } from '../../src/sessions/session.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { session } from '../helpers/records.js';

const minute = 60_000;

/** A hub of sessions whose status the test sets, noting what the scheduler asked of it. */
class FakeHub implements ScheduleHub {
  readonly sessions = new Map<string, SessionRecord>();
  readonly sent: { id: string; text: string }[] = [];
  readonly resumed: string[] = [];
  readonly created: { prompt: string | null | undefined; cwd: string }[] = [];
  readonly queued: MessageRecord[] = [];

  add(id: string, status: SessionStatus): void {
    this.sessions.set(id, session(id, status, 0));
  }
  get = (id: string) => this.sessions.get(id);
  require = (id: string) => {
    const record = this.sessions.get(id);
    if (!record) throw new Error(`no session has id "${id}"`);
    return record;
  };
  statusOf = (record: SessionRecord) => record.status;
  messages = (id: string) => this.queued.filter((message) => message.sessionId === id);
  resume = async (id: string) => {
    this.resumed.push(id);
    this.require(id).status = 'IDLE';
    return this.require(id);
  };
  enqueue = async (id: string, text: string) => {
    this.sent.push({ id, text });
    const message = {
      id: `m${this.queued.length + 1}`,
      sessionId: id,
      text,
      status: 'QUEUED',
      queuedAt: 0,
      sentAt: null,
      deliveredAt: null,
      promptSeq: null,
      error: null,
    } as MessageRecord;
    this.queued.push(message);
    return message;
  };
  create = async (input: { cwd: string; prompt?: string | null }) => {
    this.created.push({ prompt: input.prompt, cwd: input.cwd });
    const id = `new-${this.created.length}`;
    this.add(id, 'BUSY');
    return this.require(id);
  };
}

function memoryTable(rows: ScheduleRecord[] = []) {
  const saved = new Map(rows.map((row) => [row.id, structuredClone(row)]));
  return {
    saved,
    save: (record: ScheduleRecord) => void saved.set(record.id, structuredClone(record)),
    delete: (ids: readonly string[]) => ids.forEach((id) => saved.delete(id)),
    loadAll: () => [...saved.values()].map((row) => structuredClone(row)),
  };
}

function scheduler(
  hub: FakeHub,
  clock: FakeClock,
  table = memoryTable(),
  claims: TickClaims | null = null,
) {
  const made = new Scheduler({
    table,
    hub: () => hub,
    claims: () => claims,
    clock,
    log: createLogger('silent'),
  });
  made.load();
  made.start();
  return made;
}

describe('cron lines and time zones', () => {
  it('take five fields croner accepts, and refuse others naming the field and the value', () => {
    expect(checkCron(' */5 * * * * ')).toBe('*/5 * * * *');
    expect(() => checkCron('* * * * * *')).toThrow(
      'cron must have 5 fields (minute hour day-of-month month day-of-week), got "* * * * * *"',
    );
    expect(() => checkCron('61 * * * *')).toThrow(/^cron "61 \* \* \* \*" is not valid: .*minute/);
    expect(checkTimezone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(() => checkTimezone('Mars/Olympus')).toThrow(
      'timezone must be an IANA time zone name such as UTC or Europe/Berlin, got "Mars/Olympus"',
    );
  });

  it('name the next time read in the time zone', () => {
    const at = Date.UTC(2026, 0, 1, 8, 30);
    expect(nextRunAfter('0 9 * * *', 'UTC', at)).toBe(Date.UTC(2026, 0, 1, 9));
    // 09:00 in Berlin is 08:00 UTC in winter: already past, so tomorrow's.
    expect(nextRunAfter('0 9 * * *', 'Europe/Berlin', at)).toBe(Date.UTC(2026, 0, 2, 8));
    expect(nextRunAfter('*/5 * * * *', 'UTC', Date.UTC(2026, 0, 1, 8, 5))).toBe(
      Date.UTC(2026, 0, 1, 8, 10),
    );
  });
});

describe('Scheduler', () => {
  it('sends at each tick, resuming a stopped session first', async () => {
    const hub = new FakeHub();
    hub.add('s1', 'IDLE');
    const clock = new FakeClock();
    const table = memoryTable();
    const schedules = scheduler(hub, clock, table);
    const made = schedules.add({ cron: '*/5 * * * *', text: 'check in', sessionId: 's1' }, 'ci');
    expect(made.nextRunAt).toBe(clock.now() + 5 * minute);
    expect(table.saved.get(made.id)?.cron).toBe('*/5 * * * *');

    clock.advance(5 * minute);
    await schedules.settled();
    expect(hub.sent).toEqual([{ id: 's1', text: 'check in' }]);

    hub.require('s1').status = 'STOPPED';
    clock.advance(5 * minute);
    await schedules.settled();
    expect(hub.resumed).toEqual(['s1']);
    expect(hub.sent).toHaveLength(2);
    expect(schedules.list()[0]!.nextRunAt).toBe(clock.now() + 5 * minute);
    expect(schedules.list()[0]!.lastError).toBeNull();
  });

  it('SKIP leaves a tick out while the session is BUSY or the last message is on its way; WAIT queues it', async () => {
    const hub = new FakeHub();
    hub.add('s1', 'BUSY');
    hub.add('s2', 'BUSY');
    const clock = new FakeClock();
    const schedules = scheduler(hub, clock);
    const skip = schedules.add(
      { cron: '* * * * *', text: 'skip me', sessionId: 's1', overlap: 'SKIP' },
      'ci',
    );
    schedules.add({ cron: '* * * * *', text: 'wait', sessionId: 's2' }, 'ci');
    clock.advance(minute);
    await schedules.settled();
    expect(hub.sent).toEqual([{ id: 's2', text: 'wait' }]);
    expect(schedules.list().find((s) => s.id === skip.id)!.lastError).toBe(
      'skipped: previous run still busy',
    );

    hub.require('s1').status = 'IDLE';
    clock.advance(minute);
    await schedules.settled();
    expect(hub.sent.filter((s) => s.id === 's1')).toHaveLength(1);
    // IDLE, but its message of the last tick is still QUEUED.
    clock.advance(minute);
    await schedules.settled();
    expect(hub.sent.filter((s) => s.id === 's1')).toHaveLength(1);
  });

  it('makes a new session at each tick with the text as its prompt, skipping while the last is BUSY', async () => {
    const hub = new FakeHub();
    const clock = new FakeClock();
    const schedules = scheduler(hub, clock);
    const made = schedules.add(
      { cron: '* * * * *', text: 'nightly', createSession: { cwd: '/w' }, overlap: 'SKIP' },
      'ci',
    );
    clock.advance(minute);
    await schedules.settled();
    expect(hub.created).toEqual([{ prompt: 'nightly', cwd: '/w' }]);
    clock.advance(minute);
    await schedules.settled();
    expect(hub.created).toHaveLength(1);
    hub.require('new-1').status = 'IDLE';
    clock.advance(minute);
    await schedules.settled();
    expect(hub.created).toHaveLength(2);
    expect(schedules.list()[0]).toMatchObject({
      id: made.id,
      lastSessionId: 'new-2',
      lastError: null,
    });
  });

  it('refuses a bad input naming its field, storing nothing', () => {
    const hub = new FakeHub();
    hub.add('s1', 'IDLE');
    const table = memoryTable();
    const schedules = scheduler(hub, new FakeClock(), table);
    const refusals: [Parameters<Scheduler['add']>[0], string][] = [
      [{ cron: '* * *', text: 'x', sessionId: 's1' }, 'cron must have 5 fields'],
      [{ cron: '* * * * *', text: 'x', sessionId: 's1', timezone: 'Nowhere' }, 'timezone must'],
      [{ cron: '* * * * *', text: 'x' }, 'give exactly one of sessionId'],
      [
        { cron: '* * * * *', text: 'x', sessionId: 's1', createSession: { cwd: '/w' } },
        'give exactly one of sessionId',
      ],
      [{ cron: '* * * * *', text: '  ', sessionId: 's1' }, 'text must not be empty'],
      [{ cron: '* * * * *', text: 'x', sessionId: 'nope' }, 'no session has id'],
      [
        { cron: '* * * * *', text: 'x', createSession: { cwd: '/w', prompt: 'p' } },
        'createSession.prompt must be absent',
      ],
    ];
    for (const [input, message] of refusals)
      expect(() => schedules.add(input, 'ci')).toThrow(message);
    expect(table.saved.size).toBe(0);
    expect(schedules.list()).toEqual([]);
  });

  it('fires a tick missed while down once at start, and keeps a future tick as stored', async () => {
    const hub = new FakeHub();
    hub.add('s1', 'IDLE');
    const clock = new FakeClock();
    const table = memoryTable();
    const first = scheduler(hub, clock, table);
    const missed = first.add({ cron: '*/5 * * * *', text: 'missed', sessionId: 's1' }, 'ci');
    const daily = first.add({ cron: '0 0 * * *', text: 'later', sessionId: 's1' }, 'ci');
    first.close();
    clock.advance(60 * minute);
    const second = scheduler(hub, clock, table);
    await second.settled();
    expect(hub.sent).toEqual([{ id: 's1', text: 'missed' }]);
    const [again, later] = second.list();
    expect(again!.nextRunAt).toBe(clock.now() + 5 * minute);
    expect(again!.id).toBe(missed.id);
    expect(later!.nextRunAt).toBe(daily.nextRunAt);
  });

  it('fires only the ticks it claims', async () => {
    const hub = new FakeHub();
    hub.add('s1', 'IDLE');
    const clock = new FakeClock();
    const claimed: number[] = [];
    let win = false;
    const schedules = scheduler(hub, clock, memoryTable(), {
      claim: async (_id, tickAt) => {
        claimed.push(tickAt);
        win = !win;
        return win;
      },
    });
    schedules.add({ cron: '* * * * *', text: 'one of two', sessionId: 's1' }, 'ci');
    for (let i = 0; i < 4; i++) {
      clock.advance(minute);
      await schedules.settled();
    }
    expect(claimed).toEqual([1, 2, 3, 4].map((n) => Date.UTC(2026, 0, 1) + n * minute));
    expect(hub.sent).toHaveLength(2);
  });

  it("tells of each schedule made, run and deleted, and takes another node's without telling", async () => {
    const hub = new FakeHub();
    hub.add('s1', 'IDLE');
    const clock = new FakeClock();
    const told: string[] = [];
    const table = memoryTable();
    const options = {
      table,
      hub: () => hub,
      claims: () => null,
      clock,
      log: createLogger('silent'),
      changed: (change: ScheduleChange) =>
        told.push(change.kind === 'put' ? `put ${change.record.lastRunAt}` : 'delete'),
    };
    const here = new Scheduler(options);
    here.load();
    here.start();
    const made = here.add({ cron: '* * * * *', text: 'shared', sessionId: 's1' }, 'ci');
    clock.advance(minute);
    await here.settled();
    expect(told).toEqual(['put null', `put ${clock.now()}`]);

    // Another node's copy whose tick passed: before start, start fires it; after, it goes on.
    const other = new Scheduler({
      ...options,
      table: memoryTable(),
      changed: () => told.push('x'),
    });
    const passed = { ...here.list()[0]!, nextRunAt: clock.now() - minute };
    other.applyShared({ kind: 'put', record: passed });
    expect(other.list()[0]!.nextRunAt).toBe(passed.nextRunAt);
    other.start();
    await other.settled();
    expect(hub.sent).toHaveLength(2);
    other.applyShared({ kind: 'put', record: passed });
    expect(other.list()[0]!.nextRunAt).toBe(clock.now() + minute);
    other.applyShared({ kind: 'delete', id: made.id });
    expect(other.list()).toEqual([]);
    expect(told.filter((kind) => kind === 'x')).toHaveLength(1);
    expect(here.remove(made.id)).toBe(true);
    expect(told.at(-1)).toBe('delete');
  });

  it('reaches a tick a year off by waits a timer can hold, firing it only then', async () => {
    const hub = new FakeHub();
    hub.add('s1', 'IDLE');
    const clock = new FakeClock();
    const waits: number[] = [];
    const after = clock.after.bind(clock);
    clock.after = (ms, callback) => {
      waits.push(ms);
      return after(ms, callback);
    };
    const schedules = scheduler(hub, clock);
    const made = schedules.add({ cron: '0 0 1 1 *', text: 'new year', sessionId: 's1' }, 'ci');
    expect(made.nextRunAt).toBe(Date.UTC(2027, 0, 1));
    expect(Math.max(...waits)).toBeLessThanOrEqual(2 ** 31 - 1);
    clock.advance(made.nextRunAt! - clock.now() - minute);
    await schedules.settled();
    expect(hub.sent).toEqual([]);
    clock.advance(minute);
    await schedules.settled();
    expect(hub.sent).toEqual([{ id: 's1', text: 'new year' }]);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
