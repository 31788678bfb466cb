import type { Redis } from 'ioredis';
import { ErrorCode, HubError } from '../errors.js';
import type { ReadOptions } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import { entryId, seqOf, type RedisKeys } from './redis-keys.js';
import { RemoteEvent } from './remote-event.js';

type Entry = [id: string, fields: string[]];

/** Field names of a stream entry: kept short, they are stored with every event. */
export const entryFields = { name: 'n', receivedAt: 't', raw: 'r' } as const;

function eventOf(sessionId: string, [id, fields]: Entry): RemoteEvent {
  const value = (name: string) => fields[fields.indexOf(name) + 1] ?? '';
  return new RemoteEvent({
    sessionId,
    seq: seqOf(id),
    eventName: value(entryFields.name),
    receivedAt: Number(value(entryFields.receivedAt)),
    raw: value(entryFields.raw),
  });
}

export function eventsOf(sessionId: string, entries: readonly Entry[]): RemoteEvent[] {
  return entries.map((entry) => eventOf(sessionId, entry));
}

/** A Redis failure as the API reports it. */
export function clusterUnavailable(error: unknown): HubError {
  return new HubError(
    ErrorCode.ClusterUnavailable,
    `the cluster's Redis is unreachable: ${(error as Error).message}`,
  );
}

/** Reads the events of sessions that run on other nodes, from their Redis streams. */
export class RedisEventLog {
  readonly #redis: Redis;
  readonly #keys: RedisKeys;

  constructor(redis: Redis, keys: RedisKeys) {
    this.#redis = redis;
    this.#keys = keys;
  }

  async read(sessionId: string, options: ReadOptions = {}): Promise<StoredEvent[]> {
    const want = options.limit ?? Number.POSITIVE_INFINITY;
    const names = options.names ? new Set(options.names) : null;
    const events: StoredEvent[] = [];
    let after = options.after ?? 0;
    try {
      while (events.length < want) {
        const count = names ? 1000 : Math.min(want - events.length, 1000);
        const entries = (await this.#redis.xrange(
          this.#keys.events(sessionId),
          `(${entryId(after)}`,
          '+',
          'COUNT',
          count,
        )) as Entry[];
        for (const event of eventsOf(sessionId, entries)) {
          after = event.seq;
          if (!names || names.has(event.eventName)) events.push(event);
          if (events.length >= want) break;
        }
        if (entries.length < count) break;
      }
    } catch (error) {
      throw clusterUnavailable(error);
    }
    return events;
  }

  /** The highest seq in each session's stream, 0 when none, in one round trip. */
  async lastSeqs(sessionIds: readonly string[]): Promise<number[]> {
    if (sessionIds.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const sessionId of sessionIds)
      pipeline.xrevrange(this.#keys.events(sessionId), '+', '-', 'COUNT', 1);
    const results = (await pipeline.exec()) ?? [];
    return sessionIds.map((_, i) => {
      const [error, entries] = results[i] ?? [new Error('no reply')];
      if (error) throw error;
      const [last] = entries as Entry[];
      return last ? seqOf(last[0]) : 0;
    });
  }

  /** The highest seq in the session's stream, 0 when none. */
  async lastSeq(sessionId: string): Promise<number> {
    const [last] = (await this.#redis.xrevrange(
      this.#keys.events(sessionId),
      '+',
      '-',
      'COUNT',
      1,
    )) as Entry[];
    return last ? seqOf(last[0]) : 0;
  }
}
