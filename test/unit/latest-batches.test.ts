import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchInterval } from '../../src/events/latest-batches.js';
import { byId, Topic } from '../../src/events/topic.js';

interface Change {
  readonly id: string;
  readonly n: number;
}

/** The batch's changes as `id:n`. */
const shown = (batch: readonly Change[] | undefined) => batch?.map(({ id, n }) => `${id}:${n}`);

describe("a topic's changes in batches", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first change after a quiet interval at once, and the next ones at the next tick, each key once', () => {
    const topic = new Topic<Change>(byId);
    const reader = topic.batches(100);
    const woken: number[] = [];
    expect(reader.takeReady()).toBeUndefined();
    expect(reader.wakeWhenReady(() => woken.push(performance.now()))).toBe(true);

    topic.publish({ id: 'a', n: 1 });
    expect(woken).toHaveLength(1);
    expect(shown(reader.takeReady())).toEqual(['a:1']);
    expect(reader.takeReady()).toBeUndefined();

    // Within the interval: held until its end, a key's changes merged into its latest.
    expect(reader.wakeWhenReady(() => woken.push(performance.now()))).toBe(true);
    vi.advanceTimersByTime(30);
    topic.publish({ id: 'b', n: 1 });
    topic.publish({ id: 'a', n: 2 });
    topic.publish({ id: 'c', n: 1 });
    topic.publish({ id: 'b', n: 2 });
    expect(woken).toHaveLength(1);
    expect(reader.takeReady()).toBeUndefined();
    vi.advanceTimersByTime(69);
    expect(woken).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(woken).toHaveLength(2);
    expect(shown(reader.takeReady())).toEqual(['a:2', 'c:1', 'b:2']);
    expect(reader.takeReady()).toBeUndefined();
  });

  it('gives the readers at one place the same batch, and one behind all it missed in one', () => {
    const topic = new Topic<Change>(byId);
    const [first, second, behind] = [topic.batches(100), topic.batches(80), topic.batches(100)];
    for (const reader of [first, second, behind]) reader.wakeWhenReady(() => undefined);
    topic.publish({ id: 'a', n: 1 });
    const batch = first.takeReady();
    expect(shown(batch)).toEqual(['a:1']);
    // 80 ms is paced as 100: the same tick, the same array (and so one result for both).
    expect(second.takeReady()).toBe(batch);

    first.wakeWhenReady(() => undefined);
    topic.publish({ id: 'b', n: 1 });
    vi.advanceTimersByTime(100);
    expect(shown(first.takeReady())).toEqual(['b:1']);
    first.wakeWhenReady(() => undefined);
    topic.publish({ id: 'a', n: 2 });
    vi.advanceTimersByTime(100);
    expect(shown(first.takeReady())).toEqual(['a:2']);
    // Never read since its first batch: each key's latest once, in the order of their change.
    expect(shown(behind.takeReady())).toEqual(['b:1', 'a:2']);
    expect(behind.takeReady()).toBeUndefined();
  });

  it('sends the first change at once to a reader that joined a feed with changes before it', () => {
    const topic = new Topic<Change>(byId);
    topic.batches(100);
    topic.publish({ id: 'a', n: 1 });
    vi.advanceTimersByTime(30);
    const late = topic.batches(250);
    const woken: number[] = [];
    expect(late.wakeWhenReady(() => woken.push(performance.now()))).toBe(true);
    vi.advanceTimersByTime(500);
    expect(woken).toEqual([]);
    topic.publish({ id: 'b', n: 1 });
    expect(woken).toHaveLength(1);
    expect(shown(late.takeReady())).toEqual(['b:1']);
  });

  it('ends a reader waiting for its batch, and goes on for the others', async () => {
    const topic = new Topic<Change>(byId);
    const [ending, going] = [topic.batches(100), topic.batches(100)];
    const next = ending.next();
    await ending.return();
    expect(await next).toEqual({ value: undefined, done: true });
    const batch = going.next();
    topic.publish({ id: 'a', n: 1 });
    expect(shown((await batch).value)).toEqual(['a:1']);
  });

  it('paces at one of a few intervals, so that readers share their batches', () => {
    expect([25, 26, 100, 101, 999, 5000].map(batchInterval)).toEqual([
      25, 50, 100, 250, 1000, 5000,
    ]);
  });
});
