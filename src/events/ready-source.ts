/**
 * A subscription's source that can hand over what is already here without a promise for each
 * item. The relay that sends a subscription's messages (subscriptions/graphql-ws-framed.ts)
 * takes items with takeReady() and, once none is left, asks to be woken by the next: a
 * subscriber then costs one wake-up per turn of the event loop rather than a promise (and a
 * generator step or two) per item, and its work runs within the fan-out's share of the turn.
 */
export interface ReadySource<T> {
  /** The next item if it is already here; undefined when only next() can tell. */
  takeReady(): T | undefined;
  /**
   * Calls `wake` once, when the next item or the end arrives, once takeReady() has found
   * nothing. False, and no call, when only next() can go on (the source is opening, replaying,
   * has ended or has failed).
   */
  wakeWhenReady(wake: () => void): boolean;
  /**
   * True while the items handed over come from this subscriber's own read: no other subscriber
   * holds the same objects, so there is nothing to share. Absent: never.
   */
  readonly replaying?: boolean;
  /** When a live item was received (ms since the epoch), for the fan-out's delay. */
  receivedAt?(item: T): number | undefined;
}

export function isReadySource(source: object): source is ReadySource<unknown> {
  return typeof (source as Partial<ReadySource<unknown>>).takeReady === 'function';
}

/** An iterator's end, as every stream here reports it. */
export const done: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * The ending of a stream that is an async iterator like a generator: return() and throw() end
 * it at once through `end()`, also while next() waits (which then reports the end).
 */
export abstract class EndingStream<T> implements AsyncGenerator<T, undefined> {
  abstract next(): Promise<IteratorResult<T, undefined>>;

  /** Lets go of what the stream holds; called again, does nothing. */
  protected abstract end(): void;

  return(): Promise<IteratorResult<T, undefined>> {
    this.end();
    return Promise.resolve(done);
  }

  throw(error: unknown): Promise<IteratorResult<T, undefined>> {
    this.end();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
