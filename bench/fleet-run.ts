/**
 * `node --import tsx bench/fleet-run.ts [--only fleet,fleet-cluster] [--fleet-sessions N]
 * [--fleet-rate R] [--fleet-seconds S] [--fleet-dashboards D] [--label L]`: the fleet sections alone, with no shared hub and no claude
 * started (their sessions are made by hook events), for a machine that has no claude, such as a
 * bigger one the bench is carried to (../shared/device-bench in the project's workspace says
 * how). Prints each row as a JSON line tagged with `--label`, for runs alternated across
 * builds to be compared line by line. `--profile DIR` and `--hub-arg` work as in `npm run bench`.
 */
import { cpus } from 'node:os';
import { startBenchWorld } from './claude-world.js';
import { fleet } from './fleet.js';
import { fleetCluster } from './fleet-cluster.js';

const flag = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const only = new Set((flag('--only') ?? 'fleet,fleet-cluster').split(','));
const sessions = Number(flag('--fleet-sessions') ?? 1_000);
const size = {
  sessions,
  eventsPerSecond: Number(flag('--fleet-rate') ?? 5_000),
  seconds: Number(flag('--fleet-seconds') ?? 20),
  // 20 sessions watched, of the fleet's first 60 (fleet-cluster watches every third).
  watchedSessions: Math.min(20, Math.floor(sessions / 3)),
  subscribersPerSession: 10,
};
const label = flag('--label') ?? '';
const dashboards = Number(flag('--fleet-dashboards') ?? 200);

const world = await startBenchWorld();
try {
  const rows = [
    ...(only.has('fleet') ? await fleet(world, { ...size, dashboards }) : []),
    ...(only.has('fleet-cluster') ? await fleetCluster(world, size) : []),
  ];
  for (const row of rows)
    process.stdout.write(`${JSON.stringify({ label, cpus: cpus().length, ...row })}\n`);
} finally {
  await world.close();
}
