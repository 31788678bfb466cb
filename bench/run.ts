/**
 * `npm run bench`: measures the hub against its targets on this machine and prints one table;
 * the same goes to bench/results/latest.json. Everything runs on loopback: the hub in its own
 * process (so its event loop and memory are its own), the real claude CLI against the local
 * Anthropic stand-in, and the load from this process. `--smoke` runs tiny counts (used by the
 * tests so the benchmark cannot rot); `--no-write` skips the JSON file.
 */
import { execa } from 'execa';
import { writeFileSync, mkdtempSync, readFileSync, writeFileSync as write } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { claudeBin, startClaudeWorld, type ClaudeWorld } from '../test/helpers/claude-world.js';
import { startRedis } from '../test/helpers/redis-server.js';
import {
  freePort,
  gqlData,
  spawnHub,
  stopHub,
  type HubProcess,
  hubArgs,
} from '../test/helpers/hub-process.js';
import { hookSecret } from '../test/helpers/session-secret.js';
import { waitForScreen } from '../test/helpers/tmux-probe.js';
import { hookSettings } from '../src/hooks/settings.js';
import { HookClient } from './hook-client.js';
import { readoption } from './readoption.js';
import type { Arrivals, SubscribersOptions } from './subscribers.js';

const smoke = process.argv.includes('--smoke');
/** `--profile DIR` writes the hub's CPU profile there (open it in Chrome DevTools). */
const profileDir = process.argv.includes('--profile')
  ? path.resolve(process.argv[process.argv.indexOf('--profile') + 1] ?? 'profile')
  : null;
/** `--only ingest,fanout,replay,per-event,start,memory,cluster,readoption` runs just those sections (implies --no-write). */
const only = process.argv.includes('--only')
  ? new Set((process.argv[process.argv.indexOf('--only') + 1] ?? '').split(','))
  : null;
const runs = (section: string) => only === null || only.has(section);
const writeResults = !process.argv.includes('--no-write') && !smoke && only === null;
const root = fileURLToPath(new URL('..', import.meta.url));
const forwarder = path.join(root, 'hooks/forward.sh');

/** Sizes of each measurement; smoke keeps every path but runs it briefly. */
const sizes = smoke
  ? {
      warmup: 50,
      ingest: 300,
      rateSeconds: 0.5,
      fanoutSubscribers: [1, 10],
      replay: 2_000,
      perProcess: 3,
      starts: 1,
      liveSessions: 2,
      stored: 5_000,
      settleMs: 0,
    }
  : {
      warmup: 2_000,
      ingest: 20_000,
      rateSeconds: 3,
      fanoutSubscribers: [1, 10, 100],
      replay: 100_000,
      perProcess: 40,
      starts: 15,
      liveSessions: 20,
      stored: 1_000_000,
      settleMs: 12_000,
    };

interface Row {
  readonly section: string;
  readonly metric: string;
  readonly value: string;
  readonly target?: string;
  readonly ok?: boolean;
}
const rows: Row[] = [];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

const bigOutput = 'x'.repeat(50 * 1024);

/** Payloads as Claude Code posts them: mostly small, one PostToolUse in ten with 50 KB of output. */
function payload(sessionId: string, i: number): string {
  if (i % 10 === 9) {
    return JSON.stringify({
      session_id: sessionId,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat big.log' },
      tool_response: { stdout: bigOutput, stderr: '', interrupted: false },
      tool_use_id: `toolu_${i}`,
      duration_ms: 12,
      i,
    });
  }
  return JSON.stringify({
    session_id: sessionId,
    hook_event_name: i % 2 ? 'PreToolUse' : 'Notification',
    tool_name: 'Bash',
    tool_input: { command: `echo ${i}` },
    message: 'bench',
    i,
  });
}

interface Target {
  readonly id: string;
  readonly secret: string;
}

/** The fan-out subscribers' thread: TypeScript, so tsx is registered there first. */
const subscribersThread = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => register())
  .then(() => import(${JSON.stringify(import.meta.resolve('./subscribers.ts'))}));`;

/** `count` POSTs from `concurrency` workers; latency of each and overall throughput. */
async function ingest(hooks: HookClient, target: Target, count: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const status = await hooks.post(target.secret, payload(target.id, i));
        if (status !== 200) throw new Error(`hook POST answered ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, perSecond: count / ((performance.now() - started) / 1000) };
}

/**
 * POSTs at a fixed rate for `seconds`; notes the send time of each event by its tag, on the clock
 * all threads share (timeOrigin + now).
 */
