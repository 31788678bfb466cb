/**
 * What the hub's /metrics says of a span of time: its event loop's delay (reset at each scrape),
 * its garbage collection pauses, and its periodic work, so a row says which part of its tail
 * was the hub's loop, its collector or its timers.
 */
import { ms } from './row.js';

type Samples = Map<string, number>;

async function scrape(base: string): Promise<Samples> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    const match = /^(claude_hub_(?:event_loop|gc_pause|periodic_work)\S*) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

/** Sum of a metric's labelled samples. */
function total(samples: Samples, metric: string): number {
  let sum = 0;
  for (const [name, value] of samples) if (name.startsWith(`${metric}{`)) sum += value;
  return sum;
}

/** Scrapes now (which starts the loop's span over); the function returns the span's summary. */
export async function hubStats(base: string): Promise<() => Promise<string>> {
  const before = await scrape(base);
  return async () => {
    const after = await scrape(base);
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
    return [
      `loop delay p99 ${loop('0.99')}, max ${loop('1')}`,
      `GC ${gcCount} pauses, ${ms(gcMs)} (${major('count')} full, ${ms(major('sum') * 1000)}), longest ${ms(gcMax)}`,
      `timers ${timers} runs, ${ms(timersMs)}`,
    ].join('; ');
  };
}
