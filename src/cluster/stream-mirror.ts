import type { Redis } from 'ioredis';
import type { EventLog } from '../events/event-log.js';
import type { Logger } from '../log.js';
import { entryFields, type RedisEventLog } from './redis-event-log.js';
import { entryId, type RedisKeys } from './redis-keys.js';

export interface StreamMirrorOptions {
  /** Events copied per round trip. */
  readonly batch: number;
  /** Entries a stream keeps (approximately); 0 keeps all. */
  readonly maxLength: number;
}

/**
 * Copies this node's event logs into Redis streams, in seq order, for the other nodes to read.
 * The local log is the spool: appends never wait for Redis, and when Redis is back (even empty,
 * after a restart that lost its data) each stream is topped up from its last entry.
 */
export class StreamMirror {
  readonly #redis: Redis;
  readonly #keys: RedisKeys;
  readonly #local: EventLog;
  readonly #remote: RedisEventLog;
  readonly #options: StreamMirrorOptions;
  readonly #log: Logger;
  readonly #before: () => void;
  /** Per session: the highest seq known to be in its stream. */
  readonly #copied = new Map<string, number>();
  readonly #dirty = new Set<string>();
  #pumping: Promise<void> | null = null;

  constructor(
    deps: {
      redis: Redis;
      keys: RedisKeys;
      local: EventLog;
      remote: RedisEventLog;
      log: Logger;
      /** Runs right before events are sent: what it sends on the same connection goes first. */
      before: () => void;
    },
    options: StreamMirrorOptions,
  ) {
    this.#redis = deps.redis;
    this.#keys = deps.keys;
    this.#local = deps.local;
    this.#remote = deps.remote;
    this.#log = deps.log;
    this.#before = deps.before;
    this.#options = options;
  }

  /** The session has new events to copy. */
  touch(sessionId: string): void {
    this.#dirty.add(sessionId);
    this.#schedule();
  }

  /** After Redis came back: what its streams hold is unknown, so each is checked again. */
  resync(sessionIds: Iterable<string>): void {
    this.#copied.clear();
    for (const id of sessionIds) this.#dirty.add(id);
    this.#schedule();
  }

  /** Sessions with events not yet in Redis. */
  get behind(): number {
    return this.#dirty.size;
  }

  /** Resolves once everything appended so far is in Redis (or Redis failed meanwhile). */
  async drained(): Promise<void> {
    while (this.#pumping) await this.#pumping;
  }

  #schedule(): void {
    if (this.#pumping || this.#redis.status !== 'ready') return;
    this.#pumping = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#pump())
      .finally(() => {
        this.#pumping = null;
        if (this.#dirty.size > 0) this.#schedule();
      });
  }

  async #pump(): Promise<void> {
    while (this.#dirty.size > 0) {
      for (const sessionId of [...this.#dirty]) {
        this.#dirty.delete(sessionId);
        try {
          await this.#copy(sessionId);
        } catch (error) {
          // Redis went away: the rest waits for the resync that follows its return.
          this.#dirty.add(sessionId);
          this.#copied.delete(sessionId);
          this.#log.warn({ sessionId, err: error }, 'events not copied to Redis yet');
          if (this.#redis.status !== 'ready') return;
        }
      }
    }
  }

  async #copy(sessionId: string): Promise<void> {
    let copied = this.#copied.get(sessionId) ?? (await this.#remote.lastSeq(sessionId));
    const key = this.#keys.events(sessionId);
    const trim = this.#options.maxLength > 0 ? ['MAXLEN', '~', this.#options.maxLength] : [];
    for (;;) {
      const events = await this.#local.read(sessionId, {
        after: copied,
        limit: this.#options.batch,
      });
      if (events.length === 0) break;
      const pipeline = this.#redis.pipeline();
      for (const event of events) {
        pipeline.xadd(
          key,
          ...(trim as ['MAXLEN', '~', number]),
          entryId(event.seq),
          entryFields.name,
          event.eventName,
          entryFields.receivedAt,
          event.receivedAt,
          entryFields.raw,
          event.raw,
        );
      }
      this.#before();
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([error]) => error && !/equal or smaller/.test(error.message));
      if (failed) throw failed[0];
      copied = events[events.length - 1]!.seq;
      this.#copied.set(sessionId, copied);
      if (events.length < this.#options.batch) break;
    }
  }
}
