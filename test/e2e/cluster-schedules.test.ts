import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { connectRedis } from '../../src/cluster/redis-connection.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { RedisTickClaims } from '../../src/cluster/tick-claims.js';
import type { Redis } from 'ioredis';
import { vi } from 'vitest';
import { ShiftedClock } from '../helpers/fake-clock.js';
import { startHub, type TestHub } from '../helpers/hub.js';

describe("a schedule's ticks across the nodes of a cluster, on a real Redis", () => {
  let redis: RedisServer;
  const connections: Redis[] = [];
  const keys = new RedisKeys(`cch-schedules-${process.pid}`);

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await redis?.stop();
  });

  const node = async (name: string, ttlMs?: number) => {
    const connection = await connectRedis(redis.url, `test:${name}`);
    connections.push(connection);
    return { name, claims: new RedisTickClaims(connection, keys, name, ttlMs), connection };
  };

  it('gives each tick to exactly one of the nodes racing for it, and names the winner', async () => {
    const nodes = await Promise.all(['a', 'b', 'c'].map((name) => node(name)));
    const tickAt = Date.UTC(2026, 10, 26, 12, 5);
    for (let round = 0; round < 20; round++) {
      const tick = tickAt + round * 60_000;
      const won = await Promise.all(nodes.map(({ claims }) => claims.claim('schedule-1', tick)));
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = nodes[won.indexOf(true)]!;
      expect(await winner.connection.get(keys.scheduleTick('schedule-1', tick))).toBe(winner.name);
      // A node that reaches the tick late finds it taken.
      expect(await nodes[0]!.claims.claim('schedule-1', tick)).toBe(false);
    }
    // Another schedule's tick at the same time is a tick of its own.
    const other = await Promise.all(nodes.map(({ claims }) => claims.claim('schedule-2', tickAt)));
    expect(other.filter(Boolean)).toHaveLength(1);
  });

  it("keeps a claimed tick's key only for the claim's life", async () => {
    const [a] = await Promise.all([node('short-a', 200)]);
    expect(await a!.claims.claim('schedule-3', 1)).toBe(true);
    const ttl = await a!.connection.pttl(keys.scheduleTick('schedule-3', 1));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(200);
  });

  it('shares a schedule with every node, fires each tick on one of them, and deletes it everywhere', async () => {
    const clock = new ShiftedClock();
    const prefix = `cch-schedule-hubs-${process.pid}`;
    const node = (name: string) =>
      startHub({
        args: ['--redis-url', redis.url, '--redis-prefix', prefix, '--node-name', name],
        scheduleClock: clock,
      });
    const a = await node('a');
    const b = await node('b');
    const fields = 'id nextRunAt lastRunAt lastError';
    const list = async (hub: TestHub) =>
      (
        await hub.data<{
          schedules: {
            id: string;
            nextRunAt: string;
            lastRunAt: string | null;
            lastError: string | null;
          }[];
        }>(`{ schedules { ${fields} } }`)
      ).schedules;
    // A session made at each tick, in a folder that is not there: the tick's run fails, and says so.
    const missing = '/nonexistent/cch-schedules';
    const { schedulePrompt: made } = await a.data<{
      schedulePrompt: { id: string; nextRunAt: string };
    }>(`mutation($input: SchedulePromptInput!) { schedulePrompt(input: $input) { ${fields} } }`, {
      input: { cron: '* * * * *', text: 'from the cluster', createSession: { cwd: missing } },
    });
    await vi.waitFor(async () => expect((await list(b)).map((s) => s.id)).toEqual([made.id]), {
      timeout: 5_000,
      interval: 50,
    });

    clock.advance(Date.parse(made.nextRunAt) - clock.now() + 1000);
    const ran = await vi.waitFor(
      async () => {
        const [onA] = await list(a);
        const [onB] = await list(b);
        expect(onA!.lastError).toContain(missing);
        expect(onB).toEqual(onA);
        return onA!;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(Date.parse(ran.nextRunAt) - Date.parse(made.nextRunAt)).toBe(60_000);
    const connection = await connectRedis(redis.url, 'test:probe');
    connections.push(connection);
    const claimed = await connection.keys(`${prefix}:schedule-tick:${made.id}:*`);
    expect(claimed).toEqual([`${prefix}:schedule-tick:${made.id}:${Date.parse(made.nextRunAt)}`]);
    expect(['a', 'b']).toContain(await connection.get(claimed[0]!));

    expect(await b.data(`mutation($id: ID!) { deleteSchedule(id: $id) }`, { id: made.id })).toEqual(
      {
        deleteSchedule: true,
      },
    );
    await vi.waitFor(async () => expect(await list(a)).toEqual([]), {
      timeout: 5_000,
      interval: 50,
    });
  });
});
