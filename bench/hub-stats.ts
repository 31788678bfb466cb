/**
 * What the hub's /metrics and the kernel say of a span of time: its event loop's delay (reset at
 * each scrape), its garbage collection pauses, its periodic work, how long its hook answers took
 * from the request's first callback to the answer (the hub's own part of a hook's time), how long
 * live events waited in it until written to a subscriber's socket (the hub's own part of a
 * subscriber's wait) and how often a client was behind, how long starting subprocesses held its
 * loop, and how long its loop waited for a core (the machine's part), so a row says which part of
 * its tail was the hub's loop, its collector, its timers, its subprocesses or the machine.
 */
import { performance } from 'node:perf_hooks';
import { rssMb, runQueueMs } from './proc-stats.js';
import { ms } from './row.js';

type Samples = Map<string, number>;

async function scrape(base: string): Promise<Samples> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    const match =
      /^(claude_hub_(?:event_loop|gc_pause|periodic_work|spawn|hook_ingest_seconds|event_delivery_seconds|subscriber_behind_seconds)\S*) (\S+)$/.exec(
        line,
      );
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

/** One sample of the hub's /metrics, as its text names it (labels included); 0 when absent. */
export async function metricSample(base: string, sample: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

/**
 * What the hub's RSS (`rss`, in MB, read just before) is made of: files mapped (node's binary,
 * its libraries), V8's heap (used, and what V8 holds for it, from the hub's /metrics), the
 * buffers outside the heap that V8 knows of, and the rest (native allocations: SQLite, libuv,
 * the checkpoint thread).
 */
export async function rssSummary(
  hub: { readonly base: string; readonly pid: number },
  rss: number,
): Promise<string> {
  const text = await (await fetch(`${hub.base}/metrics`)).text();
  const mb = (name: string) =>
    Number(new RegExp(`^claude_hub_${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
  const [used, held, buffers] = [
    mb('nodejs_heap_size_used_bytes'),
    mb('nodejs_heap_size_total_bytes'),
    mb('nodejs_external_memory_bytes'),
  ];
  const files = rssMb(hub.pid, 'RssFile');
  const rest = rss - files - held - buffers;
  const f = (n: number) => n.toFixed(0);
  return `files ${f(files)} MB, V8 heap ${f(used)} MB used of ${f(held)} MB, buffers ${f(buffers)} MB, else ${f(rest)} MB`;
}

/** Sum of a metric's samples, labelled or not. */
function total(samples: Samples, metric: string): number {
  let sum = 0;
  for (const [name, value] of samples) {
    if (name === metric || name.startsWith(`${metric}{`)) sum += value;
  }
  return sum;
}

/**
 * The histogram bucket bound (`le`) within which `percent` of the span's observations fall, from
 * the buckets' counts before and after; '' without observations.
 */
function within(before: Samples, after: Samples, metric: string, percent: number): string {
  const buckets: [number, number][] = [];
  const bucket = new RegExp(`^${metric}_bucket\\{le="([^"]+)"\\}$`);
  for (const [name, value] of after) {
    const le = bucket.exec(name)?.[1];
    if (le !== undefined) buckets.push([Number(le), value - (before.get(name) ?? 0)]);
  }
  buckets.sort(([a], [b]) => a - b);
  const count = buckets.at(-1)?.[1] ?? 0;
  if (count === 0) return '';
  const [le] = buckets.find(([, n]) => n >= (count * percent) / 100)!;
  return le === Infinity ? 'over the last bucket' : `within ${ms(le * 1000)}`;
}

/** Scrapes now (which starts the loop's span over); the function returns the span's summary. */
export async function hubStats(hub: {
  readonly base: string;
  readonly pid: number;
}): Promise<() => Promise<string>> {
  const before = await scrape(hub.base);
  const [t0, waited0] = [performance.now(), runQueueMs(hub.pid)];
  return async () => {
    const [span, waited] = [performance.now() - t0, runQueueMs(hub.pid) - waited0];
    const after = await scrape(hub.base);
    const delta = (metric: string) => total(after, metric) - total(before, metric);
    const loop = (q: string) =>
      ms((after.get(`claude_hub_event_loop_delay_seconds{quantile="${q}"}`) ?? NaN) * 1000);
    const gcCount = delta('claude_hub_gc_pause_seconds_count');
    const gcMs = delta('claude_hub_gc_pause_seconds_sum') * 1000;
    const gcMax = (after.get('claude_hub_gc_pause_max_seconds') ?? NaN) * 1000;
    // Full collections (mark-compact) apart: one can be the longest pause of a row.
    const major = (part: string) =>
      (after.get(`claude_hub_gc_pause_seconds_${part}{kind="major"}`) ?? 0) -
      (before.get(`claude_hub_gc_pause_seconds_${part}{kind="major"}`) ?? 0);
    const timers = delta('claude_hub_periodic_work_seconds_count');
    const timersMs = delta('claude_hub_periodic_work_seconds_sum') * 1000;
    const spawns = delta('claude_hub_spawn_seconds_count');
    const spawnMs = delta('claude_hub_spawn_seconds_sum') * 1000;
    const spawnMax = (after.get('claude_hub_spawn_max_seconds') ?? NaN) * 1000;
    const hooks = 'claude_hub_hook_ingest_seconds';
    const inHub = within(before, after, hooks, 50);
    const delivery = 'claude_hub_event_delivery_seconds';
    const untilWritten = within(before, after, delivery, 50);
    const behind = 'claude_hub_subscriber_behind_seconds';
    const waits = delta(`${behind}_count`);
    const clients = `clients behind ${waits} times${waits > 0 ? `, each ${within(before, after, behind, 100)}` : ''}`;
    return [
      `loop delay p99 ${loop('0.99')}, max ${loop('1')}`,
      `GC ${gcCount} pauses, ${ms(gcMs)} (${major('count')} full, ${ms(major('sum') * 1000)}), longest ${ms(gcMax)}`,
      `timers ${timers} runs, ${ms(timersMs)}`,
      `subprocess starts ${spawns}, ${ms(spawnMs)}${spawns > 0 ? `, longest ${ms(spawnMax)}` : ''}`,
      ...(inHub ? [`hooks in the hub p50 ${inHub}, p99 ${within(before, after, hooks, 99)}`] : []),
      ...(untilWritten
        ? [
            `events until written to subscribers p50 ${untilWritten}, p99 ${within(before, after, delivery, 99)}, ${clients}`,
          ]
        : []),
      `waited for a core ${ms(waited)} (${((waited / span) * 100).toFixed(0)}%)`,
    ].join('; ');
  };
}
