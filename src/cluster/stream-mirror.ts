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

  /**
   * Every session with new events goes in one pipeline per round trip: one round trip per
   * session, awaited in turn, let a node with hundreds of busy sessions fall seconds behind.
   */
  async #pump(): Promise<void> {
    while (this.#dirty.size > 0) {
      const sessionIds = [...this.#dirty];
      this.#dirty.clear();
      let failed: string[];
      try {
        failed = await this.#copy(sessionIds);
      } catch (error) {
        failed = sessionIds;
        this.#log.warn(
          { sessions: sessionIds.length, err: error },
          'events not copied to Redis yet',
        );
      }
      // Copied again from its stream's last entry: next round while Redis answers, else after
      // the resync that follows its return.
      for (const sessionId of failed) {
        this.#dirty.add(sessionId);
        this.#copied.delete(sessionId);
      }
      if (failed.length > 0 && this.#redis.status !== 'ready') return;
    }
  }

  /**
   * Copies up to a batch of events of the sessions, in one pipeline; a session left with more
   * goes back to the dirty set for the next round. Returns the sessions whose copy failed.
   */
  async #copy(sessionIds: readonly string[]): Promise<string[]> {
    const after = new Map(sessionIds.map((sessionId) => [sessionId, this.#copied.get(sessionId)]));
    const unknown = sessionIds.filter((sessionId) => after.get(sessionId) === undefined);
    const found = await this.#remote.lastSeqs(unknown);
    unknown.forEach((sessionId, i) => after.set(sessionId, found[i]!));
    const trim = this.#options.maxLength > 0 ? ['MAXLEN', '~', this.#options.maxLength] : [];
    const pipeline = this.#redis.pipeline();
    const copies: { sessionId: string; commands: number; last: number }[] = [];
    let room = this.#options.batch;
    for (const sessionId of sessionIds) {
      if (room === 0) {
        this.#dirty.add(sessionId);
        continue;
      }
      const events = await this.#local.read(sessionId, {
        after: after.get(sessionId)!,
        limit: room,
      });
      if (events.length === 0) continue;
      const key = this.#keys.events(sessionId);
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
      copies.push({ sessionId, commands: events.length, last: events[events.length - 1]!.seq });
      room -= events.length;
      if (room === 0) this.#dirty.add(sessionId);
    }
    if (copies.length === 0) return [];
    this.#before();
    const results = (await pipeline.exec()) ?? [];
    const failed: string[] = [];
    let at = 0;
    for (const { sessionId, commands, last } of copies) {
      const errors = results.slice(at, (at += commands)).map(([error]) => error);
      // An entry already there (copied before Redis restarted with its data) is no failure.
      const error = errors.find((found) => found && !/equal or smaller/.test(found.message));
      if (error || errors.length < commands) {
        failed.push(sessionId);
        this.#log.warn({ sessionId, err: error }, 'events not copied to Redis yet');
      } else {
        this.#copied.set(sessionId, last);
      }
    }
    return failed;
  }
}
