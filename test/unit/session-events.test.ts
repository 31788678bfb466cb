import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { LocalEventBus } from '../../src/events/event-bus.js';
import type { HookPayload } from '../../src/events/hook-event.js';
import { sessionEvents, type SessionEventsDeps } from '../../src/subscriptions/session-events.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';

function setup(replayPageSize: number) {
  const log = new SqliteEventLog(
    new Database(':memory:').exec(
      `CREATE TABLE events (session_id TEXT, seq INTEGER, name TEXT, received_at INTEGER, payload TEXT, PRIMARY KEY (session_id, seq))`,
    ),
  );
  const bus = new LocalEventBus();
  const open = { count: 0 };
  const deps: SessionEventsDeps = {
    log,
    bus,
    bufferLimit: 100,
    replayPageSize,
    liveFrom: (id) => log.lastSeq(id),
    isEnded: () => false,
    streams: {
      open: () => void open.count++,
      close: () => void open.count--,
      cut: () => undefined,
    },
  };
  /** Stores an event and publishes it, as the session manager does. */
  const add = async (message: string) => {
    const payload: HookPayload = { session_id: 's', hook_event_name: 'Notification', message };
    const event = await log.append('s', JSON.stringify(payload), payload);
    bus.publish('s', { kind: 'event', event });
    return event;
  };
  return { deps, add, open, bus };
}

describe('sessionEvents', () => {
  it('hands over replay pages and live events without a wait each, with no gap and no duplicate', async () => {
    const { deps, add } = setup(2);
    for (let i = 1; i <= 5; i++) await add(`m${i}`);
    const stream = sessionEvents(deps, 's', 1);
    const seqs: number[] = [];
    const first = await stream.next();
    seqs.push(first.value!.seq);
    expect(stream.replaying).toBe(true);
    // Published while the replay is under way: delivered once, after the stored ones.
    await add('m6');
    await add('m7');
    while (seqs.length < 6) {
      const ready = stream.takeReady();
      if (ready) seqs.push(ready.seq);
      else seqs.push((await stream.next()).value!.seq);
    }
    expect(seqs).toEqual([2, 3, 4, 5, 6, 7]);
    expect(stream.replaying).toBe(true);
    expect(stream.takeReady()).toBeUndefined();
    await add('m8');
    await add('m9');
    // The replay may only end on the next read: next() tells, then the rest is ready.
    expect((await stream.next()).value?.payload.message).toBe('m8');
    expect(stream.takeReady()?.raw).toBe(
      JSON.stringify({ session_id: 's', hook_event_name: 'Notification', message: 'm9' }),
    );
    // The read finds nothing more: what follows is live, the bus's events, shared by everyone.
    const live = stream.next();
    await add('m10');
    expect((await live).value?.seq).toBe(10);
    expect(stream.replaying).toBe(false);
    await stream.return();
  });

  it('wakes a live reader once per batch of events instead of a promise each, and at the end', async () => {
    const { deps, add, bus } = setup(10);
    await add('stored');
    const stream = sessionEvents(deps, 's', 0);
    let wakes = 0;
    const wake = () => (wakes += 1);
    // Opening and replaying go through next(): no wake can be armed yet.
    expect(stream.wakeWhenReady(wake)).toBe(false);
    expect((await stream.next()).value?.seq).toBe(1);
    expect(stream.takeReady()).toBeUndefined();
    expect(stream.wakeWhenReady(wake)).toBe(false);
    const live = stream.next();
    await add('m2');
    await add('m3');
    expect((await live).value?.seq).toBe(2);
    expect(stream.takeReady()?.seq).toBe(3);
    expect(stream.replaying).toBe(false);
    expect(stream.wakeWhenReady(wake)).toBe(true);
    await add('m4');
    await add('m5');
    expect(wakes).toBe(1);
    expect([stream.takeReady()?.seq, stream.takeReady()?.seq, stream.takeReady()]).toEqual([
      4,
      5,
      undefined,
    ]);
    expect(stream.wakeWhenReady(wake)).toBe(true);
    bus.publish('s', { kind: 'end' });
    expect(wakes).toBe(2);
    expect(stream.takeReady()).toBeUndefined();
    expect(stream.wakeWhenReady(wake)).toBe(false);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('ends at once when returned while it waits, and leaves the bus', async () => {
    const { deps, add, open } = setup(10);
    const stream = sessionEvents(deps, 's', null);
    const waiting = stream.next();
    expect(open.count).toBe(1);
    await stream.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(open.count).toBe(0);
    await add('after');
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('ends after the session end it is sent', async () => {
    const { deps, add, bus } = setup(10);
    const stream = sessionEvents(deps, 's', 0);
    const first = stream.next();
    await add('last');
    bus.publish('s', { kind: 'end' });
    expect((await first).value?.payload.message).toBe('last');
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
