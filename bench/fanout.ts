/**
 * The `fanout` section: events offered at 2,000/s to 1 or 10 sessions, each watched by 1, 10 or
 * 100 subscribers; an event's latency runs from just before its hook POST to its arrival at a
 * subscriber. The CPU of the hub (and its kernel share) and of the load go beside each row,
 * since both share the machine's cores.
 */
import { performance } from 'node:perf_hooks';
import { offer, type BenchHub, type Target } from './hook-load.js';
import { cpuMs } from './proc-stats.js';
import { ms, percentile, type Row } from './row.js';
import { startSubscribers } from './subscribers-thread.js';

export async function fanout(
  hub: BenchHub,
  options: {
    /** Live sessions; the first 1 or 10 get the events. */
    readonly live: readonly Target[];
    /** Subscriber counts, each with every count of `sessions` (1 and 10 by default). */
    readonly subscribers: readonly number[];
    readonly sessions?: readonly number[];
    /** Also 100 subscribers on 1 session with the graphql-ws client library, for comparison. */
    readonly withLibrary: boolean;
    readonly seconds: number;
  },
): Promise<Row[]> {
  const { pid: hubPid, hooks } = hub;
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
    const total = await offer(hooks, targets, 2000, options.seconds, sent);
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
      metric: `${subscribers} sub x ${sessionsLabel} p50 / p99${library ? ' (graphql-ws client)' : ''}`,
      value: `${ms(percentile(arrivals, 50))} / ${ms(p99)} (${arrivals.length < expected ? `${arrivals.length}/${expected} arrived` : cpus})`,
      ...(subscribers === 100 && targets.length === 1 && !library
        ? { target: 'p99 < 5 ms', ok: p99 < 5 && arrivals.length === expected }
        : {}),
    });
  }
  return rows;
}
