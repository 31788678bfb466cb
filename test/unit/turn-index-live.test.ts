import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ReadOptions } from '../../src/events/event-log.js';
import type { StoredEvent } from '../../src/events/hook-event.js';
import type { Turn } from '../../src/runs/run-fold.js';
import { TurnIndex } from '../../src/runs/turn-index.js';
import { SqliteEventLog, type Retention } from '../../src/store/sqlite-event-log.js';
import { events, post, pre, prompt, stop, type Step } from '../helpers/run-events.js';

/** Two turns with a tool call each, a Notification (not a run event) among them. */
const steps: Step[] = [
  prompt('a'),
  pre('1', 'Bash', { command: 'x' }),
  ['Notification', { message: 'not a run event' }],
  post('1', 'Bash', { command: 'x' }, { stdout: 'out-1' }),
  stop('A'),
  prompt('b'),
  pre('2', 'Write', { file_path: '/f', content: 'c' }),
  post('2', 'Write', { file_path: '/f', content: 'c' }, { type: 'create' }),
  stop('B'),
];

/** Where a test holds the index's reads: before their query runs, or after. */
interface Hold {
  before?: Promise<void>;
  after?: Promise<void>;
}

/**
 * A SQLite log as the hub keeps it, an index on it that hears what is stored (`live`), its reads
 * (`reads`, held where `hold` says), and the turns as an index that only reads gives them.
 */
function hub(options: { retention?: Retention; now?: () => number; maxActions?: number } = {}) {
  const log = new SqliteEventLog(
    new Database(':memory:').exec(
      'CREATE TABLE events (session_id TEXT, seq INTEGER, name TEXT, received_at INTEGER, payload TEXT, PRIMARY KEY (session_id, seq))',
    ),
    options.retention,
    options.now,
  );
  const reads: ReadOptions[] = [];
  const hold: Hold = {};
  const read = async (id: string, read: ReadOptions) => {
    reads.push(read);
    await hold.before;
    const found = await log.read(id, read);
    await hold.after;
    return found;
  };
  const live = new TurnIndex(read, {
    local: log,
    ...(options.maxActions ? { maxActions: options.maxActions } : {}),
  });
  /** Stores the steps in a session, telling `live` of each unless `heard` is false. */
  const store = async (id: string, list: Step[], heard = true) => {
    const stored: StoredEvent[] = [];
    for (const { raw, payload } of events(...list)) {
      const event = await log.append(id, raw, payload);
      if (heard) live.heard(event);
      stored.push(event);
    }
    return stored;
  };
  const fromLog = (id: string) => new TurnIndex((i, read) => log.read(i, read)).turns(id);
  return { log, reads, hold, live, store, fromLog };
}

/** Stores one step in session s, telling no index. */
function append(log: SqliteEventLog, step: Step): Promise<StoredEvent> {
  const { raw, payload } = events(step)[0]!;
  return log.append('s', raw, payload);
}

const prompts = (turns: Turn[]) => turns.map((turn) => [turn.prompt, turn.status]);
const page = (after: number) => ({ after, names: expect.any(Array), limit: 1000 });
const oldest = { limit: 1 };

/** A promise and the function that resolves it. */
function gate(): [Promise<void>, () => void] {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return [opened, open];
}

