/**
 * The `fanout` section: events offered at 2,000/s to 1 or 10 sessions, each watched by 1, 10 or
 * 100 subscribers; an event's latency runs from just before its hook POST to its arrival at a
 * subscriber. The CPU of the hub (and its kernel share) and of the load go beside each row,
 * since both share the machine's cores. Each case runs first against the floor server: the
 * same messages written by a minimal `ws` broadcaster to the same subscribers. The hub's event
 * loop delay, GC pauses and timers over the row go beside its CPU.
 */
import { performance } from 'node:perf_hooks';
import { offer, type BenchHub, type Target } from './hook-load.js';
import { hubStats } from './hub-stats.js';
import { cpuMs, runQueueMs } from './proc-stats.js';
import { againstFloor, spread, type Row } from './row.js';
import { SentTimes, startSubscribers, untilArrived } from './subscribers-thread.js';

/** One case's run against one server: each event's delay to each subscriber, and the CPU shares. */
async function measure(
  server: Pick<BenchHub, 'url' | 'base' | 'pid' | 'hooks'> & { readonly stats?: boolean },
  targets: Target[],
  subscribers: number,
  library: boolean,
  seconds: number,
) {
  const sent = new SentTimes();
  const { arrivals, stop } = await startSubscribers(
    {
      url: server.url.replace(/^http/, 'ws'),
      sessionIds: targets.map((target) => target.id),
      subscribers,
      library,
    },
    sent,
  );
  await new Promise((resolve) => setTimeout(resolve, 300 + subscribers * 5));
  const { pid } = server;
  const stats = server.stats ? await hubStats(server) : null;
  const [cpu0, system0, loadCpu0] = [cpuMs(pid), cpuMs(pid, 'system'), cpuMs(process.pid)];
  const waited0 = runQueueMs(pid);
  const t0 = performance.now();
  const total = await offer(server.hooks, targets, 2000, seconds, sent);
  const expected = total * subscribers;
  await untilArrived(() => arrivals.length >= expected);
  const share = (ms: number) => `${((ms / (performance.now() - t0)) * 100).toFixed(0)}%`;
  const cpus = [
    `CPU ${share(cpuMs(pid) - cpu0)}`,
    `${share(cpuMs(pid, 'system') - system0)} in the kernel`,
    `load ${share(cpuMs(process.pid) - loadCpu0)}`,
    // The hub's stats say it for the hub.
    ...(stats ? [] : [`waited for a core ${share(runQueueMs(pid) - waited0)}`]),
  ].join(', ');
  await stop();
  const missing = arrivals.length < expected ? `${arrivals.length}/${expected} arrived, ` : '';
  const loop = stats ? `; ${await stats()}` : '';
  return { arrivals, complete: missing === '', note: `(${missing}${cpus}${loop})` };
}

export async function fanout(
  hub: BenchHub,
  options: {
    /** Live sessions; the first 1 or 10 get the events. */
    readonly live: readonly Target[];
    /** The floor server: each case runs against it too, just before the hub. */
    readonly floor?: Pick<BenchHub, 'url' | 'base' | 'pid' | 'hooks'>;
    /** Subscriber counts, each with every count of `sessions` (1 and 10 by default). */
    readonly subscribers: readonly number[];
    readonly sessions?: readonly number[];
    /** Also 100 subscribers on 1 session with the graphql-ws client library, for comparison. */
    readonly withLibrary: boolean;
    readonly seconds: number;
  },
): Promise<Row[]> {
  const cases = options.subscribers.flatMap((subscribers) =>
    (options.sessions ?? [1, 10]).map((sessionsUsed) => ({
      subscribers,
      sessionsUsed,
      library: false,
    })),
  );
  if (options.withLibrary) cases.push({ subscribers: 100, sessionsUsed: 1, library: true });
  const rows: Row[] = [];
  for (const { subscribers, sessionsUsed, library } of cases) {
    const targets = options.live.slice(0, Math.min(sessionsUsed, options.live.length));
    const run = (server: Pick<BenchHub, 'url' | 'base' | 'pid' | 'hooks'>, stats = false) =>
      measure({ ...server, stats }, targets, subscribers, library, options.seconds);
    const atFloor = options.floor ? await run(options.floor) : null;
    const atHub = await run(hub, true);
    const sessionsLabel = `${targets.length} session${targets.length > 1 ? 's' : ''}`;
    const metric = `${subscribers} sub x ${sessionsLabel} p50 / p99 / max${library ? ' (graphql-ws client)' : ''}`;
    const value = `hub ${spread(atHub.arrivals)} ${atHub.note}`;
    if (!atFloor || library) {
      rows.push({ section: 'fan-out 2,000/s', metric, value });
      continue;
    }
    // 1 and 10 subscribers within 3x the floor + 2 ms; 100 (the floor's own limit) within 3x.
    const compared = againstFloor(atHub.arrivals, atFloor.arrivals, 3, subscribers < 100 ? 2 : 0);
    rows.push({
      section: 'fan-out 2,000/s',
      metric,
      value: `${value}, floor ${spread(atFloor.arrivals)} ${atFloor.note}`,
      target: compared.target,
      ok: compared.ok && atHub.complete,
    });
  }
  return rows;
}
