/**
 * `npm run bench`: measures the hub against its targets on this machine and prints one table;
 * the same goes to bench/results/latest.json. Everything runs on loopback: the hub in its own
 * process (so its event loop and memory are its own), the real claude CLI against the local
 * Anthropic stand-in, and the load from this process. Each section is a file of its own here;
 * this one reads the flags, starts what the sections share (the compiled hub, its live
 * sessions, the hook client) and prints their rows. `--smoke` runs tiny counts (used by the
 * tests so the benchmark cannot rot); `--no-write` skips the JSON file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { freePort } from '../harness/free-port.js';
import { gqlData } from '../harness/graphql-http.js';
import { hubArgs, stopHub, type HubProcess } from '../harness/hub-process.js';
import { hookSecret } from '../harness/session-secret.js';
import { startBenchWorld } from './claude-world.js';
import { changes } from './changes.js';
import { channelRows } from './channels.js';
import { cluster } from './cluster.js';
import { fanout } from './fanout.js';
import { dashboardPage } from './dashboard-page.js';
import { fleet } from './fleet.js';
import { fleetCluster } from './fleet-cluster.js';
import { firstSeconds } from './first-seconds.js';
import { spawnBenchHub } from './fresh-hub.js';
import { startFloor, type Floor } from './floor.js';
import { HookClient } from './hook-client.js';
import { hookIngest } from './hook-ingest.js';
import { hostileBody } from './hostile-body.js';
import { ingest, type BenchHub, type Target } from './hook-load.js';
import { memory } from './memory.js';
import { overload } from './overload.js';
import { perEvent } from './per-event.js';
import { extraHubArgs, hubNodeOptions } from './profile.js';
import { machineQuiet, rssMb } from './proc-stats.js';
import { readoption } from './readoption.js';
import { replay } from './replay.js';
import { runs as runsSection } from './runs.js';
import { runtimeRows } from './runtimes.js';
import { permissionRules } from './rules.js';
import type { Row } from './row.js';
import { sessionStart } from './session-start.js';
import { watchTerminals } from './watched-terminals.js';
import { wsServers } from './ws-servers.js';

/** The sections by their `--only` names, in the table's order. */
const sectionNames = [
  'first-seconds',
  'ingest',
  'fanout',
  'overload',
  'fleet',
  'fleet-cluster',
  'dashboard-page',
  'hostile-body',
  'rules',
  'replay',
  'runs',
  'changes',
  'channels',
  'per-event',
  'start',
  'runtimes',
  'memory',
  'cluster',
  'readoption',
  'ws-server',
] as const;
type SectionName = (typeof sectionNames)[number];

const smoke = process.argv.includes('--smoke');
/** `--only ingest,fanout,...` runs just those sections (implies --no-write). */
const only = process.argv.includes('--only')
  ? new Set((process.argv[process.argv.indexOf('--only') + 1] ?? '').split(','))
  : null;
for (const name of only ?? []) {
  if ((sectionNames as readonly string[]).includes(name)) continue;
  process.stderr.write(`--only: no section ${JSON.stringify(name)}; sections: ${sectionNames}\n`);
  process.exit(2);
}
const runs = (section: SectionName) => only === null || only.has(section);
/** `--watch-terminals N`: N sessions' terminals are watched over graphql-ws throughout. */
const watchedTerminals = process.argv.includes('--watch-terminals')
  ? Number(process.argv[process.argv.indexOf('--watch-terminals') + 1])
  : 0;
/** `--fleet-sessions N` and `--fleet-rate R`: the fleet section's size, for a run of its own. */
const flagNumber = (flag: string) =>
  process.argv.includes(flag) ? Number(process.argv[process.argv.indexOf(flag) + 1]) : undefined;
const fleetSessions = flagNumber('--fleet-sessions');
const fleetRate = flagNumber('--fleet-rate');
const writeResults = !process.argv.includes('--no-write') && !smoke && only === null;
const root = fileURLToPath(new URL('..', import.meta.url));

