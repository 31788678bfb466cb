import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { BusListener } from '../events/event-bus.js';
import type { Logger } from '../log.js';
import { eventsOf, type RedisEventLog } from './redis-event-log.js';
import { whenReady } from './redis-connection.js';
import { entryId, seqOf, type RedisKeys } from './redis-keys.js';

type ReadReply = [key: string, entries: [id: string, fields: string[]][]][] | null;

/**
 * Live events of sessions that run on other nodes, for the listeners on this one: a single
 * blocking XREAD on its own connection follows every stream that has a listener here, from
 * where each was joined, so a stream's events arrive in seq order with none skipped. The next
 * read goes out as soon as a reply is in, while that reply waits for `settle` before it is
 * handed over: done in turn, the events written meanwhile waited for the settle's round trip too.
 */
export class StreamWatcher {
  readonly #blocker: Redis;
  readonly #redis: Redis;
  readonly #keys: RedisKeys;
  readonly #remote: RedisEventLog;
  readonly #log: Logger;
  readonly #settle: () => Promise<void>;
  readonly #listeners = new Map<string, Set<BusListener>>();
  /** Per watched session: the last seq handed to its listeners. */
  readonly #cursors = new Map<string, number>();
  /** Per watched session: the last seq read, handed over or not; the next read starts there. */
  readonly #read = new Map<string, number>();
  readonly #joins = new Map<string, Promise<number>>();
  /** Per stopped session: the seq of its last event, after which listeners get the end. */
  readonly #endAt = new Map<string, number>();
  #blockerId: number | null = null;
  #blocking = false;
  #keysChanged = false;
  #wake: (() => void) | null = null;
  #closed = false;
  readonly #running: Promise<void>;

  constructor(deps: {
    blocker: Redis;
    redis: Redis;
    keys: RedisKeys;
    remote: RedisEventLog;
    log: Logger;
    /** Runs before read events are handed over: what their owner announced before them is applied. */
    settle: () => Promise<void>;
  }) {
    this.#blocker = deps.blocker;
    this.#redis = deps.redis;
    this.#keys = deps.keys;
    this.#remote = deps.remote;
    this.#log = deps.log;
    this.#settle = deps.settle;
    this.#blocker.on('close', () => (this.#blockerId = null));
    this.#running = this.#run();
  }

  subscribe(sessionId: string, listener: BusListener): () => void {
    let set = this.#listeners.get(sessionId);
    if (!set) {
      this.#listeners.set(sessionId, (set = new Set()));
      this.#join(sessionId);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.#listeners.get(sessionId) !== set) return;
      this.#listeners.delete(sessionId);
      this.#cursors.delete(sessionId);
      this.#read.delete(sessionId);
      this.#joins.delete(sessionId);
      this.#endAt.delete(sessionId);
    };
  }

  /** The seq after which every event reaches the listeners subscribed before the call. */
  liveFrom(sessionId: string): Promise<number> {
    return this.#joins.get(sessionId) ?? Promise.resolve(this.#cursors.get(sessionId) ?? 0);
  }

  /** What the owner says of a session: once it is stopped, its listeners end after its last event. */
  sessionChanged(sessionId: string, stopped: boolean, lastSeq: number): void {
    if (!stopped) {
      this.#endAt.delete(sessionId);
      return;
    }
    this.#endAt.set(sessionId, lastSeq);
    this.#checkEnd(sessionId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wake?.();
    this.#blocker.disconnect();
    await this.#running;
  }

  #join(sessionId: string): void {
    const join = this.#remote.lastSeq(sessionId).then((seq) => {
      if (this.#joins.get(sessionId) === join) {
        this.#joins.delete(sessionId);
        this.#cursors.set(sessionId, seq);
        this.#read.set(sessionId, seq);
        void this.#interrupt();
      }
      return seq;
    });
    this.#joins.set(sessionId, join);
    // A failed join fails the subscribers waiting in liveFrom; they unsubscribe.
    join.catch(() => this.#joins.get(sessionId) === join && this.#listeners.delete(sessionId));
  }

  /** Makes the blocking read start again with the new set of streams. */
  async #interrupt(): Promise<void> {
    this.#keysChanged = true;
    this.#wake?.();
    for (let attempt = 0; attempt < 100 && this.#keysChanged && !this.#closed; attempt++) {
      if (this.#blocking && this.#blockerId !== null) {
        const unblocked = await this.#redis.client('UNBLOCK', this.#blockerId).catch(() => 0);
        if (unblocked === 1) return;
      }
      await sleep(2);
    }
  }

  async #run(): Promise<void> {
    // At most one reply waits to be handed over while the next is read.
    let handing: Promise<void> = Promise.resolve();
    while (!this.#closed) {
      const ids = [...this.#read.keys()];
      if (ids.length === 0) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = null;
        continue;
      }
      let reply: ReadReply;
      try {
        await whenReady(this.#blocker);
        this.#blockerId ??= (await this.#blocker.client('ID')) as number;
        this.#keysChanged = false;
        this.#blocking = true;
        reply = (await this.#blocker.xread(
          'COUNT',
          1000,
          'BLOCK',
          5000,
          'STREAMS',
          ...ids.map((id) => this.#keys.events(id)),
          ...ids.map((id) => entryId(this.#read.get(id) ?? 0)),
        )) as ReadReply;
      } catch (error) {
        if (this.#closed) break;
        this.#log.debug({ err: error }, 'stream read failed; retrying');
        await sleep(200);
        continue;
      } finally {
        this.#blocking = false;
      }
      if (!reply) continue;
      for (const [key, entries] of reply) {
        const sessionId = this.#keys.sessionOfEvents(key);
        const read = this.#read.get(sessionId);
        const last = entries.at(-1);
        if (read !== undefined && last) this.#read.set(sessionId, Math.max(read, seqOf(last[0])));
      }
      await handing;
      handing = this.#handOver(reply);
    }
    await handing;
  }

  /** Hands a reply's events to the listeners once what their owner announced before them is applied. */
  async #handOver(reply: NonNullable<ReadReply>): Promise<void> {
    await this.#settle();
    for (const [key, entries] of reply) {
      const sessionId = this.#keys.sessionOfEvents(key);
      this.#dispatch(sessionId, eventsOf(sessionId, entries));
    }
  }

  #dispatch(sessionId: string, events: ReturnType<typeof eventsOf>): void {
    let cursor = this.#cursors.get(sessionId);
    const listeners = this.#listeners.get(sessionId);
    if (cursor === undefined || !listeners) return;
    for (const event of events) {
      if (event.seq <= cursor) continue;
      cursor = event.seq;
      this.#cursors.set(sessionId, cursor);
      for (const listener of [...listeners]) listener({ kind: 'event', event });
    }
    this.#checkEnd(sessionId);
  }

  #checkEnd(sessionId: string): void {
    const end = this.#endAt.get(sessionId);
    const cursor = this.#cursors.get(sessionId);
    if (end === undefined || cursor === undefined || cursor < end) return;
    this.#endAt.delete(sessionId);
    for (const listener of [...(this.#listeners.get(sessionId) ?? [])]) listener({ kind: 'end' });
  }
}