describe('the turn index on a local log', () => {
  it('folds the events it hears as a read of the log would, and reads none of them back', async () => {
    const { store, live, fromLog, reads } = hub();
    await store('s', steps.slice(0, 2));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([oldest, page(0)]);
    reads.length = 0;
    await store('s', steps.slice(2));
    const turns = await live.turns('s');
    expect(prompts(turns)).toEqual([
      ['a', 'COMPLETED'],
      ['b', 'COMPLETED'],
    ]);
    expect(turns).toEqual(await fromLog('s'));
    expect(reads).toEqual([]);
  });

  it('reads from the log past an event it did not hear, then hears on', async () => {
    const { store, live, fromLog, reads } = hub();
    await store('s', steps.slice(0, 2));
    await live.turns('s');
    await store('s', steps.slice(2, 4));
    await store('s', steps.slice(4, 5), false); // the Stop, not heard
    await store('s', steps.slice(5, 7));
    reads.length = 0;
    const turns = await live.turns('s');
    expect(turns).toEqual(await fromLog('s'));
    expect(prompts(turns)).toEqual([
      ['a', 'COMPLETED'],
      ['b', 'RUNNING'],
    ]);
    // Only the events after the last one folded, so none is folded twice.
    expect(reads).toEqual([page(4)]);
    reads.length = 0;
    await store('s', steps.slice(7));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([]);
  });

  it('goes on hearing after a read that ended on an event the fold does not need', async () => {
    const { store, live, fromLog, reads } = hub();
    await store('s', steps.slice(0, 3), false); // ends on the Notification
    await live.turns('s');
    await store('s', steps.slice(3, 4)); // heard after a gap (the Notification)
    await store('s', steps.slice(2, 3)); // another, heard
    reads.length = 0;
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([page(2)]);
    reads.length = 0;
    await store('s', steps.slice(4));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([]);
  });

  it('leaves an event heard while its read waits to query to the read, folding it once', async () => {
    const { store, live, fromLog, hold, reads, log } = hub();
    await store('s', steps.slice(0, 2));
    await live.turns('s');
    // Stored, not yet committed: the log's last seq is past what was heard, so the index reads.
    const appending = append(log, steps[3]!);
    const [before, open] = gate();
    hold.before = before;
    reads.length = 0;
    const reading = live.turns('s');
    live.heard(await appending);
    open();
    expect(await reading).toEqual(await fromLog('s'));
    expect(reads).toEqual([page(2)]);
    reads.length = 0;
    await store('s', steps.slice(4));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([]);
  });

  it('leaves an event heard after its read queried to the read, folding it once', async () => {
    const { store, live, fromLog, hold, reads, log } = hub();
    await store('s', steps.slice(0, 2));
    await live.turns('s');
    const event = await append(log, steps[3]!); // committed, heard only later
    const [after, open] = gate();
    hold.after = after;
    reads.length = 0;
    const reading = live.turns('s');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual([page(2)]);
    live.heard(event);
    open();
    const turns = await reading;
    expect(turns).toEqual(await fromLog('s'));
    expect(turns[0]!.actions.map((action) => [action.phase, action.ok])).toEqual([
      ['COMPLETED', true],
    ]);
    reads.length = 0;
    await store('s', steps.slice(4));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([]);
  });

  it('folds a session it dropped past its bound again from the log', async () => {
    const { store, live, fromLog, reads } = hub({ maxActions: 2 });
    await store('one', steps.slice(0, 5));
    await store('two', steps.slice(0, 5));
    await live.turns('one');
    await live.turns('two');
    // One's next call: its actions, heard, pass the bound, and two, read less recently, goes.
    await live.turns('one');
    await store('one', steps.slice(5, 8));
    await store('two', steps.slice(5, 8));
    reads.length = 0;
    expect(await live.turns('one')).toEqual(await fromLog('one'));
    expect(reads).toEqual([]);
    expect(await live.turns('two')).toEqual(await fromLog('two'));
    expect(reads).toEqual([oldest, page(0)]);
  });

  it('folds again from the oldest kept event once retention by count dropped some', async () => {
    const { store, live, fromLog, reads } = hub({ retention: { events: 6, maxAgeMs: 0 } });
    await store('s', steps.slice(0, 5));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    reads.length = 0;
    await store('s', steps.slice(5, 6));
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([]); // nothing dropped yet: not even the oldest is read
    await store('s', steps.slice(6));
    const turns = await live.turns('s');
    expect(turns).toEqual(await fromLog('s'));
    expect(prompts(turns)).toEqual([
      [null, 'COMPLETED'],
      ['b', 'COMPLETED'],
    ]);
    expect(reads).toEqual([oldest, page(0)]);
  });

  it('reads the oldest event again only once the one it folded from expired with age', async () => {
    let now = 1_000;
    const { store, live, fromLog, reads } = hub({
      retention: { events: 0, maxAgeMs: 10_000 },
      now: () => now,
    });
    await store('s', steps.slice(0, 5));
    await live.turns('s');
    now = 5_000;
    await store('s', steps.slice(5));
    reads.length = 0;
    expect(await live.turns('s')).toEqual(await fromLog('s'));
    expect(reads).toEqual([]); // the first event, at 1,000, is kept until 11,000
    now = 12_000;
    reads.length = 0;
    const turns = await live.turns('s');
    expect(turns).toEqual(await fromLog('s'));
    expect(prompts(turns)).toEqual([['b', 'COMPLETED']]);
    expect(reads).toEqual([oldest, page(0)]);
  });

  it('reads every time without a local log, as a cluster does', async () => {
    const { store, log } = hub();
    const reads: ReadOptions[] = [];
    const index = new TurnIndex((id, read) => {
      reads.push(read);
      return log.read(id, read);
    });
    await store('s', steps.slice(0, 5));
    await index.turns('s');
    index.heard((await store('s', steps.slice(5, 6)))[0]!);
    reads.length = 0;
    expect(prompts(await index.turns('s'))).toEqual([
      ['a', 'COMPLETED'],
      ['b', 'RUNNING'],
    ]);
    expect(reads).toEqual([oldest, page(5)]);
  });
});

describe("the SQLite log's keeps", () => {
  it('says whether reads still return an event, as retention by count and by age keep them', async () => {
    const { store, log } = hub({ retention: { events: 3, maxAgeMs: 0 } });
    const stored = await store('s', steps.slice(0, 5));
    expect(stored.map((event) => log.keeps('s', event))).toEqual([false, false, true, true, true]);
    expect((await log.read('s')).map((event) => event.seq)).toEqual([3, 4, 5]);

    let now = 1_000;
    const aged = hub({ retention: { events: 0, maxAgeMs: 10_000 }, now: () => now });
    const [first] = await aged.store('s', steps.slice(0, 1));
    now = 11_000;
    expect(aged.log.keeps('s', first!)).toBe(true);
    expect((await aged.log.read('s')).map((event) => event.seq)).toEqual([1]);
    now = 11_001;
    expect(aged.log.keeps('s', first!)).toBe(false);
    expect(await aged.log.read('s')).toEqual([]);
  });
});
