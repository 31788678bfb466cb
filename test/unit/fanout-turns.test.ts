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
    const resume = () => expect.unreachable('resumed without waiting');
    expect(turns.wait(a, resume)).toBe(false);
    expect(turns.wait(b, resume)).toBe(false);
  });

  it('sends the rest to a later turn once the budget is spent, and goes on oldest first', async () => {
    const turns = new FanoutTurns(2);
    const [oldest, middle, newest] = [turns.place(), turns.place(), turns.place()];
    const order: string[] = [];
    const resume = (name: string) => () => order.push(name);
    expect(turns.wait(middle, resume('middle'))).toBe(false);
    work(3);
    // Spent: the newest asks first, but the oldest goes on first in the next turn.
    expect(turns.wait(newest, resume('newest'))).toBe(true);
    expect(turns.wait(oldest, resume('oldest'))).toBe(true);
    // Not in this turn, whatever microtasks run.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(order).toEqual([]);
    await nextTurn();
    expect(order).toEqual(['oldest', 'newest']);
    // The new turn has its budget again.
    expect(turns.wait(middle, resume('middle'))).toBe(false);
  });
});
