/**
 * The `overload` section: a fresh hub offered twice the rate it carries, and how it degrades.
 * The carried rate comes first: the rate its subscribers keep up with. Paced hook POSTs at rates
 * rising by a factor (`search`), each for a few seconds, while 100 subscribers read every event;
 * a step is kept up with when every subscriber still connected got every event of the step, none
 * was cut, and the step's delivery p99 is under `keptUpP99Ms`. The carried rate is the highest
 * step kept up with; the search stops at the first that is not. (A closed loop of hook answers,
 * each connection posting again once answered, overstates it: its rate is what the hub answers,
 * not what reaches the subscribers, and on a 16-core machine a hub whose hook answers no longer
 * waited for the writes "carried" 3.3 times more that way while its subscribers fell 2 s behind.)
 * Then the same hub gets twice that rate, paced, while the 100 subscribers read on and one more
 * stops reading until the hub cuts it (bench/subscribers.ts, slowSubscriber; pauseUntilCut). The
 * hub lets a subscriber lag `subscriberBuffer` events (the default, 10,000, in the full run) on
 * top of what its socket's buffers hold, megabytes on loopback.
 *
 * The hub must degrade in order: hook answers stay fast whatever the subscribers do (against
 * the floor server answering the same hooks with no subscriber; apart, those that come back
 * after the first 2 s (settleMs), once the hub has cut what it cannot carry; and beside them a
 * hub of its own answering the same hooks with no subscriber, the subscribers' cost), the subscriber
 * that falls behind is cut with SUBSCRIBER_TOO_SLOW and resumes with `after` (no event
 * missing, none twice), and the subscribers the hub keeps have a bounded p50: within 3x their
 * p50 at the carried step + 2 ms. (The floor server is no floor for those: it carries fewer
 * subscribers than the hub, and at the hub's carried rate its p50 grew to seconds.)
 */
import { performance } from 'node:perf_hooks';
import type { BenchWorld } from './claude-world.js';
import { startFloor, type Floor } from './floor.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import { offer, type BenchHub, type Target } from './hook-load.js';
import { hubStats, metricSample } from './hub-stats.js';
import { cpuMs, runQueueMs } from './proc-stats.js';
import { againstFloor, ms, percentile, spread, type Row } from './row.js';
import {
  SentTimes,
  startSubscribers,
  untilArrived,
  type Subscribers,
} from './subscribers-thread.js';

type Server = Pick<BenchHub, 'url' | 'hooks' | 'pid'>;

/**
 * The first seconds of the overload (2, or a quarter of a shorter row), while the hub sheds
 * the subscribers it cannot carry.
 */
const settleMs = (options: Options) => Math.min(2000, (options.seconds * 1000) / 4);

interface Options {
  readonly subscribers: number;
  readonly seconds: number;
  readonly subscriberBuffer: number;
}

/**
 * Waits until every subscriber still connected has the `total` events offered since `arrivals`
 * had `from`, or arrivals stop for 2 s.
 */
