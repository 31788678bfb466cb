/**
 * The buffer between the bus, which delivers synchronously, and one subscriber, which reads at
 * its own pace. It holds at most `limit` items; on overflow the subscriber is failed with
 * `overflowError` (it can resume from the last seq it got) and the publisher never waits.
 *
 * With `keyOf` it conflates: an item whose key is already queued replaces that one in its
 * place, so a subscriber of states (a session's) that falls behind gets each one's latest state
 * once, rather than every change it missed, and holds at most one item per key.
 */
export class SubscriberQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: (T | undefined)[] = [];
  readonly #limit: number;
  readonly #overflowError: () => Error;
  readonly #keyOf: ((item: T) => unknown) | null;
  /** Where each queued key's item is, as an index of #items. */
  readonly #queuedAt = new Map<unknown, number>();
  #head = 0;
  #waiting: ((result: IteratorResult<T>) => void) | null = null;
  #wake: (() => void) | null = null;
  #failure: Error | null = null;
  #done = false;

  constructor(limit: number, overflowError: () => Error, keyOf?: (item: T) => unknown) {
    this.#limit = limit;
    this.#overflowError = overflowError;
    this.#keyOf = keyOf ?? null;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#done || this.#failure) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = null;
      resolve({ value: item, done: false });
      return;
    }
    const key = this.#keyOf?.(item);
    const at = this.#keyOf ? this.#queuedAt.get(key) : undefined;
    if (at !== undefined) {
      this.#items[at] = item;
      return;
    }
    if (this.size >= this.#limit) {
      this.#failure = this.#overflowError();
      this.#items.length = this.#head = 0;
      this.#queuedAt.clear();
    } else {
      if (this.#keyOf) this.#queuedAt.set(key, this.#items.length);
      this.#items.push(item);
    }
    this.#callWake();
  }

  /**
   * Calls `wake` once, from the next push() or close(), instead of a promise for the next item:
   * the reader then takes what is here with shift(). False, and no call, when there is
   * something to read already (an item, the overflow or the end).
   */
  wakeOnNext(wake: () => void): boolean {
    if (this.size > 0 || this.#failure || this.#done) return false;
    this.#wake = wake;
    return true;
  }

  #callWake(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  /**
   * Takes a queued item without waiting, if there is one. The queue lets go of it at once: an
   * event a subscriber has had must not live on in its queue (it would outlive the young
   * generation and cost a full collection later).
   */
  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined;
    this.#head += 1;
    if (this.#keyOf) this.#queuedAt.delete(this.#keyOf(item));
    if (this.#head === this.#items.length) this.#items.length = this.#head = 0;
    else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items.splice(0, this.#head);
      for (const [key, at] of this.#queuedAt) this.#queuedAt.set(key, at - this.#head);
      this.#head = 0;
    }
    return item;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.size > 0) return Promise.resolve({ value: this.shift() as T, done: false });
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    // A waiting reader is never failed: overflow needs queued items, and then none waits.
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  close(): void {
    this.#done = true;
    const resolve = this.#waiting;
    this.#waiting = null;
    resolve?.({ value: undefined, done: true });
    this.#callWake();
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
