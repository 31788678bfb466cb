import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/**
 * The intervals between the runs of a timer set every `resolutionMs`, since the last reset(): a
 * run later than that is how long the event loop held everything else. Node's own
 * monitorEventLoopDelay forgets, at each reset, when its timer last ran, so a stall that began
 * right after a reset (a scrape of /metrics) was not counted at all; this one keeps its clock.
 */
export class LoopDelay {
  readonly #histogram: RecordableHistogram = createHistogram();
  readonly #timer: NodeJS.Timeout;
  #last = performance.now();

  constructor(resolutionMs: number) {
    this.#timer = setInterval(() => {
      const now = performance.now();
      this.#histogram.record(Math.max(1, Math.round((now - this.#last) * 1e6)));
      this.#last = now;
    }, resolutionMs);
    this.#timer.unref();
  }

  /** The interval at percentile `p` (0-100), in nanoseconds; 0 before a first run. */
  percentile(p: number): number {
    return this.#histogram.count === 0 ? 0 : this.#histogram.percentile(p);
  }

  /** The longest interval, in nanoseconds; 0 before a first run. */
  get max(): number {
    return this.#histogram.count === 0 ? 0 : this.#histogram.max;
  }

  reset(): void {
    this.#histogram.reset();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
