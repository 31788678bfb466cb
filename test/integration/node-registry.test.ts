import { describe, expect, it, vi } from 'vitest';
import { NodeRegistry, type NodeState } from '../../src/cluster/node-registry.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { createLogger } from '../../src/log.js';
import { leftovers } from '../helpers/leftovers.js';
import { suiteRedis } from '../helpers/suite-redis.js';

const log = createLogger('silent');
const { connect } = suiteRedis();

/** A node's registry on connections of its own, with what it heard of the others' liveness. */
async function registry(keys: RedisKeys, name: string, leaseMs: number) {
  const changes: { name: string; alive: boolean }[] = [];
  const nodes = new NodeRegistry(
    { redis: await connect(name), subscriber: await connect(`${name}-sub`), keys, log },
    { name, url: `http://${name}.invalid`, startedAt: Date.now() },
    {
      leaseMs,
      changed: (before: NodeState | undefined, after: NodeState | undefined) =>
        changes.push({ name: (after ?? before)!.name, alive: after?.alive ?? false }),
    },
  );
  leftovers.add(() => nodes.leave());
  return { nodes, changes };
}

describe("a cluster's nodes", () => {
  // A lease of a minute: the nodes read each other's leases every 20 s by themselves, so what
  // is seen within the test's seconds comes from the nodes saying that they joined and left.
  const leaseMs = 60_000;

  it('see a node as alive as soon as it joins, and as gone as soon as it leaves', async () => {
    const keys = new RedisKeys(`registry-${process.pid}`);
    const a = await registry(keys, 'a', leaseMs);
    await a.nodes.join();
    expect(a.nodes.isAlive('b')).toBe(false);

    const b = await registry(keys, 'b', leaseMs);
    await b.nodes.join();
    expect(b.nodes.isAlive('a')).toBe(true);
    await vi.waitFor(() => expect(a.nodes.isAlive('b')).toBe(true), { timeout: 2_000 });
    expect(a.nodes.get('b')?.url).toBe('http://b.invalid');
    expect(a.changes).toEqual([
      { name: 'a', alive: true },
      { name: 'b', alive: true },
    ]);

    await b.nodes.leave();
    await vi.waitFor(() => expect(a.nodes.isAlive('b')).toBe(false), { timeout: 2_000 });
    expect(a.changes.at(-1)).toEqual({ name: 'b', alive: false });
    expect(a.nodes.list().map((node) => node.name)).toEqual(['a', 'b']);
  });
});
