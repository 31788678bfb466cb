import type { Redis } from 'ioredis';
import type { TickClaims } from '../schedules/scheduler.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * How long a claimed tick's key stays: long past any clock skew between nodes, so a node that
 * reaches the tick late still finds it taken; short enough that the keys do not pile up.
 */
export const tickClaimTtlMs = 10 * 60 * 1000;

/**
 * Every node of a cluster has every schedule and arms the same ticks: the first to set the
 * tick's key (SET NX) fires it, the others leave it. Redis decides, so exactly one node wins
 * even when their clocks disagree by less than the key's life.
 */
export class RedisTickClaims implements TickClaims {
  readonly #redis: Pick<Redis, 'set'>;
  readonly #keys: RedisKeys;
  readonly #self: string;
  readonly #ttlMs: number;

  constructor(redis: Pick<Redis, 'set'>, keys: RedisKeys, self: string, ttlMs = tickClaimTtlMs) {
    this.#redis = redis;
    this.#keys = keys;
    this.#self = self;
    this.#ttlMs = ttlMs;
  }

  async claim(scheduleId: string, tickAt: number): Promise<boolean> {
    const key = this.#keys.scheduleTick(scheduleId, tickAt);
    return (await this.#redis.set(key, this.#self, 'PX', this.#ttlMs, 'NX')) === 'OK';
  }
}
