/**
 * The `overload` section: a fresh hub offered twice the rate it carries, and how it degrades.
 * The carried rate comes first: hook POSTs from 16 connections, each posting again once
 * answered, while 100 subscribers read every event; it is the events delivered to all of them
 * per second. Then the same hub gets twice that rate, paced, while the 100 subscribers read on
 * and one more stops reading for a while (bench/subscribers.ts, slowSubscriber). The hub lets a
 * subscriber lag `subscriberBuffer` events (the default, 10,000, in the full run); on loopback
 * the kernel's socket buffers hold megabytes more, so the pause is most of the row.
 *
 * The hub must degrade in order: hook answers stay fast whatever the subscribers do (against
 * the floor server answering the same hooks with no subscriber; apart, those that come back
 * after the first 2 s (settleMs), once the hub has cut what it cannot carry; and beside them a
 * hub of its own answering the same hooks with no subscriber, the subscribers' cost), the subscriber
 * that falls behind is cut with SUBSCRIBER_TOO_SLOW and resumes with `after` (no event
 * missing, none twice), and the subscribers the hub keeps have a bounded p50: within 3x their
 * p50 at the carried rate + 2 ms. (The floor server is no floor for those: it carries fewer
 * subscribers than the hub, and at the hub's carried rate its p50 grew to seconds.)
 */
import { performance } from 'node:perf_hooks';
import type { BenchWorld } from './claude-world.js';
import { startFloor, type Floor } from './floor.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import { offer, tagged, type BenchHub, type Target } from './hook-load.js';
import { hubStats } from './hub-stats.js';
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
  /** How long the slow subscriber stops reading, from a second into the load. */
  readonly pauseMs: number;
  readonly subscriberBuffer: number;
}

/** Waits until every subscriber still connected has `total` events, or arrivals stop for 2 s. */
async function settled(watching: Subscribers, total: number, subscribers: number) {
  let seen = -1;
  let quietSince = performance.now();
  for (;;) {
    const { length } = watching.arrivals;
    if (length >= total * (subscribers - watching.cut())) return;
    if (length !== seen) [seen, quietSince] = [length, performance.now()];
    else if (performance.now() - quietSince > 2000) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Tagged Notification POSTs from 16 connections, each posting again once answered. */
async function closedLoop(server: Server, target: Target, seconds: number, sent: SentTimes) {
  let posted = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < until) {
        const tag = `${target.id}:c${posted++}`;
        sent.set(tag, performance.timeOrigin + performance.now());
        const status = await server.hooks.post(target.secret, tagged(target, tag, 'carried'));
        if (status !== 200) throw new Error(`hook POST answered ${status}`);
      }
    }),
  );
  return posted;
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
  const total = await offer(server.hooks, [target], rate, options.seconds, sent, noted);
  if (watching) await settled(watching, total, options.subscribers);
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
    // What the hub carries with its subscribers.
    const t0 = performance.now();
    const posted = await closedLoop(hub, hub.target, options.seconds, sent);
    await settled(watching, posted, options.subscribers);
    const carried = Math.round(posted / ((performance.now() - t0) / 1000));
    const atCarried = watching.arrivals.slice();
    const rate = 2 * carried;

    // The floor: the same hook answers with no subscriber; then a hub with none.
    const hooksFloor = await atFloor(hub.target, rate, options);
    const hubAlone = await alone(world, rate, options);

    const stats = await hubStats(hub);
    const pause = setTimeout(() => watching.pauseSlow(options.pauseMs), 1000);
    const atHub = await paced(hub, hub.target, watching, sent, rate, options);
    clearTimeout(pause);
    // seq 1 is the SessionStart; the closed loop's events, then the paced ones.
    const last = 1 + posted + atHub.total;
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
        metric: `carried: ${options.subscribers} sub, 16 connections`,
        value: `${carried} events/s, p50 / p99 / max ${spread(atCarried)}`,
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
        target: `p50 <= 3x carried + 2 ms (${ms(p50Bound)})`,
        ok: kept > 0 && percentile(atHub.arrivals, 50) <= p50Bound,
      },
      {
        section,
        metric: `1 sub paused ${options.pauseMs / 1000} s, may lag ${options.subscriberBuffer}`,
        value: `cut ${slow.cuts}x, each time resumed with after; got seq ${slow.first}-${slow.last} of ${last}, ${slow.received} events, ${slow.outOfOrder} out of order`,
        target: 'cut, every event once, in order',
        ok: slow.cuts > 0 && slow.outOfOrder === 0 && slow.first === 1 && slow.last === last,
      },
    ];
  } finally {
    await watching.stop();
    await hub.stop();
  }
}
