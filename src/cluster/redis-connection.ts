import { Redis } from 'ioredis';

/** The URL without its password, for messages. */
export function shownRedisUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * Connects to Redis and resolves once it answers, or rejects with a clear error. Commands fail
 * at once while the connection is down (no offline queue): every caller has its own way to
 * catch up when Redis is back, and none may wait on a queue that grows without bound.
 */
export async function connectRedis(url: string, name: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
  });
  // Connection errors show in readiness and in what fails; keep ioredis' own reports quiet.
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => (lastError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const cause = lastError ?? (error as Error);
    throw new Error(`cannot reach Redis at ${shownRedisUrl(url)}: ${cause.message}`, { cause });
  }
  return redis;
}

/** Resolves once the connection is ready (at once when it is). */
export function whenReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}
