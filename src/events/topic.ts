import type { LatestBatches } from './latest-batches.js';
import { LatestFeed } from './latest-feed.js';
import { EndingStream, type ReadySource } from './ready-source.js';
import { SubscriberQueue } from './subscriber-queue.js';

type Listener<T> = (value: T) => void;

/** What a stream of a topic takes. */
export interface StreamOptions {
  /**
   * Conflate by the topic's key: a subscriber behind gets each key's latest value once. Without
   * `only`, such subscribers read one feed the topic keeps for them all (LatestFeed).
   */
  readonly conflate?: boolean;
  /** Only the values of this key (the topic's key). */
  readonly only?: unknown;
}

/**
 * A small in-process feed for changes of records (session updates, permission requests).
 * Subscribers that conflate by key share one feed of each key's latest value, and are never cut;
 * any other gets its own bounded queue, and one that falls `limit` items behind is failed with
 * `overflowError` and can subscribe again to get the current state.
 *
 * With `keyOf` (a record's id), a listener of one key is found by that key: a value costs the
 * listeners of other keys nothing, so a thousand subscribers of a session each cost a publish
 * one lookup, not a call each.
 */
export class Topic<T extends object> {
  readonly #listeners = new Set<Listener<T>>();
  readonly #keyed = new Map<unknown, Set<Listener<T>>>();
  readonly #keyOf: ((value: T) => unknown) | null;
  #latest: LatestFeed<T> | null = null;

  constructor(keyOf?: (value: T) => unknown) {
    this.#keyOf = keyOf ?? null;
  }

  /** Delivers a shallow copy: subscribers see the value as it was when published. */
  publish(value: T): void {
    const keyed = this.#keyed.size > 0 ? this.#keyed.get(this.#keyOf!(value)) : undefined;
    if (this.#listeners.size === 0 && keyed === undefined) return;
    const snapshot = { ...value };
    for (const listener of [...this.#listeners]) listener(snapshot);
    if (keyed) for (const listener of [...keyed]) listener(snapshot);
  }

  /** Calls `listener` with every value, or with those of the key `only` when given. */
  listen(listener: Listener<T>, only?: unknown): () => void {
    if (only === undefined) {
      this.#listeners.add(listener);
      return () => this.#listeners.delete(listener);
    }
    if (!this.#keyOf) throw new Error('a topic without a key has no listeners of one key');
    let listeners = this.#keyed.get(only);
    if (!listeners) this.#keyed.set(only, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#keyed.get(only) === listeners) this.#keyed.delete(only);
    };
  }

  /**
   * The values published from now on in batches, each key's latest once a batch, at most one
   * batch every `everyMs`; readers share one feed (LatestFeed) with the topic's conflating ones.
   */
  batches(everyMs: number): LatestBatches<T> {
    this.#latest ??= new LatestFeed(this.#keyOf ?? ((value) => value), (push) => this.listen(push));
    return this.#latest.batches(everyMs);
  }

  /** The values published from now on, as `options` say. It listens from this call on. */
  stream(
    limit: number,
    overflowError: () => Error,
    options: StreamOptions = {},
  ): EndingStream<T> & ReadySource<T> {
    const keyOf = options.conflate ? (this.#keyOf ?? undefined) : undefined;
    if (keyOf && options.only === undefined) {
      this.#latest ??= new LatestFeed(keyOf, (push) => this.listen(push));
      return this.#latest.reader();
    }
    const queue = new SubscriberQueue<T>(limit, overflowError, keyOf);
    return new TopicStream(
      queue,
      this.listen((value) => queue.push(value), options.only),
    );
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

  constructor(queue: SubscriberQueue<T>, stop: () => void) {
    super();
    this.#queue = queue;
    this.#stop = stop;
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
