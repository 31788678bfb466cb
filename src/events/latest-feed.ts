import { BatchPace, batchInterval, LatestBatches } from './latest-batches.js';
import { done, EndingStream, type ReadySource } from './ready-source.js';

/** A value in the feed: the latest of its key. */
interface Entry<T> {
  readonly value: T;
  readonly key: unknown;
  readonly seq: number;
  prev: Entry<T> | null;
  next: Entry<T> | null;
  removed: boolean;
}

/** Appends between trims of what every reader has taken. */
const trimEvery = 1024;

/**
 * Each key's latest value, in the order of their last change, shared by all the readers of a
 * topic that conflate by key (the dashboards' `sessionUpdates`). A change costs one append and
 * the unlink of the key's value before it, whatever the number of readers; a reader is a place in
 * the feed (the seq of the last value it took), so it holds nothing of its own. A reader behind
 * gets each key's latest value once, in the order of their last change, as a conflating queue of
 * its own would give them (that one kept a key's first place), and is never cut for it: the feed
 * holds at most one value a key.
 */
export class LatestFeed<T> {
  readonly #keyOf: (value: T) => unknown;
  /** Starts and stops the feed's listening to its topic. */
  readonly #listen: (push: (value: T) => void) => () => void;
  readonly #byKey = new Map<unknown, Entry<T>>();
  /** Before every value, never removed. */
  readonly #head: Entry<T> = {
    value: undefined as T,
    key: undefined,
    seq: 0,
    prev: null,
    next: null,
    removed: false,
  };
  #tail = this.#head;
  #seq = 0;
  readonly #readers = new Set<{ readonly last: number }>();
  /** The ticks of the batch readers, by their interval (a few: see batchIntervals). */
  readonly #paces = new Map<number, BatchPace>();
  /** The last batch made, which the readers at the same place take too. */
  #batch: { after: number; to: number; values: readonly T[] } | null = null;
  /** The readers to wake at the next value. */
  #waiting = new Set<LatestReader<T>>();
  #stop: (() => void) | null = null;

  constructor(keyOf: (value: T) => unknown, listen: (push: (value: T) => void) => () => void) {
    this.#keyOf = keyOf;
    this.#listen = listen;
  }

  /** A reader of the values from now on. */
  reader(): LatestReader<T> {
    this.#stop ??= this.#listen((value) => this.#push(value));
    const reader = new LatestReader(this, this.#seq);
    this.#readers.add(reader);
    return reader;
  }

  /**
   * A reader of the values from now on in batches: the keys changed since its last batch, at
   * most one batch every `everyMs` (see LatestBatches).
   */
  batches(everyMs: number): LatestBatches<T> {
    this.#stop ??= this.#listen((value) => this.#push(value));
    const interval = batchInterval(everyMs);
    let pace = this.#paces.get(interval);
    if (!pace) this.#paces.set(interval, (pace = new BatchPace(interval, () => this.#seq)));
    const reader = new LatestBatches(this, pace);
    this.#readers.add(reader);
    return reader;
  }

  get tailSeq(): number {
    return this.#seq;
  }

  /** The latest values of the keys changed after seq `after` up to seq `to`, in that order. */
  batch(after: number, to: number): readonly T[] {
    const last = this.#batch;
    if (last && last.after === after && last.to === to) return last.values;
    const values: T[] = [];
    for (let entry = this.after(null, after); entry && entry.seq <= to; entry = entry.next)
      values.push(entry.value);
    this.#batch = { after, to, values };
    return values;
  }

  /** The entry after `at` (the last one a reader took, seq `last`), if any. */
  after(at: Entry<T> | null, last: number): Entry<T> | null {
    if (at !== null && !at.removed) return at.next;
    if (this.#tail.seq <= last) return null;
    let entry = this.#tail;
    while (entry.prev!.seq > last) entry = entry.prev!;
    return entry;
  }

  /** Whether there is a value past `last`. */
  hasAfter(last: number): boolean {
    return this.#tail.seq > last;
  }

  wait(reader: LatestReader<T>): void {
    this.#waiting.add(reader);
  }

  leave(reader: { readonly last: number }): void {
    this.#readers.delete(reader);
    this.#waiting.delete(reader as LatestReader<T>);
    if (this.#readers.size > 0) return;
    for (const pace of this.#paces.values()) pace.stop();
    this.#paces.clear();
    this.#stop?.();
    this.#stop = null;
    this.#batch = null;
    this.#trim(Infinity);
  }

  #push(value: T): void {
    const key = this.#keyOf(value);
    const entry: Entry<T> = {
      value,
      key,
      seq: ++this.#seq,
      prev: this.#tail,
      next: null,
      removed: false,
    };
    this.#tail.next = entry;
    this.#tail = entry;
    // Appended first, so the one it replaces is never the tail.
    const replaced = this.#byKey.get(key);
    this.#byKey.set(key, entry);
    if (replaced) this.#unlink(replaced);
    if (this.#seq % trimEvery === 0) this.#trim(this.#slowest());
    for (const pace of this.#paces.values()) pace.changed();
    if (this.#waiting.size === 0) return;
    const waiting = this.#waiting;
    this.#waiting = new Set();
    for (const reader of waiting) reader.woken();
  }

  /** The seq every reader has taken. */
  #slowest(): number {
    let slowest = Infinity;
    for (const reader of this.#readers) slowest = Math.min(slowest, reader.last);
    return slowest;
  }

  /** Lets go of the values every reader has taken, up to `upTo`. */
  #trim(upTo: number): void {
    for (let entry = this.#head.next; entry !== null && entry.seq <= upTo;) {
      const next = entry.next;
      if (this.#byKey.get(entry.key) === entry) this.#byKey.delete(entry.key);
      this.#unlink(entry);
      entry = next;
    }
  }

  /** Takes `entry` out; a reader at it finds its place again by seq. */
  #unlink(entry: Entry<T>): void {
    entry.prev!.next = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.#tail = entry.prev!;
    entry.removed = true;
    entry.prev = entry.next = null;
  }
}

/**
 * One reader of a LatestFeed: a ReadySource for the relay and an async iterator like a
 * generator. Every reader gets the same value objects, and so shares their results.
 */
export class LatestReader<T> extends EndingStream<T> implements ReadySource<T> {
  readonly #feed: LatestFeed<T>;
  /** The seq of the last value taken. */
  last: number;
  /** The entry of the last value taken, while the feed has it. */
  #at: Entry<T> | null = null;
  #wake: (() => void) | null = null;
  #ended = false;

  constructor(feed: LatestFeed<T>, from: number) {
    super();
    this.#feed = feed;
    this.last = from;
  }

  takeReady(): T | undefined {
    if (this.#ended) return undefined;
    const entry = this.#feed.after(this.#at, this.last);
    if (entry === null) return undefined;
    this.#at = entry;
    this.last = entry.seq;
    return entry.value;
  }

  wakeWhenReady(wake: () => void): boolean {
    if (this.#ended || this.#feed.hasAfter(this.last)) return false;
    this.#wake = wake;
    this.#feed.wait(this);
    return true;
  }

  /** The feed has a value past this reader's place, or the reader ended. */
  woken(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const value = this.takeReady();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.#ended) return Promise.resolve(done);
    return new Promise((resolve) =>
      this.wakeWhenReady(() => {
        const next = this.takeReady();
        resolve(next === undefined ? done : { value: next, done: false });
      }),
    );
  }

  protected end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#at = null;
    this.#feed.leave(this);
    this.woken();
  }
}
