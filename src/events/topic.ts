import { EndingStream, type ReadySource } from './ready-source.js';
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

  /**
   * The values published from now on (those `only` keeps, if given), conflated by `keyOf` if
   * given. It listens from this call on.
   */
  stream(
    limit: number,
    overflowError: () => Error,
    keyOf?: (value: T) => unknown,
    only?: (value: T) => boolean,
  ): TopicStream<T> {
    return new TopicStream(this, new SubscriberQueue<T>(limit, overflowError, keyOf), only);
  }
}

/**
 * One subscriber's values of a topic: an async iterator like a generator, and a ReadySource,
 * so the values of one turn cost its consumer one wake-up rather than a promise each. Every
 * subscriber gets the same snapshot object of a value, and so shares its result.
 */
export class TopicStream<T extends object> extends EndingStream<T> implements ReadySource<T> {
  readonly #queue: SubscriberQueue<T>;
  readonly #stop: () => void;

  constructor(topic: Topic<T>, queue: SubscriberQueue<T>, only?: (value: T) => boolean) {
    super();
    this.#queue = queue;
    this.#stop = topic.listen(
      only
        ? (value) => {
            if (only(value)) queue.push(value);
          }
        : (value) => queue.push(value),
    );
  }

  takeReady(): T | undefined {
    return this.#queue.shift();
  }

  wakeWhenReady(wake: () => void): boolean {
    return this.#queue.wakeOnNext(wake);
  }

  next(): Promise<IteratorResult<T, undefined>> {
    return this.#queue.next().catch((error: unknown) => {
      this.end();
      throw error;
    });
  }

  protected end(): void {
    this.#stop();
    this.#queue.close();
  }
}

/** Conflates a feed of records by id: a subscriber behind gets each one's latest state. */
export const byId = (record: { readonly id: string }): string => record.id;

/** Keeps the records of one id when given one, else every record. */
export function onlyOf(
  id: string | undefined,
): ((record: { readonly id: string }) => boolean) | undefined {
  return id === undefined ? undefined : (record) => record.id === id;
}

/**
 * The current state, then the changes after it, with no gap: the change stream is subscribed
 * before `current` is read, in the same tick, so a change is either in `current` or comes after
 * it. return() ends it at once, also while waiting for a change.
 */
export function currentThenChanges<T>(
  changes: AsyncGenerator<T>,
  current: () => readonly T[],
): AsyncIterableIterator<T> {
  let waiting: Promise<IteratorResult<T>> | null = changes.next(); // subscribes now, if not yet
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
