import type { Redis } from 'ioredis';
import { beforeAll } from 'vitest';
import { startRedis } from '../../harness/redis-server.js';
import { connectRedis } from '../../src/cluster/redis-connection.js';
import { leftovers } from './leftovers.js';

/**
 * A Redis of the suite's own, started before its tests, and `connect`, which opens a connection
 * to it (named `test:<role>`); both end with the suite.
 */
export function suiteRedis(): { connect(role: string): Promise<Redis> } {
  let url = '';
  beforeAll(async () => {
    const redis = await startRedis();
    leftovers.add(() => redis.stop());
    url = redis.url;
  });
  return {
    async connect(role) {
      const connection = await connectRedis(url, `test:${role}`);
      leftovers.add(() => connection.disconnect());
      return connection;
    },
  };
}
