import { describe, expect, it } from 'vitest';
import { byId, Topic } from '../../src/events/topic.js';
import { isReadySource, type ReadySource } from '../../src/events/ready-source.js';

interface Change {
  readonly id: string;
  readonly n: number;
}

const tooSlow = () => new Error('too slow');

describe('TopicStream', () => {
  it('hands over the values of a turn with one wake-up, each latest state once by key, in order of change', () => {
    const topic = new Topic<Change>(byId);
    const stream = topic.stream(10, tooSlow, { conflate: true });
    expect(isReadySource(stream)).toBe(true);
    let woken = 0;
    expect(stream.wakeWhenReady(() => (woken += 1))).toBe(true);
    topic.publish({ id: 'a', n: 1 });
    topic.publish({ id: 'b', n: 1 });
    topic.publish({ id: 'a', n: 2 });
    expect(woken).toBe(1);
    expect([stream.takeReady(), stream.takeReady(), stream.takeReady()]).toEqual([
      { id: 'b', n: 1 },
      { id: 'a', n: 2 },
      undefined,
    ]);
    // Shared snapshots, and states rather than events: nothing to keep apart, no delay to count.
    const source: ReadySource<Change> = stream;
    expect(source.replaying ?? false).toBe(false);
    expect(source.receivedAt?.({ id: 'a', n: 3 })).toBeUndefined();
  });

  it("keeps one id's values with only, and gives every subscriber the same snapshot", () => {
    const topic = new Topic<Change>(byId);
    const [all, one] = [topic.stream(10, tooSlow), topic.stream(10, tooSlow, { only: 'b' })];
    const value = { id: 'b', n: 1 };
    topic.publish({ id: 'a', n: 1 });
    topic.publish(value);
    const [first, second] = [all.takeReady(), all.takeReady()];
    expect(first).toEqual({ id: 'a', n: 1 });
    expect(one.takeReady()).toBe(second);
    expect(second).not.toBe(value); // a snapshot: later changes of the record are not seen
    expect(one.takeReady()).toBeUndefined();
  });

  it('calls no listener of another key: a value costs one lookup, not a call a subscriber', async () => {
    const topic = new Topic<Change>(byId);
    const ids = Array.from({ length: 1_000 }, (_, i) => `s${i}`);
    const calls = new Map<string, number>();
    for (const id of ids) topic.listen(() => calls.set(id, (calls.get(id) ?? 0) + 1), id);
    topic.publish({ id: 's7', n: 1 });
    topic.publish({ id: 'other', n: 1 });
    expect([...calls]).toEqual([['s7', 1]]);

    const streams = ids.map((id) => topic.stream(10, tooSlow, { conflate: true, only: id }));
    topic.publish({ id: 's7', n: 2 });
    topic.publish({ id: 's7', n: 3 });
    expect(streams[7]!.takeReady()).toEqual({ id: 's7', n: 3 });
    expect(streams.map((stream) => stream.takeReady())).toEqual(ids.map(() => undefined));

    // Once every subscriber of a key has gone, a value of it reaches nobody.
    await Promise.all(streams.map((stream) => stream.return()));
    const all = topic.stream(10, tooSlow);
    topic.publish({ id: 's7', n: 3 });
    expect(all.takeReady()).toEqual({ id: 's7', n: 3 });
    expect(streams[7]!.takeReady()).toBeUndefined();
    expect(() => new Topic<Change>().listen(() => undefined, 's7')).toThrow();
  });

  it('fails next() once it falls behind, and stops listening; return() stops it at once', async () => {
    const topic = new Topic<Change>();
    const stream = topic.stream(2, tooSlow);
    for (let n = 0; n < 3; n++) topic.publish({ id: 'a', n });
    expect(stream.wakeWhenReady(() => expect.unreachable('failed already'))).toBe(false);
    await expect(stream.next()).rejects.toThrow('too slow');
    // Nobody listens any more: publishing costs nothing and reaches no queue.
    let copies = 0;
    topic.listen(() => (copies += 1));
    topic.publish({ id: 'a', n: 4 });
    expect(copies).toBe(1);
    expect(stream.takeReady()).toBeUndefined();

    const ended = topic.stream(10, tooSlow);
    const waiting = ended.next();
    await ended.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    topic.publish({ id: 'a', n: 5 });
    expect(ended.takeReady()).toBeUndefined();
  });
});