async function offer(
  hooks: HookClient,
  targets: Target[],
  perSecond: number,
  seconds: number,
  sent: Map<string, number>,
) {
  const total = Math.round(perSecond * seconds);
  const start = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const target = targets[i % targets.length]!;
    const body = JSON.stringify({
      session_id: target.id,
      hook_event_name: 'Notification',
      message: 'fanout',
      tag: `${target.id}:${i}`,
    });
    sent.set(`${target.id}:${i}`, performance.timeOrigin + performance.now());
    inFlight.push(hooks.post(target.secret, body));
  }
  await Promise.all(inFlight);
  return total;
}

/**
 * Starts subscribers on their own thread (bench/subscribers.ts) and resolves once all are
 * connected; `arrivals` fills with each event's delay from its time in `sent`.
 */
async function startSubscribers(options: SubscribersOptions, sent: Map<string, number>) {
  const worker = new Worker(subscribersThread, { eval: true, workerData: options });
  const arrivals: number[] = [];
  let connected: () => void = () => {};
  const allConnected = new Promise<void>((resolve) => (connected = resolve));
  const stopped = new Promise<void>((resolve) => {
    worker.on('message', (message: Arrivals | 'connected' | 'stopped') => {
      if (message === 'connected') return connected();
      if (message === 'stopped') return resolve();
      for (const [tag, at] of message) {
        const sentAt = sent.get(tag);
        if (sentAt !== undefined) arrivals.push(at - sentAt);
      }
    });
  });
  await allConnected;
  const stop = async () => {
    worker.postMessage('stop');
    await stopped;
    await worker.terminate();
  };
  return { arrivals, stop };
}

/** The process' resident memory now (VmRSS) or at its peak (VmHWM), in MB. */
function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
}

/** Waits until the machine is mostly idle for half a second, or `maxMs` has passed. */
async function machineQuiet(maxMs: number): Promise<void> {
  const ticks = () => {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const values = fields.slice(1).map(Number);
    return { idle: values[3]! + values[4]!, total: values.reduce((a, b) => a + b, 0) };
  };
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline) {
    const before = ticks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = ticks();
    if ((after.idle - before.idle) / (after.total - before.total) > 0.8) return;
  }
}

/**
 * CPU time the process has used so far, in ms, at the kernel's 10 ms tick: user + system, or
 * with `'system'` the kernel's share alone (system calls: sockets, files).
 */
function cpuMs(pid: number, only?: 'system'): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const system = Number(fields[12]);
  return (only === 'system' ? system : Number(fields[11]) + system) * 10;
}

