import { describe, expect, it } from 'vitest';
import { SubscriberQueue } from '../../src/events/subscriber-queue.js';
import { currentThenChanges, Topic } from '../../src/events/topic.js';

describe('SubscriberQueue', () => {
  it('hands items over in order, to a waiting reader at once', async () => {
    const queue = new SubscriberQueue<number>(10, () => new Error('too slow'));
    const waiting = queue.next();
    queue.push(1);
    queue.push(2);
    expect(await waiting).toEqual({ value: 1, done: false });
    expect(await queue.next()).toEqual({ value: 2, done: false });
    queue.close();
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('fails a reader that falls more than the limit behind, and never blocks the publisher', async () => {
    const queue = new SubscriberQueue<number>(3, () => new Error('SUBSCRIBER_TOO_SLOW'));
    for (let i = 0; i < 4; i++) queue.push(i);
    expect(queue.size).toBe(0);
    await expect(queue.next()).rejects.toThrow('SUBSCRIBER_TOO_SLOW');
    queue.push(9);
    await expect(queue.next()).rejects.toThrow('SUBSCRIBER_TOO_SLOW');
  });

  it('conflates by key: a state queued again replaces the one waiting, in its place', async () => {
    const queue = new SubscriberQueue<{ id: string; v: number }>(
      3,
      () => new Error('SUBSCRIBER_TOO_SLOW'),
      (item) => item.id,
    );
    // Thousands of changes of three sessions: never more than three waiting, never cut.
    for (let v = 0; v < 3000; v++) queue.push({ id: `s${v % 3}`, v });
    expect(queue.size).toBe(3);
    expect([queue.shift(), queue.shift()]).toEqual([
      { id: 's0', v: 2997 },
      { id: 's1', v: 2998 },
    ]);
    // Taken, a key queues anew, behind those still waiting.
    queue.push({ id: 's0', v: 3000 });
    queue.push({ id: 's2', v: 3001 });
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([
      { id: 's2', v: 3001 },
      { id: 's0', v: 3000 },
      undefined,
    ]);
    // Past the compaction of a long queue, keys still find their items.
    const long = new SubscriberQueue<{ id: number; v: number }>(
      5000,
      () => new Error('SUBSCRIBER_TOO_SLOW'),
      (item) => item.id,
    );
    for (let id = 0; id < 3000; id++) long.push({ id, v: 0 });
    for (let id = 0; id < 2000; id++) long.shift();
    for (let id = 2000; id < 3000; id++) long.push({ id, v: 1 });
    expect(long.size).toBe(1000);
    expect(long.shift()).toEqual({ id: 2000, v: 1 });
  });

  it('wakes a reader once, from the next push, the overflow or the end, with no promise', () => {
    const queue = new SubscriberQueue<number>(2, () => new Error('SUBSCRIBER_TOO_SLOW'));
    let wakes = 0;
    const wake = () => (wakes += 1);
    expect(queue.wakeOnNext(wake)).toBe(true);
    queue.push(1);
    queue.push(2);
    expect(wakes).toBe(1);
    // Something to read already: no wake is armed.
    expect(queue.wakeOnNext(wake)).toBe(false);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([1, 2, undefined]);
    expect(queue.wakeOnNext(wake)).toBe(true);
    for (let i = 0; i < 3; i++) queue.push(i);
    expect(wakes).toBe(2);
    // Overflowed: the reader must call next() to learn of it.
    expect(queue.wakeOnNext(wake)).toBe(false);
    const ending = new SubscriberQueue<number>(2, () => new Error('SUBSCRIBER_TOO_SLOW'));
    expect(ending.wakeOnNext(wake)).toBe(true);
    ending.close();
    expect(wakes).toBe(3);
    expect(ending.wakeOnNext(wake)).toBe(false);
  });
});

describe('currentThenChanges', () => {
  it('gives the current state, then every change published after it was read, none twice', async () => {
    const topic = new Topic<{ id: number }>();
    const state = [{ id: 1 }, { id: 2 }];
    const stream = currentThenChanges(
      topic.stream(10, () => new Error('too slow')),
      () => {
        topic.publish({ id: 3 }); // a change while the state is read: after it, not lost
        return state;
      },
    );
    topic.publish({ id: 4 });
    const read = [];
    for (let i = 0; i < 4; i++) read.push((await stream.next()).value);
    expect(read).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(await stream.return!()).toEqual({ value: undefined, done: true });
  });
});
