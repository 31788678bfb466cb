import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { runEventNames, type Turn } from '../../src/runs/run-fold.js';
import { everyCompletedTurn } from '../../src/runs/run-reader.js';
import { SubscriberQueue } from '../../src/events/subscriber-queue.js';
import { TurnIndex } from '../../src/runs/turn-index.js';
import {
  events,
  foldTurns,
  post,
  pre,
  prompt,
  sessionId,
  stop,
  type Step,
} from '../helpers/run-events.js';

function arrayLog(list: StoredEvent[]) {
  const log = {
    list,
    eventsRead: 0,
    read: async (
      _id: string,
      options: { after?: number; limit?: number; names?: readonly string[] },
    ) => {
      const found = log.list
        .filter((event) => event.seq > (options.after ?? 0))
        .filter((event) => !options.names || options.names.includes(event.eventName))
        .slice(0, options.limit ?? Infinity);
      log.eventsRead += found.length;
      return found;
    },
  };
  return log;
}

/** A turn as the index keeps it: its actions without detail. */
const withoutDetail = (turn: Turn): Turn => ({
  ...turn,
  actions: turn.actions.map((action) => ({ ...action, detail: null })),
});

describe('the turn index', () => {
  // A session whose last call completes later (the last event), and how it is before that.
  const grown = events(
    prompt('a'),
    pre('1', 'Bash', { command: 'x' }),
    post('1', 'Bash', { command: 'x' }, { stdout: 'out-1' }),
    ['Notification', { message: 'not a run event' }],
    stop('A'),
    prompt('b'),
    pre('2', 'Write', { file_path: '/f', content: 'c' }),
    post('2', 'Write', { file_path: '/f', content: 'c' }, { type: 'create' }),
    pre('3', 'Bash', { command: 'y' }),
    post('3', 'Bash', { command: 'y' }, { stdout: 'late' }),
  );
  const session = grown.slice(0, -1);

  it('folds a session once, then only the events stored since, to what a fresh fold gives', async () => {
    const log = arrayLog(session.slice(0, 5));
    const index = new TurnIndex(log.read);
    expect(await index.turns(sessionId)).toEqual(foldTurns(sessionId, log.list).map(withoutDetail));
    const runEvents = log.eventsRead;
    log.list = session;
    const turns = await index.turns(sessionId);
    expect(turns).toEqual(foldTurns(sessionId, session).map(withoutDetail));
    expect(turns.map((t) => [t.number, t.status])).toEqual([
      [1, 'COMPLETED'],
      [2, 'RUNNING'],
    ]);
    // The first read took the oldest event and the run events; the second only the new ones.
    expect(runEvents).toBe(1 + 4);
    expect(log.eventsRead - runEvents).toBe(1 + 4);
  });

  it("gives back an action's detail as of the phase it was read in", async () => {
    const log = arrayLog(session);
    const index = new TurnIndex(log.read);
    const [first, second] = await index.turns(sessionId);
    const full = foldTurns(sessionId, session);
    expect(await index.detail(first!.actions[0]!)).toEqual(full[0]!.actions[0]!.detail);
    expect(await index.detail(second!.actions[1]!)).toEqual({ input: { command: 'y' } });
    expect(await index.detail(second!.actions[0]!)).toMatchObject({
      changes: [{ path: '/f', kind: 'add' }],
    });
    // The open call completes after it was read: its detail is still the STARTED one's.
    log.list = [
      ...session,
      ...events(
        ...session.map((): Step => ['Notification']),
        post('3', 'Bash', {}, { stdout: 'late' }),
      ).slice(-1),
    ];
    expect(await index.detail(second!.actions[1]!)).toEqual({ input: { command: 'y' } });
    const [, now] = await index.turns(sessionId);
    expect(await index.detail(now!.actions[1]!)).toMatchObject({ response: { stdout: 'late' } });
  });

  it('folds again from the oldest kept event when retention dropped the first ones', async () => {
    const log = arrayLog(session);
    const index = new TurnIndex(log.read);
    expect((await index.turns(sessionId)).map((t) => t.prompt)).toEqual(['a', 'b']);
    log.list = session.slice(5);
    const turns = await index.turns(sessionId);
    expect(turns.map((t) => [t.number, t.prompt])).toEqual([[1, 'b']]);
    expect(turns).toEqual(foldTurns(sessionId, log.list).map(withoutDetail));
  });

  it('drops the least recently read sessions past its bound, and folds them again when asked', async () => {
    const log = arrayLog(session);
    const index = new TurnIndex(log.read, { maxActions: 4 });
    await index.turns('one');
    await index.turns('two');
    const before = log.eventsRead;
    await index.turns('two');
    expect(log.eventsRead - before).toBe(1); // kept: only the oldest event, to check it
    await index.turns('one');
    expect(log.eventsRead - before - 1).toBe(1 + runEventCount(session));
  });
});

function runEventCount(list: StoredEvent[]): number {
  return list.filter((event) => (runEventNames as readonly string[]).includes(event.eventName))
    .length;
}

describe('the turns of every session', () => {
  const twoTurns = events(prompt('a'), stop('A'), prompt('b'), stop('B'));
  const source = (updates: SubscriberQueue<{ id: string }>) => ({
    sessionEvents: () =>
      (async function* () {
        yield* twoTurns;
      })(),
    list: () => [{ id: 'one' }],
    sessionUpdates: () => updates,
  });

  it('merges the sessions there are and those created later', async () => {
    const updates = new SubscriberQueue<{ id: string }>(10, () => new Error('overflow'));
    const turns = everyCompletedTurn(source(updates), 0);
    const take = async () => (await turns.next()).value!;
    expect([(await take()).id, (await take()).id]).toEqual(['one:1', 'one:3']);
    updates.push({ id: 'two' });
    updates.push({ id: 'one' }); // an update of a session it watches already
    expect([(await take()).id, (await take()).id]).toEqual(['two:1', 'two:3']);
    await turns.return!();
    expect(await turns.next()).toEqual({ value: undefined, done: true });
  });

  it('drops a subscriber that falls `limit` turns behind', async () => {
    const updates = new SubscriberQueue<{ id: string }>(10, () => new Error('overflow'));
    const turns = everyCompletedTurn(source(updates), 0, 1);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(turns.next()).rejects.toMatchObject({
      extensions: { code: 'SUBSCRIBER_TOO_SLOW' },
      message: 'subscriber fell more than 1 turns behind; subscribe again with after',
    });
  });
});
