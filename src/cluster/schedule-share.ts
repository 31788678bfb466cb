import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { ScheduleRecord } from '../schedules/schedule.js';
import type { ScheduleChange, Scheduler, TickClaims } from '../schedules/scheduler.js';
import { connectRedis } from './redis-connection.js';
import { RedisKeys } from './redis-keys.js';
import { RedisTickClaims } from './tick-claims.js';

/** A change as it goes over the channel: who made it, so its maker does not apply it again. */
interface SharedChange {
  readonly node: string;
  readonly change: ScheduleChange;
}

type Book = Pick<Scheduler, 'list' | 'applyShared'>;

/**
 * Scheduled prompts are the cluster's, not a node's: they live in one Redis hash, every node
 * arms every schedule, and each tick is fired by the one node that claims it (RedisTickClaims).
 * The first node of a cluster that never had schedules gives it its own; a node that joins later
 * takes the cluster's in place of its own (keeping them in its store). A schedule made, deleted
 * or run here is written to the hash and announced; the other nodes apply it. A change that
 * cannot be written while Redis is away is logged and stays this node's.
 */
export class ScheduleShare implements TickClaims {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #keys: RedisKeys;
  readonly #self: string;
  readonly #log: Logger;
  readonly #claims: RedisTickClaims;
  #book: Book | null = null;

  /** Connects to Redis (two connections: commands and the channel). */
  static async connect(options: {
    redisUrl: string;
    redisPrefix: string;
    nodeName: string;
    log: Logger;
  }): Promise<ScheduleShare> {
    const name = (role: string) => `claude-hub:${options.nodeName}:schedules-${role}`;
    const redis = await connectRedis(options.redisUrl, name('commands'));
    try {
      const subscriber = await connectRedis(options.redisUrl, name('changes'));
      return new ScheduleShare(redis, subscriber, new RedisKeys(options.redisPrefix), options);
    } catch (error) {
      redis.disconnect();
      throw error;
    }
  }

  private constructor(
    redis: Redis,
    subscriber: Redis,
    keys: RedisKeys,
    options: { nodeName: string; log: Logger },
  ) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#keys = keys;
    this.#self = options.nodeName;
    this.#log = options.log;
    this.#claims = new RedisTickClaims(redis, keys, options.nodeName);
  }

  claim(scheduleId: string, tickAt: number): Promise<boolean> {
    return this.#claims.claim(scheduleId, tickAt);
  }

  /** Follows the other nodes' changes, then takes the cluster's schedules (or gives it these). */
  async start(book: Book): Promise<void> {
    this.#book = book;
    this.#subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.#keys.scheduleChanges) this.#received(text);
    });
    await this.#subscriber.subscribe(this.#keys.scheduleChanges);
    const first = (await this.#redis.set(this.#keys.schedulesShared, this.#self, 'NX')) === 'OK';
    if (first) {
      for (const record of book.list()) this.changed({ kind: 'put', record });
      return;
    }
    const stored = await this.#redis.hgetall(this.#keys.schedules);
    const cluster = new Map(
      Object.entries(stored).map(([id, json]) => [id, JSON.parse(json) as ScheduleRecord]),
    );
    for (const record of book.list())
      if (!cluster.has(record.id)) book.applyShared({ kind: 'delete', id: record.id });
    for (const record of cluster.values()) book.applyShared({ kind: 'put', record });
  }

  /** Writes a change made here to the hash and announces it, in one transaction. */
  changed(change: ScheduleChange): void {
    const message = JSON.stringify({ node: this.#self, change } satisfies SharedChange);
    const write = this.#redis.multi();
    if (change.kind === 'put')
      write.hset(this.#keys.schedules, change.record.id, JSON.stringify(change.record));
    else write.hdel(this.#keys.schedules, change.id);
    write
      .publish(this.#keys.scheduleChanges, message)
      .exec()
      .catch((error: unknown) =>
        this.#log.warn({ err: error }, 'schedule change not shared: it stays this node’s'),
      );
  }

  #received(text: string): void {
    let shared: SharedChange;
    try {
      shared = JSON.parse(text) as SharedChange;
    } catch {
      return;
    }
    if (shared.node !== this.#self) this.#book?.applyShared(shared.change);
  }

  close(): void {
    this.#redis.disconnect();
    this.#subscriber.disconnect();
  }
}
