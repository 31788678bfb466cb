import { ErrorCode, HubError } from '../errors.js';
import type { ReadOptions } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import { SubscriberQueue } from '../events/subscriber-queue.js';
import type { Action } from './action.js';
import { foldTurns, RunFold, runEventNames, type Turn } from './run-fold.js';

/** Where runs are read from: a hub, local or a cluster's. */
export interface RunSource {
  sessionEvents(sessionId: string, after: number | null): AsyncIterable<StoredEvent>;
  list(): readonly { readonly id: string }[];
  /** Sessions as they change; a new one appears here first. */
  sessionUpdates(): AsyncIterator<{ readonly id: string }>;
}

/** A session's stored events, as the log reads them. */
export type ReadEvents = (sessionId: string, options: ReadOptions) => Promise<StoredEvent[]>;
/** A session's events, stored then live, with no gap and no duplicate (sessionEvents). */
export type EventStream = (sessionId: string, after: number | null) => AsyncIterable<StoredEvent>;

/**
 * Runs are not stored: they are folded from the event log when asked for, so they replay and
 * survive restarts exactly as events do, on any engine behind the log.
 */
export async function sessionTurns(read: ReadEvents, sessionId: string): Promise<Turn[]> {
  return foldTurns(sessionId, await read(sessionId, { names: runEventNames }));
}

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
  const fold = new RunFold(sessionId);
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

/**
 * The turns of every session as they complete, sessions created later included: one stream per
 * session, merged as they come (each session's in order). `sessions` lists the ids known now,
 * `created` the ids of sessions as they appear.
 */
export function everyCompletedTurn(
  stream: EventStream,
  sessions: () => Iterable<string>,
  created: AsyncIterator<string>,
  afterMs: number,
  limit: number,
  overflowError: () => Error,
): AsyncIterableIterator<Turn> {
  const queue = new SubscriberQueue<Turn | Error>(limit, overflowError);
  const watching = new Map<string, AsyncIterableIterator<Turn>>();
  const pump = async <T>(items: AsyncIterator<T>, each: (item: T) => void) => {
    for (let step = await items.next(); !step.done; step = await items.next()) each(step.value);
  };
  const failed = (error: unknown) => queue.push(error as Error);
  const watch = (sessionId: string) => {
    if (watching.has(sessionId)) return;
    const turns = completedTurns(stream, sessionId, afterMs);
    watching.set(sessionId, turns);
    pump(turns, (turn) => queue.push(turn)).catch(failed);
  };
  for (const id of sessions()) watch(id);
  pump(created, watch).catch(failed);
  const close = () => {
    queue.close();
    void created.return?.();
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

/** Completed turns a slow subscriber of every session's may fall behind before it is dropped. */
const turnBuffer = 1000;

/**
 * Turns as they complete, of one session or (sessionId null) of all: those completed after
 * `afterMs` first, then live. What the turns subscription and GET /turns serve.
 */
export function turnFeed(
  source: RunSource,
  sessionId: string | null,
  afterMs: number,
): AsyncIterableIterator<Turn> {
  const stream: EventStream = (id, after) => source.sessionEvents(id, after);
  if (sessionId !== null) return completedTurns(stream, sessionId, afterMs);
  const updates = source.sessionUpdates();
  const created: AsyncIterator<string> = {
    next: async () => {
      const step = await updates.next();
      return step.done ? step : { value: step.value.id, done: false };
    },
    return: async () => {
      await updates.return?.();
      return { value: undefined, done: true };
    },
  };
  return everyCompletedTurn(
    stream,
    () => source.list().map((record) => record.id),
    created,
    afterMs,
    turnBuffer,
    () =>
      new HubError(
        ErrorCode.SubscriberTooSlow,
        `subscriber fell more than ${turnBuffer} turns behind; subscribe again with after`,
      ),
  );
}
