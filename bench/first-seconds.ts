/**
 * The `first-seconds` section: a hub just started, as a user meets it (or as every session's
 * hooks meet it after a restart). A fresh hub takes hook events at 2,000/s from the first one
 * after its ready line, nothing excluded as warm-up, while 1 or 10 subscribers watch the
 * session; a fresh floor server (bench/floor-server.ts) takes the same load in the same way,
 * just before. The session is made by its first event, posted with the hub's hook token, as
 * the global hooks of a claude started by hand do: no claude process runs for it, so the run
 * before the bench's claude sessions start and the run after them show the machine's share.
 *
 * Those rows leave out what a new user meets: a paced client of their own (node's fetch) posting
 * Notifications as claude does to one real session created the moment before, whose claude is
 * still starting (its own CPU, its hooks' forwarders, the hub's tmux work) on the same 2 cores
 * as the load. The user row measures that, against the floor server taking the same client and
 * load, and says how much CPU the starting claude took meanwhile (the machine's share).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { gqlData } from '../harness/graphql-http.js';
import { hookSecret } from '../harness/session-secret.js';
import type { BenchWorld } from './claude-world.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import { startFloor } from './floor.js';
import { HookClient } from './hook-client.js';
import { offer, type Target } from './hook-load.js';
import { hubStats } from './hub-stats.js';
import { againstFloor, type Row } from './row.js';
import { SentTimes, startSubscribers, untilArrived } from './subscribers-thread.js';
import {
  claudeNotification,
  fetchHooks,
  pacedPosts,
  treeCpuMs,
  type PostHook,
} from './user-client.js';

interface Measured {
  /** Hook answers, first event included. */
  readonly answers: number[];
  /** Each event's delay to each subscriber. */
  readonly arrivals: number[];
  /** The hub's event loop and GC over the run. */
  readonly stats?: string;
  /** Requests the server reset, each sent again (the user's client, fetch). */
  readonly resets?: number;
  /** The share of a core this process (the client, its subscriber) used over the load. */
  readonly clientCpu?: number;
}

interface Load {
  readonly subscribers: number;
  readonly seconds: number;
  readonly rate: number;
}

/** The session's first event, then subscribers, then the load at its rate. */
async function load(url: string, hooks: HookClient, target: Target, options: Load) {
  const t0 = performance.now();
  const status = await hooks.post(target.secret, sessionStartBody(target.id));
  if (status !== 200) throw new Error(`SessionStart answered ${status}`);
  const answers = [performance.now() - t0];
  const sent = new SentTimes();
  const wsUrl = url.replace(/^http/, 'ws');
  const watching = await startSubscribers(
    { url: wsUrl, sessionIds: [target.id], subscribers: options.subscribers },
    sent,
  );
  try {
    const total = await offer(hooks, [target], options.rate, options.seconds, sent, answers);
    await untilArrived(() => watching.arrivals.length >= total * options.subscribers);
    return { answers, arrivals: watching.arrivals };
  } finally {
    await watching.stop();
  }
}

/** A fresh floor server, the load, its measures; the server stops after. */
async function atFloor(options: Load): Promise<Measured> {
  const floor = await startFloor();
  try {
    return await load(floor.url, floor.hooks, { id: randomUUID(), secret: 'floor' }, options);
  } finally {
    await floor.stop();
  }
}

/** A fresh hub, the load (with the hub's hook token), its measures; the hub stops after. */
async function atHub(world: BenchWorld, options: Load): Promise<Measured> {
  const hub = await startFreshHub(world, 'first');
  try {
    const stats = await hubStats(hub);
    return { ...(await load(hub.url, hub.hooks, hub.target, options)), stats: await stats() };
  } finally {
    await hub.stop();
  }
}

/** The user's load: 1 subscriber, then Notifications as claude's, by fetch, at the rate. */
async function userLoad(
  url: string,
  hooks: PostHook,
  target: Target,
  cwd: string,
  load: { readonly perSecond: number; readonly seconds: number },
): Promise<Measured> {
  const answers: number[] = [];
  const sent = new SentTimes();
  const watching = await startSubscribers(
    { url: url.replace(/^http/, 'ws'), sessionIds: [target.id], subscribers: 1 },
    sent,
  );
  try {
    const [t0, cpu0] = [performance.now(), process.cpuUsage()];
    const total = await pacedPosts(hooks, target, load, sent, answers, (tag) =>
      claudeNotification(target, tag, cwd),
    );
    const cpu = process.cpuUsage(cpu0);
    const clientCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
    await untilArrived(() => watching.arrivals.length >= total);
    return { answers, arrivals: watching.arrivals, clientCpu };
  } finally {
    await watching.stop();
  }
}

