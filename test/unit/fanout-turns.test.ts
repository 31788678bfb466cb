import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  FanoutTurns,
  runByConnection,
  type FanoutConnection,
} from '../../src/subscriptions/fanout-turns.js';

/** Holds the event loop for `ms`, as fan-out work would. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A connection that notes its writes in `log`. */
function connection(turns: FanoutTurns, name: string, log: string[]): FanoutConnection {
  return { place: turns.place(), flush: () => log.push(`${name} written`) };
}

describe('FanoutTurns', () => {
  it('lets fan-out go on at once while the turn has budget left', () => {
    const turns = new FanoutTurns(1000);
    const [a, b] = [connection(turns, 'a', []), connection(turns, 'b', [])];
    const resume = () => expect.unreachable('resumed without waiting');
    expect(turns.wait(a, resume)).toBe(false);
    expect(turns.wait(b, resume)).toBe(false);
  });

  it('sends the rest to a later turn once the budget is spent; the oldest connection goes on first, and each is written before the next', async () => {
    const turns = new FanoutTurns(2);
    const log: string[] = [];
    const [oldest, middle, newest] = ['oldest', 'middle', 'newest'].map((name) =>
      connection(turns, name, log),
    ) as [FanoutConnection, FanoutConnection, FanoutConnection];
    const resume = (name: string) => () => log.push(name);
    expect(turns.wait(middle, resume('middle'))).toBe(false);
    work(3);
    // Spent: the newest asks first, but the oldest goes on first in the next turn, with both
    // its subscriptions, and its messages are written before the newest's run.
    expect(turns.wait(newest, resume('newest'))).toBe(true);
    expect(turns.wait(oldest, resume('oldest 1'))).toBe(true);
    expect(turns.wait(oldest, resume('oldest 2'))).toBe(true);
    // Not in this turn, whatever microtasks run.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['oldest 1', 'oldest 2', 'oldest written', 'newest', 'newest written']);
    // The new turn has its budget again.
    expect(turns.wait(middle, resume('middle'))).toBe(false);
  });

  it('runs connections in the order given, each written after its own subscriptions', () => {
    const turns = new FanoutTurns(5);
    const log: string[] = [];
    const [a, b] = [connection(turns, 'a', log), connection(turns, 'b', log)];
    const run = (name: string) => () => log.push(name);
    runByConnection([
      [b, [run('b1')]],
      [a, [run('a1'), run('a2')]],
    ]);
    expect(log).toEqual(['b1', 'b written', 'a1', 'a2', 'a written']);
  });
});
