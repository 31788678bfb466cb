/**
 * The `memory` section: the hub's resident memory idle, with the live sessions, right after
 * storing `stored` events (the ingest's garbage not yet collected), at its peak over the run,
 * and after `settleMs` idle: V8 collects that garbage once the hub has been idle for about 8 s
 * (its memory reducer), so what remains is the memory the hub holds.
 */
import { totalEvents } from './event-count.js';
import { rssSummary } from './hub-stats.js';
import { ingest, type BenchHub, type Target } from './hook-load.js';
import { rssMb } from './proc-stats.js';
import type { Row } from './row.js';

const section = 'hub memory (RSS)';

export async function memory(
  hub: BenchHub,
  options: {
    readonly live: readonly Target[];
    /** RSS in MB measured before: idle with no session, and with the live sessions. */
    readonly idleRss: number;
    readonly liveRss: number;
    /** Events the hub stores in all (the missing ones go to one session). */
    readonly stored: number;
    readonly settleMs: number;
  },
): Promise<Row[]> {
  const { url, pid: hubPid } = hub;
  const { live, stored } = options;
  const target = live[1] ?? live[0]!;
  await ingest(hub.hooks, target, Math.max(0, stored - (await totalEvents(url))), 64);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const busyRss = rssMb(hubPid);
  await new Promise((resolve) => setTimeout(resolve, options.settleMs));
  const settledRss = rssMb(hubPid);
  const holding = `${live.length} sessions + ${stored.toLocaleString('en')} events`;
  const rows: Row[] = (
    [
      ['idle', options.idleRss],
      [`${live.length} live sessions`, options.liveRss],
      [`${holding}, 1 s after`, busyRss],
      ['peak over the run (VmHWM)', rssMb(hubPid, 'VmHWM')],
    ] as const
  ).map(([metric, mb]) => ({ section, metric, value: `${mb.toFixed(0)} MB` }));
  rows.push({
    section,
    metric: `${holding}, ${options.settleMs / 1000} s idle`,
    value: `${settledRss.toFixed(0)} MB (${await rssSummary(hub, settledRss)})`,
    target: '< 150 MB',
    ok: settledRss < 150,
  });
  return rows;
}