/** Sizes of each measurement; smoke keeps every path but runs it briefly. */
const sizes = smoke
  ? {
      warmup: 50,
      ingest: 300,
      rateSeconds: 0.5,
      fanoutSubscribers: [1, 10],
      firstSeconds: 0.5,
      replay: 2_000,
      perProcess: 3,
      starts: 1,
      liveSessions: 2,
      stored: 5_000,
      collectMs: 0,
      page: { sessions: 20, changesPerSecond: 50, seconds: 1 },
      fleet: {
        sessions: 20,
        eventsPerSecond: 200,
        seconds: 1,
        dashboards: 3,
        watchedSessions: 2,
        subscribersPerSession: 2,
        idleSeconds: 0.5,
      },
    }
  : {
      warmup: 2_000,
      ingest: 20_000,
      rateSeconds: 3,
      fanoutSubscribers: [1, 10, 100],
      firstSeconds: 10,
      replay: 100_000,
      perProcess: 40,
      starts: 15,
      liveSessions: 20,
      stored: 1_000_000,
      collectMs: 60_000,
      page: { sessions: 1_000, changesPerSecond: 300, seconds: 5 },
      fleet: {
        sessions: 1_000,
        eventsPerSecond: 5_000,
        seconds: 20,
        dashboards: 200,
        watchedSessions: 20,
        subscribersPerSession: 10,
        idleSeconds: 5,
      },
    };

