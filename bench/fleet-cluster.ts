/**
 * The `fleet-cluster` section: the fleet (bench/fleet.ts) on three hubs sharing one Redis (a
 * real redis-server on loopback). The sessions are started by hand on the three nodes in turn
 * (a SessionStart posted with each node's own hook token), and each session's hooks go to its
 * own node, on the fleet's one schedule. Some sessions of node a have subscribers on node a and
 * as many on node b, side by side: a cross-node subscriber must stay within 2x of a same-node
 * one, the row the `cluster` section keeps for one session, here under a fleet's load.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { freePort } from '../harness/free-port.js';
import { gqlData } from '../harness/graphql-http.js';
import { hubArgs, stopHub, type HubProcess } from '../harness/hub-process.js';
import { startRedis } from '../harness/redis-server.js';
import type { BenchWorld } from './claude-world.js';
import { postSchedule } from './fleet-load.js';
import { fleetSchedule } from './fleet-schedule.js';
import { sessionStartBody, spawnBenchHub } from './fresh-hub.js';
import { HookClient } from './hook-client.js';
import { againstFloor, spread, type Row } from './row.js';
import {
  SentTimes,
  startSubscribers,
  untilArrived,
  type Subscribers,
} from './subscribers-thread.js';

const section = 'fleet, 3 nodes';

interface Node {
  readonly hub: HubProcess;
  readonly socket: string;
  readonly dataDir: string;
  readonly hooks: HookClient;
  readonly token: string;
}

export interface FleetClusterOptions {
  readonly sessions: number;
  readonly eventsPerSecond: number;
  readonly seconds: number;
  /** Sessions of node a with subscribers, and how many each on node a and on node b. */
  readonly watchedSessions: number;
  readonly subscribersPerSession: number;
}

export async function fleetCluster(
  world: BenchWorld,
  options: FleetClusterOptions,
): Promise<Row[]> {
  if ((await execa('sh', ['-c', 'command -v redis-server'], { reject: false })).exitCode !== 0)
    return [{ section, metric: 'cross-node subscribers', value: 'skipped: no redis-server' }];
  const redis = await startRedis();
  const nodes: Node[] = [];
  const watchers: Subscribers[] = [];
  try {
    for (const name of ['a', 'b', 'c']) {
      const dataDir = mkdtempSync(path.join(tmpdir(), `cch-bench-fleet-${name}-`));
      const socket = `cch-bench-fleet-${name}-${process.pid}`;
      const env = { ...world.env, CLAUDE_CONFIG_DIR: path.join(dataDir, 'claude') };
      const hub = await spawnBenchHub(
        [
          ...hubArgs({ port: await freePort(), dataDir, socket }),
          ...['--redis-url', redis.url, '--node-name', name, '--retain-events', '0'],
          ...['--max-sessions', String(options.sessions + 100)],
          ...[
            '--max-connections',
            String(4 * options.watchedSessions * options.subscribersPerSession + 100),
          ],
        ],
        env,
      );
      const token = readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
      const hooks = new HookClient(hub.url.replace(/\/graphql$/, ''));
      nodes.push({ hub, socket, dataDir, hooks, token });
    }
    const [a, b] = nodes as [Node, Node, Node];
    const ids = Array.from({ length: options.sessions }, () => randomUUID());
    const nodeOf = (session: number) => nodes[session % nodes.length]!;
    for (let i = 0; i < ids.length; i++) {
      const node = nodeOf(i);
      const status = await node.hooks.post(node.token, sessionStartBody(ids[i]!));
      if (status !== 200) throw new Error(`SessionStart answered ${status}`);
    }
    // Node a's sessions are those whose index is a multiple of 3.
    const watchedIndexes = Array.from({ length: options.watchedSessions }, (_, i) => i * 3);
    const watchedIds = watchedIndexes.map((i) => ids[i]!);
    // Node b knows node a's sessions once their records have come through Redis.
    for (const id of watchedIds) {
      for (let tries = 0; ; tries++) {
        const { session } = await gqlData(
          b.hub.url,
          'query($id: ID!) { session(id: $id) { id } }',
          {
            id,
          },
        );
        if (session) break;
        if (tries > 100) throw new Error(`node b never knew session ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const sent = new SentTimes();
    for (const node of [a, b]) {
      const url = node.hub.url.replace(/^http/, 'ws');
      watchers.push(
        await startSubscribers(
          { url, sessionIds: watchedIds, subscribers: options.subscribersPerSession },
          sent,
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));

    const schedule = fleetSchedule(options.sessions, options.eventsPerSecond, options.seconds);
    let expected = 0;
    const watched = new Set(watchedIndexes);
    for (let i = 0; i < schedule.length; i++) if (watched.has(schedule.session[i]!)) expected++;
    expected *= options.subscribersPerSession;
    const load = await postSchedule(
      (session) => ({ hooks: nodeOf(session).hooks, secret: nodeOf(session).token }),
      schedule,
      ids,
      { sessions: watched, sent },
    );
    await untilArrived(() => watchers.every((watcher) => watcher.arrivals.length >= expected));
    const [same, cross] = watchers.map((watcher) => watcher.arrivals) as [number[], number[]];
    for (const watcher of watchers.splice(0)) await watcher.stop();
    const missing = (seen: number[]) =>
      seen.length < expected ? ` (${seen.length}/${expected} arrived)` : '';
    const compared = againstFloor(cross, same, 2);
    const label = `${options.sessions.toLocaleString('en-US')} sessions, ${Math.round(schedule.perSecond).toLocaleString('en-US')} events/s`;
    return [
      {
        section,
        metric: `hook answer, ${label}, each to its own node, p50 / p99 / max`,
        value: `${spread(load.answers)}${load.failed ? `, ${load.failed} not 200` : ''}`,
      },
      {
        section,
        metric: `${options.subscribersPerSession} sub x ${options.watchedSessions} sessions on the owner node p50 / p99 / max`,
        value: `${spread(same)}${missing(same)}`,
      },
      {
        section,
        metric: `the same on another node p50 / p99 / max`,
        value: `${spread(cross)}${missing(cross)}`,
        target: compared.target?.replace('floor', 'owner node'),
        ok: compared.ok && missing(cross) === '' && load.failed === 0,
      },
    ];
  } finally {
    for (const watcher of watchers) await watcher.stop();
    for (const { hub, socket, dataDir, hooks } of nodes) {
      hooks.close();
      await stopHub(hub, { socket, dataDir });
    }
    await redis.stop();
  }
}
