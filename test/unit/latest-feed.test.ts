import { describe, expect, it } from 'vitest';
import { byId, Topic } from '../../src/events/topic.js';
import { isReadySource } from '../../src/events/ready-source.js';

interface Change {
  readonly id: string;
  readonly n: number;
}

const tooSlow = () => new Error('too slow');

/** A seeded generator, so a failure can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('the feed that conflating subscribers of a topic share', () => {
  it.each([
    ['one never reads until the end', [1, 0.5, 0.1, 0.01, 0]],
    ['each reads now and then', [1, 0.5, 0.1, 0.01]],
  ])(
    'gives each reader every key’s latest value once it has read all, in order of change (%s)',
    (_, paces) => {
      const next = random(7);
      const topic = new Topic<Change>(byId);
      const latest = new Map<string, number>();
      // How likely each reader reads after a change: 1 keeps up, 0.01 is far behind, 0 never
      // reads until the end (and holds back the feed's letting go of what all have taken).
      const readers = paces.map((pace) => ({
        stream: topic.stream(10, tooSlow, { conflate: true }),
        got: new Map<string, number>(),
        pace,
      }));
      const drain = (reader: (typeof readers)[number]) => {
        const seen = new Set<string>();
        let last = -Infinity;
        for (let value = reader.stream.takeReady(); value; value = reader.stream.takeReady()) {
          // One value a key a drain, each newer than what the reader had of it.
          expect(seen.has(value.id)).toBe(false);
          seen.add(value.id);
          expect(value.n).toBeGreaterThan(reader.got.get(value.id) ?? -1);
          expect(value.n).toBeGreaterThan(last); // n grows with every change: the order of change
          last = value.n;
          reader.got.set(value.id, value.n);
        }
        // Caught up: it has every key's latest value.
        for (const [id, n] of latest) if (reader.got.get(id) !== n) behind.push([id, n]);
      };
      const behind: [string, number][] = [];
      for (let n = 0; n < 5_000; n++) {
        const id = `s${Math.floor(next() ** 2 * 50)}`;
        topic.publish({ id, n });
        latest.set(id, n);
        for (const reader of readers) if (next() < reader.pace) drain(reader);
      }
      for (const reader of readers) drain(reader);
      expect(behind).toEqual([]);
    },
  );

  it('holds a reader that never reads to one value a key, and wakes it once a turn', async () => {
    const topic = new Topic<Change>(byId);
    const stream = topic.stream(10, tooSlow, { conflate: true });
    expect(isReadySource(stream)).toBe(true);
    let woken = 0;
    expect(stream.wakeWhenReady(() => (woken += 1))).toBe(true);
    for (let n = 0; n < 100_000; n++) topic.publish({ id: n % 2 ? 'a' : 'b', n });
    expect(woken).toBe(1);
    expect([stream.takeReady(), stream.takeReady(), stream.takeReady()]).toEqual([
      { id: 'b', n: 99_998 },
      { id: 'a', n: 99_999 },
      undefined,
    ]);
    expect(await Promise.race([stream.next(), Promise.resolve('waiting')])).toBe('waiting');
  });

  it('starts a reader at the present, gives every reader the same objects, and ends at once', async () => {
    const topic = new Topic<Change>(byId);
    const first = topic.stream(10, tooSlow, { conflate: true });
    topic.publish({ id: 'a', n: 1 });
    const second = topic.stream(10, tooSlow, { conflate: true });
    topic.publish({ id: 'b', n: 2 });
    const value = first.takeReady();
    expect(value).toEqual({ id: 'a', n: 1 });
    const shared = first.takeReady();
    expect(second.takeReady()).toBe(shared);
    expect(second.takeReady()).toBeUndefined();

    const waiting = second.next();
    topic.publish({ id: 'a', n: 3 });
    expect(await waiting).toEqual({ value: { id: 'a', n: 3 }, done: false });

    const pending = second.next();
    await second.return();
    expect(await pending).toEqual({ value: undefined, done: true });
    const third = topic.stream(10, tooSlow, { conflate: true });
    let woken = 0;
    expect(third.wakeWhenReady(() => (woken += 1))).toBe(true);
    await third.return();
    expect(woken).toBe(1);
    expect(second.wakeWhenReady(() => expect.unreachable('ended'))).toBe(false);
    topic.publish({ id: 'a', n: 4 });
    expect(second.takeReady()).toBeUndefined();
    expect(first.takeReady()).toEqual({ id: 'a', n: 4 });

    // With every reader gone the feed lets go and stops listening; a new one starts afresh.
    await first.return();
    topic.publish({ id: 'c', n: 5 });
    const later = topic.stream(10, tooSlow, { conflate: true });
    expect(later.takeReady()).toBeUndefined();
    topic.publish({ id: 'c', n: 6 });
    expect(later.takeReady()).toEqual({ id: 'c', n: 6 });
  });
});
