import { done, EndingStream, type ReadySource } from './ready-source.js';

/**
 * The intervals batches are paced at: a reader's is taken up to the next of these, so that
 * readers share their batches and a feed keeps a few paces at most.
 */
export const batchIntervals = [25, 50, 100, 250, 500, 1000, 2500, 5000] as const;

/** The interval of `everyMs` (25 to 5000). */
export function batchInterval(everyMs: number): number {
  return batchIntervals.find((interval) => interval >= everyMs) ?? batchIntervals.at(-1)!;
}

/** What a batch reader needs of its LatestFeed. */
export interface BatchSource<T> {
  /** The seq of the feed's last value. */
  readonly tailSeq: number;
  /** The latest values of the keys changed after seq `after` up to seq `to`, in that order. */
  batch(after: number, to: number): readonly T[];
  leave(reader: { readonly last: number }): void;
}

/**
 * The ticks of the batch readers of one interval: after a change, at once when the last tick is
 * `everyMs` old, else when it will be. Each tick ends a batch at the feed's last value then, so
 * every reader caught up takes the same batch (the same array, and so the same result and
 * bytes); a reader behind takes everything it missed in one batch.
 */
export class BatchPace {
  readonly #everyMs: number;
  readonly #tailSeq: () => number;
  #tickAt = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  #waiting = new Set<() => void>();
  /** The seq the last tick's batches end at (at first, the feed's last: no batch is due). */
  to: number;

  constructor(everyMs: number, tailSeq: () => number) {
    this.#everyMs = everyMs;
    this.#tailSeq = tailSeq;
    this.to = tailSeq();
  }

  /** Calls `wake` at the next tick. */
  wait(wake: () => void): void {
    this.#waiting.add(wake);
    if (this.#tailSeq() > this.to) this.changed();
  }

  forget(wake: () => void): void {
    this.#waiting.delete(wake);
  }

  /** The feed has a new value. */
  changed(): void {
    if (this.#waiting.size === 0 || this.#timer) return;
    const since = performance.now() - this.#tickAt;
    if (since >= this.#everyMs) this.#tick();
    else this.#timer = setTimeout(() => this.#tick(), this.#everyMs - since);
  }

  #tick(): void {
    this.#timer = null;
    this.#tickAt = performance.now();
    this.to = this.#tailSeq();
    const waiting = this.#waiting;
    this.#waiting = new Set();
    for (const wake of waiting) wake();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

/**
 * A reader of a LatestFeed that takes the keys changed since its last batch as one batch, at most
 * once per its pace's interval: a dashboard of a thousand sessions gets a few messages a second,
 * each with the sessions that changed, rather than one a change. A ReadySource for the relay, and
 * an async iterator like a generator.
 */
export class LatestBatches<T>
  extends EndingStream<readonly T[]>
  implements ReadySource<readonly T[]>
{
  readonly #feed: BatchSource<T>;
  readonly #pace: BatchPace;
  /** The seq of the last value taken. */
  last: number;
  #wake: (() => void) | null = null;
  #ended = false;

  constructor(feed: BatchSource<T>, pace: BatchPace) {
    super();
    this.#feed = feed;
    this.#pace = pace;
    this.last = feed.tailSeq;
  }

  takeReady(): readonly T[] | undefined {
    const to = this.#pace.to;
    if (this.#ended || this.last >= to) return undefined;
    const batch = this.#feed.batch(this.last, to);
    this.last = to;
    // Empty when its keys all changed again after the tick: they come in the next batch.
    return batch.length > 0 ? batch : undefined;
  }

  wakeWhenReady(wake: () => void): boolean {
    if (this.#ended || this.last < this.#pace.to) return false;
    this.#wake = wake;
    this.#pace.wait(this.#woken);
    return true;
  }

  readonly #woken = (): void => {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  };

  async next(): Promise<IteratorResult<readonly T[], undefined>> {
    for (;;) {
      const batch = this.takeReady();
      if (batch !== undefined) return { value: batch, done: false };
      if (this.#ended) return done;
      await new Promise<void>((resolve) => {
        if (!this.wakeWhenReady(resolve)) resolve();
      });
    }
  }

  protected end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#pace.forget(this.#woken);
    this.#feed.leave(this);
    this.#woken();
  }
}