async function main(): Promise<Row[]> {
  const world = await startBenchWorld();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cch-bench-'));
  const socket = `cch-bench-${process.pid}`;
  const port = await freePort();
  let hub: HubProcess | null = null;
  let hooks: HookClient | undefined;
  let floor: Floor | undefined;
  try {
    // The hub as `npm start` runs it: compiled, in its own process.
    await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root });
    hub = await spawnBenchHub(
      [...hubArgs({ port, dataDir, socket }), '--retain-events', '0', '--stop-sessions-on-exit'],
      world.env,
    );
    const { url } = hub;
    const base = url.replace(/\/graphql$/, '');
    hooks = new HookClient(base);
    const benchHub: BenchHub = { url, base, pid: hub.process.pid!, socket, hooks };
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleRss = rssMb(benchHub.pid);

    // A hub's first seconds, measured before any claude runs on the machine and again below,
    // with the live sessions' claudes idle.
    const firstSecondsRun = (machine: string) =>
      runs('first-seconds')
        ? firstSeconds(world, {
            machine,
            seconds: sizes.firstSeconds,
            subscribers: sizes.fanoutSubscribers.slice(0, 2),
          })
        : Promise.resolve([]);
    const firstRows = await firstSecondsRun('no claude running');

    // Session start runs first, while the hub has no other session; its rows go in their place.
    const startRows = runs('start')
      ? await sessionStart(benchHub, { world, starts: sizes.starts })
      : [];

    // Live sessions: the load goes to real sessions, with their own hook secrets.
    for (let i = runs('start') ? sizes.starts + 1 : 0; i < sizes.liveSessions; i++) {
      await gqlData(url, 'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id } }', {
        cwd: world.makeCwd(),
      });
    }
    const { sessions } = await gqlData(url, '{ sessions { id tmuxSession status } }');
    const live: Target[] = await Promise.all(
      (sessions as { id: string; tmuxSession: string }[]).map(async (s) => ({
        id: s.id,
        secret: await hookSecret(socket, s.tmuxSession),
      })),
    );
    const liveRss = rssMb(benchHub.pid);
    // Sessions just created are still starting claude: the measurements start once they settle.
    await machineQuiet(smoke ? 0 : 30_000);
    firstRows.push(...(await firstSecondsRun(`${live.length} claude idle`)));
    // The rows below are the steady state: the first seconds have rows of their own above.
    // The floor server takes the same warm-up as the hub.
    const floorServer = (floor = await startFloor());
    await ingest(hooks, live[0]!, sizes.warmup, 16);
    await ingest(floorServer.hooks, live[0]!, sizes.warmup, 16);
    const watching =
      watchedTerminals > 0
        ? await watchTerminals(
            benchHub,
            live.slice(0, watchedTerminals).map((target) => target.id),
          )
        : null;

    const sections: Record<SectionName, () => Promise<Row[]>> = {
      // Measured above.
      'first-seconds': async () => firstRows,
      ingest: () =>
        hookIngest(benchHub, {
          target: live[0]!,
          floor: floorServer,
          count: sizes.ingest,
          rateSeconds: sizes.rateSeconds,
          wrk: !smoke,
          scratchDir: dataDir,
        }),
      fanout: () =>
        fanout(benchHub, {
          live,
          floor: floorServer,
          subscribers: sizes.fanoutSubscribers,
          withLibrary: !smoke,
          seconds: sizes.rateSeconds,
        }),
      overload: () =>
        overload(world, {
          subscribers: sizes.fanoutSubscribers.at(-1)!,
          seconds: smoke ? 1 : 8,
          subscriberBuffer: smoke ? 100 : 10_000,
        }),
      fleet: () =>
        fleet(world, {
          ...sizes.fleet,
          sessions: fleetSessions ?? sizes.fleet.sessions,
          eventsPerSecond: fleetRate ?? sizes.fleet.eventsPerSecond,
          floor: floorServer,
        }),
      'fleet-cluster': () =>
        fleetCluster(world, {
          sessions: fleetSessions ?? sizes.fleet.sessions,
          eventsPerSecond: fleetRate ?? sizes.fleet.eventsPerSecond,
          seconds: smoke ? 1 : 10,
          watchedSessions: smoke ? 2 : 20,
          subscribersPerSession: smoke ? 2 : 5,
        }),
      'dashboard-page': () => dashboardPage(world, sizes.page),
      'hostile-body': () =>
        hostileBody(world, { bytes: smoke ? 2 ** 20 : 32 * 2 ** 20, rounds: smoke ? 1 : 5 }),
      rules: () =>
        permissionRules(world, {
          rounds: smoke ? 2 : 6,
          calls: smoke ? 50 : 3_000,
          burst: smoke ? 100 : 5_000,
          decideCalls: smoke ? 200 : 2_000,
        }),
      replay: () => replay(benchHub, { target: live.at(-1)!, events: sizes.replay }),
      runs: () => runsSection(benchHub, { target: live.at(-1)! }),
      changes: () =>
        changes(world, {
          files: smoke ? 100 : 1_000,
          calls: smoke ? 5 : 50,
          queries: smoke ? 3 : 20,
          wholeQueries: smoke ? 1 : 5,
        }),
      channels: () => channelRows(benchHub, { target: live[1]!, calls: smoke ? 20 : 2_000 }),
      'per-event': () =>
        perEvent(benchHub, { target: live[0]!, count: sizes.perProcess, scratchDir: dataDir }),
      // Measured first, above.
      start: async () => startRows,
      runtimes: () =>
        runtimeRows(benchHub, { world, sessions: smoke ? 1 : 5, turns: smoke ? 1 : 3 }),
      memory: () =>
        memory(benchHub, {
          live,
          idleRss,
          liveRss,
          stored: sizes.stored,
          collectMs: sizes.collectMs,
        }),
      cluster: () => cluster({ world, seconds: sizes.rateSeconds }),
      readoption: () => readoption(world, { runs: smoke ? 1 : 5, fallbackOnly: smoke }),
      'ws-server': () =>
        wsServers(world, {
          rounds: smoke ? 1 : 2,
          seconds: sizes.rateSeconds,
          events: sizes.replay,
        }),
    };
    const rows: Row[] = [];
    for (const name of sectionNames) if (runs(name)) rows.push(...(await sections[name]()));
    if (watching) rows.push(await watching.stop());
    return rows;
  } finally {
    hooks?.close();
    await floor?.stop();
    await stopHub(hub, { socket, dataDir });
    await world.close();
  }
}

/** The table on stdout and, for a full run, with the machine in bench/results/latest.json. */
function report(rows: Row[]): void {
  const widths = [24, 44, 34, 22];
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join(' ')
      .trimEnd();
  const out = [
    line(['section', 'measure', 'value', 'target']),
    line(widths.map((w) => '-'.repeat(w))),
  ];
  for (const row of rows)
    out.push(
      line([
        row.section,
        row.metric,
        row.value,
        row.target ? `${row.target} ${row.ok ? 'met' : 'MISSED'}` : '',
      ]),
    );
  if (hubNodeOptions.length > 0) out.push(`hubs ran with node ${hubNodeOptions.join(' ')}`);
  if (extraHubArgs.length > 0) out.push(`hubs ran with ${extraHubArgs.join(' ')}`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (writeResults) {
    const machine = {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      hubNodeOptions,
      hubArgs: extraHubArgs,
      date: new Date().toISOString(),
    };
    writeFileSync(
      path.join(root, 'bench/results/latest.json'),
      `${JSON.stringify({ machine, rows }, null, 2)}\n`,
    );
  }
}

report(await main());