/** The floor server with the user's client and load; its session made by a SessionStart. */
async function userAtFloor(load: { perSecond: number; seconds: number }): Promise<Measured> {
  const floor = await startFloor();
  try {
    const target = { id: randomUUID(), secret: 'floor' };
    const hooks = fetchHooks(floor.base);
    const status = await hooks.post(target.secret, sessionStartBody(target.id));
    if (status !== 200) throw new Error(`SessionStart answered ${status}`);
    return { ...(await userLoad(floor.url, hooks, target, '/tmp', load)), resets: hooks.resets() };
  } finally {
    await floor.stop();
  }
}

/**
 * A fresh hub, one real session made with createSession, and the user's load from its answer,
 * while its claude starts; the hub's stats span the session's start too.
 */
async function userAtHub(
  world: BenchWorld,
  load: { perSecond: number; seconds: number },
): Promise<Measured> {
  // Its claude ends with it, before its data dir (claude's config dir) is removed.
  const hub = await startFreshHub(world, 'first-user', ['--stop-sessions-on-exit'], {
    claudes: true,
  });
  try {
    const stats = await hubStats(hub);
    const cwd = world.makeCwd();
    const { createSession } = await gqlData(
      hub.url,
      'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }',
      { cwd },
    );
    const target = {
      id: createSession.id as string,
      secret: await hookSecret(hub.socket, createSession.tmuxSession),
    };
    const tmux = await execa('tmux', ['-L', hub.socket, 'display', '-p', '#{pid}']);
    const tmuxPid = Number(tmux.stdout);
    const [t0, cpu0] = [performance.now(), treeCpuMs(tmuxPid)];
    const hooks = fetchHooks(hub.base);
    const measured = await userLoad(hub.url, hooks, target, cwd, load);
    const [span, cpu] = [performance.now() - t0, treeCpuMs(tmuxPid) - cpu0];
    const claude = `the starting claude (tmux, claude, its hooks) used ${((cpu / span) * 100).toFixed(0)}% of a core`;
    return { ...measured, stats: `${await stats()}; ${claude}`, resets: hooks.resets() };
  } finally {
    await hub.stop();
  }
}

export async function firstSeconds(
  world: BenchWorld,
  options: {
    /** What else runs on the machine meanwhile, for the section's name. */
    readonly machine: string;
    readonly seconds: number;
    readonly subscribers: readonly number[];
  },
): Promise<Row[]> {
  const rate = 2000;
  const section = `first ${options.seconds} s, ${options.machine}`;
  const rows: Row[] = [];
  for (const subscribers of options.subscribers) {
    const run = { subscribers, seconds: options.seconds, rate };
    const floor = await atFloor(run);
    const hub = await atHub(world, run);
    const expected = Math.round(rate * options.seconds) * subscribers;
    const missing =
      hub.arrivals.length < expected ? ` (${hub.arrivals.length}/${expected} arrived)` : '';
    const label = `${subscribers} sub, 2,000/s`;
    const hook = againstFloor(hub.answers, floor.answers, 3, 2);
    const fanout = againstFloor(hub.arrivals, floor.arrivals, 3, 2);
    rows.push(
      { section, metric: `hook answer, ${label}, p50 / p99 / max`, ...hook },
      {
        section,
        metric: `to subscriber, ${label}, p50 / p99 / max`,
        ...fanout,
        value: `${fanout.value}${missing}`,
        ok: fanout.ok && missing === '',
      },
      { section, metric: `hub's event loop and GC, ${label}`, value: hub.stats ?? '' },
    );
  }
  const userRun = { perSecond: 1500, seconds: options.seconds };
  const floor = await userAtFloor(userRun);
  const hub = await userAtHub(world, userRun);
  const label = 'a user: 1 real session just created, fetch, 1,500/s, 1 sub';
  const hook = againstFloor(hub.answers, floor.answers, 3, 2);
  const fanout = againstFloor(hub.arrivals, floor.arrivals, 3, 2);
  const resets =
    hub.resets || floor.resets
      ? ` (connection reset, sent again: hub ${hub.resets}, floor ${floor.resets})`
      : '';
  const share = (cpu = NaN) => `${(cpu * 100).toFixed(0)}%`;
  const client = `the client (fetch) used ${share(hub.clientCpu)} of a core, ${share(floor.clientCpu)} at the floor`;
  rows.push(
    {
      section,
      metric: `hook answer, ${label}, p50 / p99 / max`,
      ...hook,
      value: `${hook.value}${resets}`,
    },
    { section, metric: `to subscriber, ${label}, p50 / p99 / max`, ...fanout },
    { section, metric: `hub's event loop and GC, ${label}`, value: `${hub.stats}; ${client}` },
  );
  return rows;
}
