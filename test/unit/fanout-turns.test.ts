import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FanoutTurns } from '../../src/subscriptions/fanout-turns.js';

/** Holds the event loop for `ms`, as fan-out work would. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('FanoutTurns', () => {
  it('lets fan-out go on at once while the turn has budget left', () => {
    const turns = new FanoutTurns(1000);
    const [a, b] = [turns.place(), turns.place()];
    expect(turns.wait(a)).toBeUndefined();
    expect(turns.wait(b)).toBeUndefined();
  });

  it('sends the rest to a later turn once the budget is spent, and goes on oldest first', async () => {
    const turns = new FanoutTurns(2);
    const [oldest, middle, newest] = [turns.place(), turns.place(), turns.place()];
    const order: string[] = [];
    expect(turns.wait(middle)).toBeUndefined();
    work(3);
    // Spent: the newest asks first, but the oldest goes on first in the next turn.
    const waits = [
      turns.wait(newest)!.then(() => order.push('newest')),
      turns.wait(oldest)!.then(() => order.push('oldest')),
    ];
    // Once someone waits, nobody jumps the queue, budget or not.
    expect(waits.every((wait) => wait instanceof Promise)).toBe(true);
    // Not in this turn, whatever microtasks run.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(order).toEqual([]);
    await Promise.all(waits);
    expect(order).toEqual(['oldest', 'newest']);
    // The new turn has its budget again.
    await nextTurn();
    expect(turns.wait(middle)).toBeUndefined();
  });
});
