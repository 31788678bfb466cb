/**
 * The `cluster` section: two hubs on one Redis (a real redis-server on loopback). Events
 * POSTed to the node that owns the session, at 2,000/s, reach a subscriber there and one on the
 * other node, side by side: the owner node's subscriber is the other's floor.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { gqlData } from '../harness/graphql-http.js';
import { hubArgs, stopHub, type HubProcess } from '../harness/hub-process.js';
import { startRedis } from '../harness/redis-server.js';
import { hookSecret } from '../harness/session-secret.js';
import type { BenchWorld } from './claude-world.js';
import { spawnBenchHub } from './fresh-hub.js';
import { HookClient } from './hook-client.js';
import { offer } from './hook-load.js';
import { againstFloor, spread, type Row } from './row.js';
import {
  SentTimes,
  startSubscribers,
  untilArrived,
  type Subscribers,
} from './subscribers-thread.js';

const section = 'cluster 2,000/s';

export async function cluster(options: {
  readonly world: BenchWorld;
  readonly seconds: number;
}): Promise<Row[]> {
  const { world } = options;
  if ((await execa('sh', ['-c', 'command -v redis-server'], { reject: false })).exitCode !== 0)
    return [{ section, metric: 'hook to subscriber', value: 'skipped: no redis-server' }];
  const redis = await startRedis();
  const nodes: { hub: HubProcess; socket: string; dataDir: string }[] = [];
  const watchers: Subscribers[] = [];
  try {
    for (const name of ['a', 'b']) {
      const dataDir = mkdtempSync(path.join(tmpdir(), `cch-bench-${name}-`));
      const socket = `cch-bench-${name}-${process.pid}`;
      const cluster = ['--redis-url', redis.url, '--node-name', name, '--retain-events', '0'];
      const args = [
        ...hubArgs({ port: 0, dataDir, socket }),
        ...cluster,
        '--stop-sessions-on-exit',
      ];
      const hub = await spawnBenchHub(args, world.env);
      nodes.push({ hub, socket, dataDir });
    }
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const { createSession } = await gqlData(
      a.hub.url,
      'mutation($cwd: String!) { createSession(input: { cwd: $cwd, node: "b" }) { id tmuxSession } }',
      { cwd: world.makeCwd() },
    );
    const target = {
      id: createSession.id,
      secret: await hookSecret(b.socket, createSession.tmuxSession),
    };
    const sent = new SentTimes();
    for (const node of [b, a]) {
      const url = node.hub.url.replace(/^http/, 'ws');
      watchers.push(await startSubscribers({ url, sessionIds: [target.id], subscribers: 1 }, sent));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const hooks = new HookClient(b.hub.url.replace(/\/graphql$/, ''));
    const total = await offer(hooks, [target], 2000, options.seconds, sent).finally(() =>
      hooks.close(),
    );
    await untilArrived(() => watchers.every((watcher) => watcher.arrivals.length >= total));
    const [owner, other] = watchers.map((watcher) => watcher.arrivals) as [number[], number[]];
    const missing = (seen: number[]) =>
      seen.length < total ? ` (${seen.length}/${total} arrived)` : '';
    const compared = againstFloor(other, owner, 2);
    return [
      {
        section,
        metric: 'subscriber on the owner node p50 / p99 / max',
        value: `${spread(owner)}${missing(owner)}`,
      },
      {
        section,
        metric: 'subscriber on another node p50 / p99 / max',
        value: `${spread(other)}${missing(other)}`,
        target: compared.target?.replace('floor', 'owner node'),
        ok: compared.ok && missing(other) === '',
      },
    ];
  } finally {
    for (const watcher of watchers) await watcher.stop();
    for (const { hub, socket, dataDir } of nodes) await stopHub(hub, { socket, dataDir });
    await redis.stop();
  }
}
