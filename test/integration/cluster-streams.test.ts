import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { BusMessage } from '../../src/events/event-bus.js';
import type { EventLog } from '../../src/events/event-log.js';
import type { HookPayload, StoredEvent } from '../../src/events/hook-event.js';
import { createLogger } from '../../src/log.js';
import { RedisEventLog } from '../../src/cluster/redis-event-log.js';
import { RedisKeys } from '../../src/cluster/redis-keys.js';
import { StreamMirror } from '../../src/cluster/stream-mirror.js';
import { StreamWatcher } from '../../src/cluster/stream-watcher.js';
import { leftovers } from '../helpers/leftovers.js';
import { suiteRedis } from '../helpers/suite-redis.js';

/** An owner node's log, in memory: what the mirror copies from. */
class MemoryLog implements Pick<EventLog, 'read'> {
  readonly #events = new Map<string, StoredEvent[]>();

  append(sessionId: string, count: number): void {
    const events = this.#events.get(sessionId) ?? [];
    this.#events.set(sessionId, events);
    for (let i = 0; i < count; i++) {
      const seq = events.length + 1;
      const payload = { session_id: sessionId, hook_event_name: 'PreToolUse', n: seq };
      const raw = JSON.stringify(payload);
      events.push({
        sessionId,
        seq,
        eventName: 'PreToolUse',
        receivedAt: 1_000 + seq,
        raw,
        payload: payload as unknown as HookPayload,
      });
    }
  }

  read(sessionId: string, options: { after?: number; limit?: number } = {}) {
    const after = options.after ?? 0;
    const events = (this.#events.get(sessionId) ?? []).filter((event) => event.seq > after);
    return Promise.resolve(events.slice(0, options.limit ?? events.length));
  }
}

const log = createLogger('silent');

/** A node's copying of `local`'s events to Redis, `batch` events a round. */
const mirrorTo = (redis: Redis, keys: RedisKeys, local: MemoryLog, batch: number) =>
  new StreamMirror(
    {
      redis,
      keys,
      local: local as unknown as EventLog,
      remote: new RedisEventLog(redis, keys),
      log,
      before: () => undefined,
    },
    { batch, maxLength: 0 },
  );
const sessions = Array.from({ length: 12 }, (_, i) => `session-${i}`);
const { connect } = suiteRedis();

describe('the event streams between nodes', () => {
  it('copies every session of a node in seq order, a batch across sessions per round trip', async () => {
    const redis = await connect('owner');
    const keys = new RedisKeys(`streams-${Date.now()}`);
    const local = new MemoryLog();
    // Fewer than the events of one round: the sessions left over go in the next rounds.
    const mirror = mirrorTo(redis, keys, local, 7);
    for (const [i, sessionId] of sessions.entries()) {
      local.append(sessionId, 1 + (i % 4));
      mirror.touch(sessionId);
    }
    await mirror.drained();
    for (const sessionId of sessions.slice(0, 3)) {
      local.append(sessionId, 5);
      mirror.touch(sessionId);
    }
    await mirror.drained();

    for (const [i, sessionId] of sessions.entries()) {
      const stored = await new RedisEventLog(redis, keys).read(sessionId);
      const count = 1 + (i % 4) + (i < 3 ? 5 : 0);
      expect(stored.map((event) => event.seq)).toEqual(
        Array.from({ length: count }, (_, n) => n + 1),
      );
      expect(stored.at(-1)!.payload).toMatchObject({ session_id: sessionId, n: count });
    }
    expect(mirror.behind).toBe(0);
  });

  it('hands every event of a watched stream over once, in seq order, while it is written in batches', async () => {
    const [owner, reader, blocker] = [
      await connect('owner'),
      await connect('reader'),
      await connect('blocker'),
    ];
    const keys = new RedisKeys(`watch-${Date.now()}`);
    const local = new MemoryLog();
    const mirror = mirrorTo(owner, keys, local, 3);
    let settles = 0;
    const watcher = new StreamWatcher({
      blocker,
      redis: reader,
      keys,
      remote: new RedisEventLog(reader, keys),
      log,
      // Slower than a read, so that replies wait to be handed over while the next is read.
      settle: async () => {
        settles++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    leftovers.add(() => watcher.close());
    const watched = sessions.slice(0, 4);
    const received = new Map<string, number[]>(watched.map((id) => [id, []]));
    for (const sessionId of watched) {
      watcher.subscribe(sessionId, (message: BusMessage) => {
        if (message.kind === 'event') received.get(sessionId)!.push(message.event.seq);
      });
      expect(await watcher.liveFrom(sessionId)).toBe(0);
    }

    for (let round = 0; round < 20; round++) {
      for (const sessionId of watched) {
        local.append(sessionId, 2);
        mirror.touch(sessionId);
      }
      if (round % 5 === 0) await mirror.drained();
    }
    await mirror.drained();
    await expect
      .poll(() => [...received.values()].map((seqs) => seqs.length), { timeout: 5_000 })
      .toEqual(watched.map(() => 40));
    for (const seqs of received.values())
      expect(seqs).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
    expect(settles).toBeGreaterThan(1);
  });
});