async function settled(watching: Subscribers, from: number, total: number, subscribers: number) {
  let seen = -1;
  let quietSince = performance.now();
  for (;;) {
    const length = watching.arrivals.length - from;
    if (length >= total * (subscribers - watching.cut())) return;
    if (length !== seen) [seen, quietSince] = [length, performance.now()];
    else if (performance.now() - quietSince > 2000) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Subscriptions the hub has cut so far, by its /metrics. */
const hubCuts = (base: string) => metricSample(base, 'claude_hub_subscribers_cut_total');

/**
 * The slow subscriber stops reading `afterMs` into the load and reads again once the hub has cut
 * it, or when `stop` is called at the load's end. The hub counts every cut in its /metrics; the
 * slow one's is a cut more than the reading subscribers were told of, for a second (a reader
 * behind gets its notice after what it has yet to read: 1-3 s at twice the carried rate). A pause of fixed length tells nothing at a low
 * rate: on loopback the paused connection's socket buffers hold megabytes (about 16,000 of these
 * events on the 2-core machine) before the hub's queue for it begins to fill.
 */
function pauseUntilCut(hub: Pick<BenchHub, 'base'>, watching: Subscribers, afterMs: number) {
  let stopped = false;
  let pausedMs = 0;
  const paused = (async () => {
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    if (stopped) return;
    const before = (await hubCuts(hub.base)) - watching.cut();
    watching.pauseSlow();
    const since = performance.now();
    for (let seen = 0; !stopped && seen < 10;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = (await hubCuts(hub.base)) - watching.cut() > before ? seen + 1 : 0;
    }
    pausedMs = performance.now() - since;
    watching.resumeSlow();
  })();
  return async () => {
    stopped = true;
    await paused;
    return pausedMs;
  };
}

/**
 * The delivery p99 under which the subscribers keep up with a step: a quarter of a second, late
 * enough to pass the hub's turns and GC pauses under load, and far under the seconds a hub past
 * what it carries leaves its subscribers behind (2 s in the 16-core closed loop above).
 */
const keptUpP99Ms = 250;

/**
 * The step search: from `from` events/s, each step `factor` times the one before, paced for
 * `stepSeconds` (a quarter of the row's seconds: 2 s in the full run), `steps` at most (24 reach
 * 33,000/s), after a step at `from` to warm the fresh hub up. A short row (the smoke run's 1 s)
 * tries 2.
 */
const search = (options: Options) => ({
  from: 200,
  factor: 1.25,
  stepSeconds: options.seconds / 4,
  steps: options.seconds >= 4 ? 24 : 2,
});

/**
 * One step of the search: tagged Notification POSTs paced at `rate` while the subscribers read;
 * their arrivals, and why the step was not kept up with (null when it was).
 */
async function step(
  server: Server,
  target: Target,
  watching: Subscribers,
  sent: SentTimes,
  rate: number,
  seconds: number,
  subscribers: number,
  first: number,
) {
  const [from, cut0] = [watching.arrivals.length, watching.cut()];
  const total = await offer(server.hooks, [target], rate, seconds, sent, undefined, first);
  await settled(watching, from, total, subscribers);
  const arrivals = watching.arrivals.slice(from);
  const [cut, expected] = [watching.cut() - cut0, total * (subscribers - watching.cut())];
  const p99 = percentile(arrivals, 99);
  const missed =
    cut > 0
      ? `${cut} cut`
      : arrivals.length < expected
        ? `${arrivals.length} of ${expected} arrived`
        : p99 >= keptUpP99Ms
          ? `p99 ${ms(p99)}`
          : null;
  return { rate, total, arrivals, missed };
}

/** The step search (see `search`): every step tried, and the last kept up with, if any. */
async function carriedRate(
  server: Server,
  target: Target,
  watching: Subscribers,
  sent: SentTimes,
  options: Options,
) {
  const { from, factor, stepSeconds, steps } = search(options);
  const tried: Awaited<ReturnType<typeof step>>[] = [];
  const { subscribers } = options;
  // A step at the first rate, not judged: a fresh hub's first seconds (its code not yet
  // optimised, its first collections) are not what it carries.
  const warmUp = await step(server, target, watching, sent, from, stepSeconds, subscribers, 0);
  let offered = warmUp.total;
  for (let n = 0; n < steps; n++) {
    const rate = Math.round(from * factor ** n);
    const result = await step(
      server,
      target,
      watching,
      sent,
      rate,
      stepSeconds,
      subscribers,
      offered,
    );
    offered += result.total;
    tried.push(result);
    if (result.missed) break;
  }
  return { tried, offered, carried: tried.findLast((result) => !result.missed) ?? null };
}

/** The session's first event, then `subscribers` and the slow one. */
async function watch(server: Server, target: Target, subscribers: number, sent: SentTimes) {
  const status = await server.hooks.post(target.secret, sessionStartBody(target.id));
  if (status !== 200) throw new Error(`SessionStart answered ${status}`);
  return startSubscribers(
    { url: server.url.replace(/^http/, 'ws'), sessionIds: [target.id], subscribers, slow: true },
    sent,
  );
}

/** Paced load at `rate` with `subscribers` watching; hook answers and arrivals. */
async function paced(
  server: Server,
  target: Target,
  watching: Subscribers | null,
  sent: SentTimes,
  rate: number,
  options: Options,
  /** The first event's tag (offer's `first`): past the events these subscribers had. */
  first = 0,
) {
  const answers: number[] = [];
  /** The answers that came back once the load had run for `settleMs`. */
  const later: number[] = [];
  const from = watching?.arrivals.length ?? 0;
  const [cpu0, waited0, loadWaited0] = [
    cpuMs(server.pid),
    runQueueMs(server.pid),
    runQueueMs(process.pid),
  ];
  const t0 = performance.now();
  const noted = {
    push(latency: number) {
      if (performance.now() - t0 > settleMs(options)) later.push(latency);
      return answers.push(latency);
    },
  };
  const total = await offer(server.hooks, [target], rate, options.seconds, sent, noted, first);
  if (watching) await settled(watching, from, total, options.subscribers);
  const share = (ms: number) => `${((ms / (performance.now() - t0)) * 100).toFixed(0)}%`;
  const cpu = `CPU ${share(cpuMs(server.pid) - cpu0)}`;
  const waited = `waited for a core ${share(runQueueMs(server.pid) - waited0)}`;
  // The load's thread waiting for a core delays the POSTs and the reading of their answers.
  const load = `the load waited for a core ${share(runQueueMs(process.pid) - loadWaited0)}`;
  return {
    answers,
    later,
    arrivals: watching?.arrivals.slice(from) ?? [],
    total,
    cpu,
    waited,
    load,
  };
}

/** A fresh floor server, the paced load with no subscriber, then it stops. */
async function atFloor(target: Target, rate: number, options: Options) {
  const floor: Floor = await startFloor();
  try {
    return await paced(
      floor,
      { id: target.id, secret: 'floor' },
      null,
      new SentTimes(),
      rate,
      options,
    );
  } finally {
    await floor.stop();
  }
}

/**
 * The same paced hooks to a fresh hub of their own that no one subscribes to: the hub's hook
 * path at that rate, so the row with subscribers says what they cost the hooks.
 */
async function alone(world: BenchWorld, rate: number, options: Options) {
  const hub = await startFreshHub(world, 'overload-alone');
  try {
    const status = await hub.hooks.post(hub.target.secret, sessionStartBody(hub.target.id));
    if (status !== 200) throw new Error(`SessionStart answered ${status}`);
    return await paced(hub, hub.target, null, new SentTimes(), rate, options);
  } finally {
    await hub.stop();
  }
}

export async function overload(world: BenchWorld, options: Options): Promise<Row[]> {
  const section = 'overload';
  const hub = await startFreshHub(world, 'overload', [
    '--subscriber-buffer',
    String(options.subscriberBuffer),
  ]);
  const sent = new SentTimes();
  const watching = await watch(hub, hub.target, options.subscribers, sent);
  try {
    // What the hub carries with its subscribers: the highest step they keep up with.
    const { tried, offered, carried } = await carriedRate(hub, hub.target, watching, sent, options);
    const atCarried = carried?.arrivals ?? [];
    // With no step kept up with, the overload is twice the first step.
    const rate = 2 * (carried?.rate ?? tried[0]!.rate);

    // The floor: the same hook answers with no subscriber; then a hub with none.
    const hooksFloor = await atFloor(hub.target, rate, options);
    const hubAlone = await alone(world, rate, options);

    const stats = await hubStats(hub);
    const stopPause = pauseUntilCut(hub, watching, settleMs(options) / 2);
    const atHub = await paced(hub, hub.target, watching, sent, rate, options, offered);
    const pausedMs = await stopPause();
    // seq 1 is the SessionStart; every step's events, then the paced ones.
    const last = 1 + offered + atHub.total;
    await untilArrived(() => (watching.slow()?.last ?? 0) >= last);
    const slow = watching.slow()!;
    const kept = options.subscribers - watching.cut();
    const answered = againstFloor(atHub.answers, hooksFloor.answers, 3, 2);
    const afterShedding = againstFloor(atHub.later, hooksFloor.later, 3, 2);
    const aloneAfter = againstFloor(hubAlone.later, hooksFloor.later, 3, 2);
    const p50Bound = 3 * percentile(atCarried, 50) + 2;
    return [
      {
        section,
        metric: `carried (subscribers keep up, p99 < ${keptUpP99Ms} ms): ${options.subscribers} sub`,
        value: `${carried ? `${carried.rate} events/s, p50 / p99 / max ${spread(atCarried)}` : `none of ${tried[0]!.rate}/s`}; steps of ${search(options).stepSeconds} s after one at ${tried[0]!.rate}/s to warm up: ${tried.map((result) => `${result.rate}/s${result.missed ? ` (${result.missed})` : ''}`).join(', ')}`,
        ...(carried ? {} : { target: 'a step kept up with', ok: false }),
      },
      {
        section,
        metric: `hook answer at ${rate}/s p50 / p99 / max`,
        ...answered,
        value: `${answered.value} (no subscriber; ${hooksFloor.waited}, ${hooksFloor.load}) (hub ${atHub.cpu}; ${await stats()}; ${atHub.load})`,
      },
      {
        section,
        metric: `hook answer at ${rate}/s after ${settleMs(options) / 1000} s p50 / p99 / max`,
        ...afterShedding,
      },
      {
        section,
        metric: `the same, a hub no one subscribes to, after ${settleMs(options) / 1000} s`,
        ...aloneAfter,
        value: `${aloneAfter.value} (hub ${hubAlone.cpu}, ${hubAlone.waited})`,
      },
      {
        section,
        metric: `to subscribers p50 / p99 / max`,
        value: `hub ${spread(atHub.arrivals)}, ${kept} of ${options.subscribers} kept`,
        target: `p50 <= 3x carried step + 2 ms (${ms(p50Bound)})`,
        ok: kept > 0 && percentile(atHub.arrivals, 50) <= p50Bound,
      },
      {
        section,
        metric: `1 sub paused until cut, may lag ${options.subscriberBuffer}`,
        value: `cut ${slow.cuts}x after ${ms(pausedMs)} paused (${Math.round((rate * pausedMs) / 1000)} events offered meanwhile), each time resumed with after; got seq ${slow.first}-${slow.last} of ${last}, ${slow.received} events, ${slow.outOfOrder} out of order`,
        target: 'cut, every event once, in order',
        ok: slow.cuts > 0 && slow.outOfOrder === 0 && slow.first === 1 && slow.last === last,
      },
    ];
  } finally {
    await watching.stop();
    await hub.stop();
  }
}