/** Runs a command once per event as Claude Code runs a command hook: a new process, JSON on stdin. */
async function perProcess(argv: string[], body: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await execa(argv[0]!, argv.slice(1), {
      input: body,
      env: { ...process.env, CLAUDE_HUB_HOOK_SECRET: 'bench' },
    });
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const world = await startClaudeWorld();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cch-bench-'));
  const socket = `cch-bench-${process.pid}`;
  const port = await freePort();
  let hub: HubProcess | null = null;
  let hooks: HookClient | undefined;
  const clients: Client[] = [];
  try {
    // The hub as `npm start` runs it: compiled, in its own process.
    await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root });
    hub = await spawnHub(
      [...hubArgs({ port, dataDir, socket }), '--retain-events', '0', '--stop-sessions-on-exit'],
      world.env,
      {
        compiled: true,
        nodeOptions: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      },
    );
    const base = hub.url.replace(/\/graphql$/, '');
    hooks = new HookClient(base);
    const hubPid = hub.process.pid!;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleRss = rssMb(hubPid);

    // 5. Session start: the hub's createSession against the same command started by hand.
    // Alternated, after one warm-up each, so neither side gets the warm caches. Each start waits
    // for claude's prompt, and the next begins once the machine is quiet again: a start never
    // overlaps the previous claude's own start or exit.
    const hubStarts: number[] = [];
    const bareStarts: number[] = [];
    const startOnce = async () => {
      const t0 = performance.now();
      const { createSession } = await gqlData(
        hub!.url,
        'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { tmuxSession } }',
        { cwd: world.makeCwd() },
      );
      const took = performance.now() - t0;
      await waitForScreen(socket, createSession.tmuxSession, /❯/).catch(() => undefined);
      return took;
    };
    if (runs('start')) {
      await startOnce();
      await bareStartTimes(world, socket, 1);
    }
    for (let i = 0; runs('start') && i < sizes.starts; i++) {
      await machineQuiet(5_000);
      hubStarts.push(await startOnce());
      await machineQuiet(5_000);
      bareStarts.push(...(await bareStartTimes(world, socket, 1)));
    }

    // Live sessions: the load goes to real sessions, with their own hook secrets.
    const created: { id: string; tmuxSession: string }[] = [];
    while (created.length + (runs('start') ? sizes.starts + 1 : 0) < sizes.liveSessions) {
      const { createSession } = await gqlData(
        hub.url,
        'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }',
        { cwd: world.makeCwd() },
      );
      created.push(createSession);
    }
    const { sessions } = await gqlData(hub.url, '{ sessions { id tmuxSession status } }');
    const live: Target[] = await Promise.all(
      (sessions as { id: string; tmuxSession: string }[]).map(async (s) => ({
        id: s.id,
        secret: await hookSecret(socket, s.tmuxSession),
      })),
    );
    const liveRss = rssMb(hubPid);
    // Sessions just created are still starting claude: the measurements start once they settle.
    await machineQuiet(smoke ? 0 : 30_000);

    // 1. Hook ingest: wrk when installed (a C client leaves the second core to the hub), else Node.
    await ingest(hooks, live[0]!, sizes.warmup, 16);
    const useWrk =
      !smoke && (await execa('sh', ['-c', 'command -v wrk'], { reject: false })).exitCode === 0;
    for (const concurrency of runs('ingest') ? [1, 16, 64] : []) {
      const { p50, p99, perSecond, client } = useWrk
        ? await ingestWithWrk(base, live[0]!, concurrency, sizes.rateSeconds * 2, dataDir)
        : await ingest(hooks, live[0]!, sizes.ingest, concurrency).then(
            ({ latencies, perSecond }) => ({
              p50: percentile(latencies, 50),
              p99: percentile(latencies, 99),
              perSecond,
              client: 'node',
            }),
          );
      rows.push({
        section: 'hook ingest',
        metric: `c=${concurrency} p50 / p99 (${client})`,
        value: `${ms(p50)} / ${ms(p99)}`,
      });
      rows.push({
        section: 'hook ingest',
        metric: `c=${concurrency} throughput (${client})`,
        value: `${Math.round(perSecond)} events/s`,
        ...(concurrency === 64 ? { target: '>= 10000 events/s', ok: perSecond >= 10_000 } : {}),
      });
    }
    if (runs('ingest')) {
      const latencies: number[] = [];
      const start = performance.now();
      const total = Math.round(1000 * sizes.rateSeconds);
      for (let i = 0; i < total; i++) {
        const due = start + i;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        const t0 = performance.now();
        await hooks.post(live[0]!.secret, payload(live[0]!.id, i));
        latencies.push(performance.now() - t0);
      }
      const p99 = percentile(latencies, 99);
      rows.push({
        section: 'hook ingest',
        metric: 'at 1,000 events/s p50 / p99',
        value: `${ms(percentile(latencies, 50))} / ${ms(p99)}`,
        target: 'p99 < 2 ms',
        ok: p99 < 2,
      });
    }

    // 2. Fan-out at 2,000 events/s offered; the last case again with the graphql-ws library.
    const fanouts = sizes.fanoutSubscribers.flatMap((subscribers) =>
      [1, 10].map((sessionsUsed) => ({ subscribers, sessionsUsed, library: false })),
    );
    if (!smoke) fanouts.push({ subscribers: 100, sessionsUsed: 1, library: true });
    for (const { subscribers, sessionsUsed, library } of runs('fanout') ? fanouts : []) {
      const targets = live.slice(0, Math.min(sessionsUsed, live.length));
      const sent = new Map<string, number>();
      const { arrivals, stop } = await startSubscribers(
        {
          url: hub.url.replace(/^http/, 'ws'),
          sessionIds: targets.map((target) => target.id),
          subscribers,
          library,
        },
        sent,
      );
      await new Promise((resolve) => setTimeout(resolve, 300 + subscribers * 5));
      const [hubCpu0, hubSystem0, loadCpu0] = [
        cpuMs(hubPid),
        cpuMs(hubPid, 'system'),
        cpuMs(process.pid),
      ];
      const t0 = performance.now();
      const total = await offer(hooks, targets, 2000, sizes.rateSeconds, sent);
      const expected = total * subscribers;
      const deadline = performance.now() + 10_000;
      while (arrivals.length < expected && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const share = (ms: number) => `${((ms / (performance.now() - t0)) * 100).toFixed(0)}%`;
      const cpus = [
        `hub CPU ${share(cpuMs(hubPid) - hubCpu0)}`,
        `${share(cpuMs(hubPid, 'system') - hubSystem0)} in the kernel`,
        `load ${share(cpuMs(process.pid) - loadCpu0)}`,
      ].join(', ');
      await stop();
      const p99 = percentile(arrivals, 99);
      const sessionsLabel = `${targets.length} session${targets.length > 1 ? 's' : ''}`;
      rows.push({
        section: 'fan-out 2,000/s',
        metric: `${subscribers} sub x ${sessionsLabel} p50 / p99${library ? ' (graphql-ws)' : ''}`,
        value: `${ms(percentile(arrivals, 50))} / ${ms(p99)} (${arrivals.length < expected ? `${arrivals.length}/${expected} arrived` : cpus})`,
        ...(subscribers === 100 && targets.length === 1 && !library
          ? { target: 'p99 < 5 ms', ok: p99 < 5 && arrivals.length === expected }
          : {}),
      });
    }

    // 3. Replay of a long session.
    if (runs('replay')) {
      const target = live.at(-1)!;
      const have = await countEvents(hub.url, target.id);
      await ingest(hooks, target, Math.max(0, sizes.replay - have), 64);
      const client = createClient({
        url: hub.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      clients.push(client);
      const [t0, cpu0] = [performance.now(), cpuMs(hubPid)];
      let received = 0;
      await new Promise<void>((resolve, reject) => {
        const stop = client.subscribe<{ sessionEvents: { seq: number } }>(
          {
            query: 'subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }',
            variables: { id: target.id },
          },
          {
            next: () => {
              received += 1;
              if (received >= sizes.replay) {
                stop();
                resolve();
              }
            },
            error: reject,
            complete: () => resolve(),
          },
        );
      });
      const took = performance.now() - t0;
      const hubCpu = cpuMs(hubPid) - cpu0;
      rows.push({
        section: 'replay',
        metric: `after: 0 over ${sizes.replay.toLocaleString('en')} events`,
        value: `${ms(took)} (hub CPU ${hubCpu.toFixed(0)} ms)`,
        target: '< 1000 ms',
        ok: took < 1000,
      });
    }

    // 4. What claude waits for per event: HTTP hook vs the forwarder vs a python forwarder.
    if (runs('per-event')) {
      const target = live[0]!;
      const body = payload(target.id, 0);
      const http: number[] = [];
      for (let i = 0; i < sizes.perProcess * 5; i++) {
        const t0 = performance.now();
        // A fresh connection each time, as a hook request from claude may be.
        const response = await fetch(`${base}/hooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.secret}`, connection: 'close' },
          body,
        });
        await response.arrayBuffer();
        http.push(performance.now() - t0);
      }
      const pythonScript = path.join(dataDir, 'forward.py');
      write(
        pythonScript,
        [
          'import os, sys, urllib.request',
          'data = sys.stdin.buffer.read()',
          "req = urllib.request.Request(sys.argv[1], data=data, headers={'Content-Type': 'application/json', 'Authorization': 'Bearer ' + os.environ.get('CLAUDE_HUB_HOOK_SECRET', '')})",
          'try:',
          '    urllib.request.urlopen(req, timeout=2).read()',
          'except Exception:',
          '    pass',
          '',
        ].join('\n'),
      );
      const shell = await perProcess(['sh', forwarder, `${base}/hooks`], body, sizes.perProcess);
      const python = await perProcess(
        ['/usr/bin/python3', pythonScript, `${base}/hooks`],
        body,
        sizes.perProcess,
      );
      const [h, f, p] = [percentile(http, 50), percentile(shell, 50), percentile(python, 50)];
      rows.push({ section: 'per event (median)', metric: 'HTTP hook round trip', value: ms(h) });
      rows.push({
        section: 'per event (median)',
        metric: 'hooks/forward.sh (sh + curl)',
        value: `${ms(f)} (${(f / h).toFixed(1)}x HTTP)`,
      });
      rows.push({
        section: 'per event (median)',
        metric: 'python3 + urllib forwarder',
        value: `${ms(p)} (${(p / h).toFixed(1)}x HTTP)`,
        target: '>= 25x the HTTP hook',
        ok: p / h >= 25,
      });
    }

    // 5 (results). Session start.
    if (runs('start')) {
      const [hubMedian, bareMedian] = [percentile(hubStarts, 50), percentile(bareStarts, 50)];
      const overhead = hubMedian / bareMedian - 1;
      rows.push({
        section: 'session start (median)',
        metric: 'claude in tmux by hand, to SessionStart',
        value: ms(bareMedian),
      });
      rows.push({
        section: 'session start (median)',
        metric: 'createSession, to SessionStart',
        value: `${ms(hubMedian)} (${(overhead * 100).toFixed(1)}% overhead)`,
        target: '< 10% overhead',
        ok: overhead < 0.1,
      });
    }

    // 6. Memory.
    if (runs('memory')) {
      const target = live[1] ?? live[0]!;
      const have = await countEvents(hub.url, target.id);
      const stored = (await totalEvents(hub.url)) ?? have;
      await ingest(hooks, target, Math.max(0, sizes.stored - stored), 64);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const busyRss = rssMb(hubPid);
      // What the ingest left behind is garbage V8 collects once the hub is idle (its memory
      // reducer, after about 8 s without load): the memory the hub holds is what remains.
      await new Promise((resolve) => setTimeout(resolve, sizes.settleMs));
      const settledRss = rssMb(hubPid);
      const holding = `${live.length} sessions + ${sizes.stored.toLocaleString('en')} events`;
      const memoryRows: [string, number][] = [
        ['idle', idleRss],
        [`${live.length} live sessions`, liveRss],
        [`${holding}, 1 s after`, busyRss],
        ['peak over the run (VmHWM)', rssMb(hubPid, 'VmHWM')],
      ];
      for (const [metric, mb] of memoryRows)
        rows.push({ section: 'hub memory (RSS)', metric, value: `${mb.toFixed(0)} MB` });
      rows.push({
        section: 'hub memory (RSS)',
        metric: `${holding}, ${sizes.settleMs / 1000} s idle`,
        value: `${settledRss.toFixed(0)} MB`,
        target: '< 150 MB',
        ok: settledRss < 150,
      });
    }

    // 7. Cluster: hook to subscriber when the subscriber is on another node.
    if (runs('cluster')) await clusterLatency(world);

    // 8. A hub back after a SIGKILL: how soon its running session takes a message again.
    if (runs('readoption')) {
      await readoption(world, { runs: smoke ? 1 : 5, fallbackOnly: smoke }, (metric, value) =>
        rows.push({ section: 'hub back (median)', metric, value }),
      );
    }
  } finally {
    for (const client of clients) await client.dispose();
    hooks?.close();
    await stopHub(hub, { socket, dataDir });
    await world.close();
  }
  report();
}

