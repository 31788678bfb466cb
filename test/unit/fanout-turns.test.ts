import { setTimeout as nextTurn } from 'node:timers/promises';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { FanoutTurns, type FanoutConnection } from '../../src/subscriptions/fanout-turns.js';

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
    await nextTurn(0);
    expect(log).toEqual(['oldest 1', 'oldest 2', 'oldest written', 'newest', 'newest written']);
    // Once that turn is over, the next one has its budget again.
    await nextTurn(0);
    expect(turns.wait(middle, resume('middle'))).toBe(false);
  });

  it('lets a subscription go on in each turn, whatever the budget', async () => {
    const turns = new FanoutTurns(0);
    const a = connection(turns, 'a', []);
    expect(turns.wait(a, () => expect.unreachable('not spent yet'))).toBe(false);
    work(1);
    let wentOn: boolean | undefined;
    expect(turns.wait(a, () => (wentOn = !turns.wait(a, () => {})))).toBe(true);
    await nextTurn(0);
    expect(wentOn).toBe(true);
  });

  it('never runs a slice between reading hooks and storing them', async () => {
    const turns = new FanoutTurns(1);
    const log: string[] = [];
    const a = connection(turns, 'a', log);
    // Hooks come in on a socket; the event log stores what a turn read in an immediate.
    const server = net.createServer((socket) =>
      socket.on('data', () => {
        log.push('hooks read');
        setImmediate(() => log.push('hooks stored'));
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    await Promise.all([once(client, 'connect'), once(server, 'connection')]);
    // In a check phase, as when a batch of hooks has been stored and its subscribers run: the
    // budget is spent while more hooks reach the socket, read in the loop's next poll.
    setImmediate(() => {
      expect(turns.wait(a, () => log.push('fan-out'))).toBe(false);
      work(2);
      expect(turns.wait(a, () => log.push('fan-out'))).toBe(true);
      client.write('hook');
    });
    await vi.waitFor(() => expect(log).toContain('hooks stored'));
    await vi.waitFor(() => expect(log).toContain('a written'));
    client.destroy();
    server.close();
    expect(log.indexOf('hooks stored')).toBe(log.indexOf('hooks read') + 1);
  });

  it('runs woken subscriptions once what is under way has finished, each connection written right after its own', async () => {
    const turns = new FanoutTurns(5);
    const log: string[] = [];
    const [a, b] = [connection(turns, 'a', log), connection(turns, 'b', log)];
    const run = (name: string) => () => log.push(name);
    turns.wake(b, run('b1'));
    turns.wake(a, run('a1'));
    turns.wake(b, run('b2'));
    expect(log).toEqual([]);
    await new Promise(process.nextTick);
    expect(log).toEqual(['b1', 'b2', 'b written', 'a1', 'a written']);
  });

  it('counts writes alone (held messages come due) in the budget', async () => {
    const turns = new FanoutTurns(1);
    const log: string[] = [];
    const slow = (name: string): FanoutConnection => ({
      place: turns.place(),
      flush: () => {
        log.push(`${name} written`);
        work(2);
      },
    });
    const [a, b, c] = [slow('a'), slow('b'), slow('c')];
    for (const connection of [a, b, c]) turns.wake(connection, () => {});
    await new Promise(process.nextTick);
    // The turn's clock starts with its first write: the second spends the budget.
    expect(log).toEqual(['a written', 'b written']);
    await nextTurn(0);
    expect(log).toEqual(['a written', 'b written', 'c written']);
  });

  it('leaves the connections a spent turn does not reach as they are, to run in the next', async () => {
    const turns = new FanoutTurns(1);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => connection(turns, name, log)) as [
      FanoutConnection,
      FanoutConnection,
      FanoutConnection,
    ];
    expect(turns.wait(a, () => expect.unreachable('not spent yet'))).toBe(false);
    work(2);
    // Three connections wait; the oldest one's run sends an event (a relay asks first) that
    // takes all of the next turn's budget.
    expect(
      turns.wait(a, () => {
        expect(turns.wait(a, () => expect.unreachable('sent'))).toBe(false);
        log.push('a');
        work(2);
      }),
    ).toBe(true);
    expect(turns.wait(b, () => log.push('b'))).toBe(true);
    expect(turns.wait(c, () => log.push('c'))).toBe(true);
    await nextTurn(0);
    expect(log).toEqual(['a', 'a written']);
    await nextTurn(0);
    expect(log).toEqual(['a', 'a written', 'b', 'b written', 'c', 'c written']);
  });
});
