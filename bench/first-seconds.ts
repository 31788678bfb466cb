/**
 * The `first-seconds` section: a hub just started, as a user meets it (or as every session's
 * hooks meet it after a restart). A fresh hub takes hook events at 2,000/s from the first one
 * after its ready line, nothing excluded as warm-up, while 1 or 10 subscribers watch the
 * session; a fresh floor server (bench/floor-server.ts) takes the same load in the same way,
 * just before. The session is made by its first event, posted with the hub's hook token, as
 * the global hooks of a claude started by hand do: no claude process runs for it, so the run
 * before the bench's claude sessions start and the run after them show the machine's share.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { BenchWorld } from './claude-world.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import { startFloor } from './floor.js';
import { HookClient } from './hook-client.js';
import { offer, type Target } from './hook-load.js';
import { hubStats } from './hub-stats.js';
import { againstFloor, type Row } from './row.js';
import { SentTimes, startSubscribers, untilArrived } from './subscribers-thread.js';

interface Measured {
  /** Hook answers, first event included. */
  readonly answers: number[];
  /** Each event's delay to each subscriber. */
  readonly arrivals: number[];
  /** The hub's event loop and GC over the run. */
  readonly stats?: string;
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
  return rows;
}
