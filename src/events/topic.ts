import { SubscriberQueue } from './subscriber-queue.js';

/**
 * A small in-process feed for low-volume changes (session updates, permission requests).
 * Each subscriber gets its own bounded queue; one that falls `limit` items behind is failed
 * with `overflowError` and can subscribe again to get the current state.
 */
export class Topic<T extends object> {
  readonly #listeners = new Set<(value: T) => void>();

  /** Delivers a shallow copy: subscribers see the value as it was when published. */
  publish(value: T): void {
    if (this.#listeners.size === 0) return;
    const snapshot = { ...value };
    for (const listener of [...this.#listeners]) listener(snapshot);
  }

  listen(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The values published from now on, as an async iterator; conflated by `keyOf` if given. */
  async *stream(
    limit: number,
    overflowError: () => Error,
    keyOf?: (value: T) => unknown,
  ): AsyncGenerator<T> {
    const queue = new SubscriberQueue<T>(limit, overflowError, keyOf);
    const stop = this.listen((value) => queue.push(value));
    try {
      yield* queue;
    } finally {
      stop();
      queue.close();
    }
  }
}

/** Conflates a feed of records by id: a subscriber behind gets each one's latest state. */
export const byId = (record: { readonly id: string }): string => record.id;

/**
 * The current state, then the changes after it, with no gap: the change stream is subscribed
 * before `current` is read, in the same tick, so a change is either in `current` or comes after
 * it. return() ends it at once, also while waiting for a change.
 */
export function currentThenChanges<T>(
  changes: AsyncGenerator<T>,
  current: () => readonly T[],
): AsyncIterableIterator<T> {
  let waiting: Promise<IteratorResult<T>> | null = changes.next(); // subscribes now
  const first = [...current()];
  return {
    next() {
      const value = first.shift();
      if (value !== undefined) return Promise.resolve({ value, done: false });
      const step = waiting ?? changes.next();
      waiting = null;
      return step;
    },
    return() {
      first.length = 0;
      void changes.return(undefined);
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