/**
 * Two nodes on one Redis (a real redis-server on loopback): events POSTed to the node that owns
 * the session, at 2,000/s, reach a subscriber there and one on the other node, side by side.
 */
async function clusterLatency(world: ClaudeWorld): Promise<void> {
  const section = 'cluster 2,000/s';
  if ((await execa('sh', ['-c', 'command -v redis-server'], { reject: false })).exitCode !== 0) {
    rows.push({ section, metric: 'hook to subscriber', value: 'skipped: no redis-server' });
    return;
  }
  const redis = await startRedis();
  const nodes: { hub: HubProcess; socket: string; dataDir: string }[] = [];
  const watchers: Awaited<ReturnType<typeof startSubscribers>>[] = [];
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
      const hub = await spawnHub(args, world.env, { compiled: true });
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
    const sent = new Map<string, number>();
    for (const node of [b, a]) {
      const url = node.hub.url.replace(/^http/, 'ws');
      watchers.push(await startSubscribers({ url, sessionIds: [target.id], subscribers: 1 }, sent));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const hooks = new HookClient(b.hub.url.replace(/\/graphql$/, ''));
    const total = await offer(hooks, [target], 2000, sizes.rateSeconds, sent).finally(() =>
      hooks.close(),
    );
    const deadline = performance.now() + 10_000;
    const arrived = () => watchers.every((watcher) => watcher.arrivals.length >= total);
    while (!arrived() && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const metrics = [
      'subscriber on the owner node p50 / p99',
      'subscriber on another node p50 / p99',
    ];
    for (const [i, metric] of metrics.entries()) {
      const seen = watchers[i]!.arrivals;
      const missing = seen.length < total ? ` (${seen.length}/${total} arrived)` : '';
      rows.push({
        section,
        metric,
        value: `${ms(percentile(seen, 50))} / ${ms(percentile(seen, 99))}${missing}`,
      });
    }
  } finally {
    for (const watcher of watchers) await watcher.stop();
    for (const { hub, socket, dataDir } of nodes) await stopHub(hub, { socket, dataDir });
    await redis.stop();
  }
}

/** wrk against POST /hooks with the same payload mix (one 50 KB PostToolUse in ten). */
async function ingestWithWrk(
  base: string,
  target: Target,
  concurrency: number,
  seconds: number,
  dir: string,
) {
  const bodies = Array.from({ length: 10 }, (_, i) => payload(target.id, i));
  const script = path.join(dir, 'post.lua');
  writeFileSync(
    script,
    [
      // The payloads are ASCII, so a JSON string literal is a Lua string literal too.
      `local bodies = { ${bodies.map((body) => JSON.stringify(body)).join(', ')} }`,
      // Each request is formatted once, not per send, so wrk's one thread is not the limit.
      'local requests = {}',
      'local i = 0',
      'init = function()',
      '  for n, body in ipairs(bodies) do',
      `    requests[n] = wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer ${target.secret}" }, body)`,
      '  end',
      'end',
      'request = function()',
      '  i = i % #requests + 1',
      '  return requests[i]',
      'end',
      '',
    ].join('\n'),
  );
  const { stdout } = await execa('wrk', [
    '-t',
    '1',
    '-c',
    String(concurrency),
    '-d',
    `${Math.max(1, Math.round(seconds))}s`,
    '--latency',
    '-s',
    script,
    `${base}/hooks`,
  ]);
  const latency = (label: string) => {
    const match = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
    if (!match) return NaN;
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  if (/Non-2xx/.test(stdout)) throw new Error(`wrk saw errors:\n${stdout}`);
  return {
    p50: latency('50'),
    p99: latency('99'),
    perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
    client: 'wrk',
  };
}

async function countEvents(url: string, id: string): Promise<number> {
  let after = 0;
  let count = 0;
  for (;;) {
    const { session } = await gqlData(
      url,
      'query($id: ID!, $after: Int) { session(id: $id) { events(after: $after, limit: 1000) { seq } } }',
      { id, after },
    );
    const page = session.events as { seq: number }[];
    count += page.length;
    if (page.length < 1000) return count;
    after = page.at(-1)!.seq;
  }
}

async function totalEvents(url: string): Promise<number | null> {
  const { sessions } = await gqlData(url, '{ sessions { id } }');
  let total = 0;
  for (const s of sessions as { id: string }[]) total += await countEvents(url, s.id);
  return total;
}

/** claude started in tmux without the hub, with the same hooks posting to a bare listener. */
async function bareStartTimes(
  world: Awaited<ReturnType<typeof startClaudeWorld>>,
  socket: string,
  count: number,
): Promise<number[]> {
  const arrivals: (() => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.end('{}');
      if (body.includes('"SessionStart"')) arrivals.shift()?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  const settingsPath = path.join(mkdtempSync(path.join(tmpdir(), 'cch-bare-')), 'settings.json');
  const settings = hookSettings({
    hookUrl: url,
    forwarderPath: forwarder,
    httpTimeoutSeconds: 10,
    permissionTimeoutSeconds: 330,
  });
  writeFileSync(
    settingsPath,
    JSON.stringify({ hooks: { SessionStart: settings.hooks.SessionStart } }),
  );
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `bare-${i}`;
      const arrived = new Promise<void>((resolve) => arrivals.push(resolve));
      const env = Object.entries(world.env).flatMap(([k, v]) =>
        v === undefined || k === 'TMUX' ? [] : ['-e', `${k}=${v}`],
      );
      const t0 = performance.now();
      await execa('tmux', [
        '-L',
        socket,
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        '200',
        '-y',
        '50',
        '-c',
        world.makeCwd(),
        ...env,
        '--',
        claudeBin,
        '--session-id',
        randomUUID(),
        '--settings',
        settingsPath,
      ]);
      await arrived;
      times.push(performance.now() - t0);
      await waitForScreen(socket, name, /❯/).catch(() => undefined);
      await execa('tmux', ['-L', socket, 'kill-session', '-t', `=${name}`], { reject: false });
    }
  } finally {
    server.close();
  }
  return times;
}

function report(): void {
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
  process.stdout.write(`${out.join('\n')}\n`);
  if (writeResults) {
    const machine = {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      date: new Date().toISOString(),
    };
    writeFileSync(
      path.join(root, 'bench/results/latest.json'),
      `${JSON.stringify({ machine, rows }, null, 2)}\n`,
    );
  }
}

await main();
