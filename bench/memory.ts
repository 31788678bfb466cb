/**
 * The `memory` section: the hub's resident memory idle, with the live sessions, right after
 * storing `stored` events (the ingest's garbage not yet collected), at its peak over the run,
 * and once V8 has collected that garbage, so what remains is the memory the hub holds.
 *
 * V8 collects it on its own (its memory reducer) once the hub allocates little, a check it makes
 * every 8 s after its last full collection: 8 to 24 s after a burst ends, later while something
 * keeps allocating. The row waits for that collection, up to `collectMs`, and says how long it
 * took: its RSS before then is the ingest's garbage, which the "1 s after" row shows.
 */
import { performance } from 'node:perf_hooks';
import { totalEvents } from './event-count.js';
import { metricSample, rssSummary } from './hub-stats.js';
import { ingest, type BenchHub, type Target } from './hook-load.js';
import { rssMb } from './proc-stats.js';
import type { Row } from './row.js';

const section = 'hub memory (RSS)';

/** Full collections of the hub's heap so far, from its /metrics. */
const majorCollections = (base: string) =>
  metricSample(base, 'claude_hub_gc_pause_seconds_count{kind="major"}');

/**
 * Seconds until the hub's next full collection and the one V8 makes right after it (the
 * reducer makes two or three, about 0.5 s apart), or null if none came within `collectMs`.
 * The hub is asked every 4 s: a scrape allocates, and asked every second it kept V8 from
 * finding the hub idle for 35 s.
 */
async function collected(base: string, collectMs: number): Promise<number | null> {
  const t0 = performance.now();
  const before = await majorCollections(base);
  while (performance.now() - t0 < collectMs) {
    await new Promise((resolve) => setTimeout(resolve, 4000));
    if ((await majorCollections(base)) > before) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return (performance.now() - t0) / 1000;
    }
  }
  return null;
}

export async function memory(
  hub: BenchHub,
  options: {
    readonly live: readonly Target[];
    /** RSS in MB measured before: idle with no session, and with the live sessions. */
    readonly idleRss: number;
    readonly liveRss: number;
    /** Events the hub stores in all (the missing ones go to one session). */
    readonly stored: number;
    /** How long to wait for V8 to collect the ingest's garbage. */
    readonly collectMs: number;
  },
): Promise<Row[]> {
  const { url, pid: hubPid } = hub;
  const { live, stored } = options;
  const target = live[1] ?? live[0]!;
  await ingest(hub.hooks, target, Math.max(0, stored - (await totalEvents(url))), 64);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const busyRss = rssMb(hubPid);
  const seconds = await collected(hub.base, options.collectMs);
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
  const when =
    seconds === null
      ? `not collected within ${options.collectMs / 1000} s`
      : `collected ${(1 + seconds).toFixed(0)} s after the ingest`;
  rows.push({
    section,
    metric: `${holding}, once V8 collected`,
    value: `${settledRss.toFixed(0)} MB, ${when} (${await rssSummary(hub, settledRss)})`,
    target: '< 150 MB',
    ok: settledRss < 150,
  });
  return rows;
}
