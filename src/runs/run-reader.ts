import { ErrorCode, HubError } from '../errors.js';
import type { StoredEvent } from '../events/hook-event.js';
import { SubscriberQueue } from '../events/subscriber-queue.js';
import type { Action } from './action.js';
import { RunFold, type Turn } from './run-fold.js';

/** Where runs are read from: a hub, local or a cluster's. */
export interface RunSource {
  sessionEvents(sessionId: string, after: number | null): AsyncIterable<StoredEvent>;
  list(): readonly { readonly id: string }[];
  /** Sessions as they change; a new one appears here first. */
  sessionUpdates(): AsyncIterator<{ readonly id: string }>;
}

/** A session's events, stored then live, with no gap and no duplicate (sessionEvents). */
export type EventStream = (sessionId: string, after: number | null) => AsyncIterable<StoredEvent>;

/**
 * The items a fold makes of each event of a stream. Its return() ends the stream at once, not
 * after the next event (an async generator would wait for one, and a quiet session has none).
 */
class Folded<T> implements AsyncIterableIterator<T> {
  readonly #events: AsyncIterator<StoredEvent>;
  readonly #fold: (event: StoredEvent) => Iterable<T>;
  #ready: T[] = [];

  constructor(events: AsyncIterable<StoredEvent>, fold: (event: StoredEvent) => Iterable<T>) {
    this.#events = events[Symbol.asyncIterator]();
    this.#fold = fold;
  }

  async next(): Promise<IteratorResult<T>> {
    while (this.#ready.length === 0) {
      const step = await this.#events.next();
      if (step.done) return { value: undefined, done: true };
      this.#ready = [...this.#fold(step.value)];
    }
    return { value: this.#ready.shift()!, done: false };
  }

  async return(): Promise<IteratorResult<T>> {
    await this.#events.return?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Every phase of every action with an event seq greater than `after`, stored then live. */
export function sessionActions(
  stream: EventStream,
  sessionId: string,
  after: number,
): AsyncIterableIterator<Action> {
  // Each phase goes out with its detail; the fold keeps none of a completed one.
  const fold = new RunFold(sessionId, { details: 'phases' });
  return new Folded(stream(sessionId, 0), (event) =>
    fold.apply(event).actions.filter((action) => action.seq > after),
  );
}

/** The session's turns as they complete, those completed after `afterMs` first. */
export function completedTurns(
  stream: EventStream,
  sessionId: string,
  afterMs: number,
): AsyncIterableIterator<Turn> {
  const fold = new RunFold(sessionId);
  return new Folded(stream(sessionId, 0), (event) => {
    const { completed } = fold.apply(event);
    return completed && completed.completedAt! > afterMs ? [completed] : [];
  });
}

/** Completed turns a slow subscriber of every session's may fall behind before it is dropped. */
export const turnBuffer = 1000;

/**
 * The turns of every session as they complete, sessions created later included (they appear
 * first in sessionUpdates): one stream per session, merged as they come, each session's in
 * order. A subscriber `limit` turns behind fails with SUBSCRIBER_TOO_SLOW.
 */
export function everyCompletedTurn(
  source: RunSource,
  afterMs: number,
  limit = turnBuffer,
): AsyncIterableIterator<Turn> {
  const stream: EventStream = (id, after) => source.sessionEvents(id, after);
  const queue = new SubscriberQueue<Turn | Error>(
    limit,
    () =>
      new HubError(
        ErrorCode.SubscriberTooSlow,
        `subscriber fell more than ${limit} turns behind; subscribe again with after`,
      ),
  );
  const watching = new Map<string, AsyncIterableIterator<Turn>>();
  const pump = async <T>(items: AsyncIterator<T>, each: (item: T) => void) => {
    for (let step = await items.next(); !step.done; step = await items.next()) each(step.value);
  };
  const failed = (error: unknown) => queue.push(error as Error);
  const watch = ({ id }: { readonly id: string }) => {
    if (watching.has(id)) return;
    const turns = completedTurns(stream, id, afterMs);
    watching.set(id, turns);
    pump(turns, (turn) => queue.push(turn)).catch(failed);
  };
  source.list().forEach(watch);
  const updates = source.sessionUpdates();
  pump(updates, watch).catch(failed);
  const close = () => {
    queue.close();
    void updates.return?.();
    for (const turns of watching.values()) void turns.return?.();
  };
  return {
    async next() {
      const step = await queue.next();
      if (step.value instanceof Error) {
        close();
        throw step.value;
      }
      return step as IteratorResult<Turn>;
    },
    async return() {
      close();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * Turns as they complete, of one session or (sessionId null) of all: those completed after
 * `afterMs` first, then live. What the turns subscription and GET /turns serve.
 */
export function turnFeed(
  source: RunSource,
  sessionId: string | null,
  afterMs: number,
): AsyncIterableIterator<Turn> {
  if (sessionId === null) return everyCompletedTurn(source, afterMs);
  return completedTurns((id, after) => source.sessionEvents(id, after), sessionId, afterMs);
}
