import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookHub } from '../helpers/hook-session.js';
import type { TestHub } from '../helpers/hub.js';

/**
 * Fan-out past its share of each turn (`--fanout-budget 0`: every subscription but one waits
 * for a later turn at each event) and subscribers allowed to lag only 20 events: they fall
 * behind, are cut with SUBSCRIBER_TOO_SLOW and come back with `after`, as a client should.
 */
describe('fan-out past its budget', () => {
  let hub: TestHub;
  let post: (body: Record<string, unknown>) => Promise<number>;

  beforeAll(async () => {
    ({ hub, post } = await startHookHub(['--fanout-budget', '0', '--subscriber-buffer', '20']));
  });

  afterAll(async () => {
    await hub?.stop();
  });

  /**
   * Follows the session's events from the first until seq `last`, subscribing again with
   * `after` each time the hub cuts it; every seq it got, and how often it was cut.
   */
  async function follow(sessionId: string, last: () => number) {
    const client = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const seqs: number[] = [];
    let cuts = 0;
    try {
      while ((seqs.at(-1) ?? 0) < last()) {
        await new Promise<void>((resolve, reject) => {
          const stop = client.subscribe<{ sessionEvents: { seq: number } }>(
            {
              query: `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq } }`,
              variables: { id: sessionId, after: seqs.at(-1) ?? 0 },
            },
            {
              next: ({ data }) => {
                seqs.push(data!.sessionEvents.seq);
                if (seqs.at(-1)! >= last()) {
                  stop();
                  resolve();
                }
              },
              error: (errors) => {
                const code = (errors as { extensions?: { code?: string } }[])[0]?.extensions?.code;
                if (code !== 'SUBSCRIBER_TOO_SLOW')
                  return reject(new Error(JSON.stringify(errors)));
                cuts += 1;
                resolve();
              },
              complete: () => resolve(),
            },
          );
        });
      }
    } finally {
      await client.dispose();
    }
    return { seqs, cuts };
  }

  it('still gives every subscriber every event once, in order, and answers every hook', async () => {
    const sessionId = randomUUID();
    const start = { session_id: sessionId, hook_event_name: 'SessionStart', source: 'startup' };
    expect(await post({ ...start, cwd: '/tmp' })).toBe(200);
    const count = 300;
    let last = Infinity;
    const followers = Array.from({ length: 12 }, () => follow(sessionId, () => last));
    // Subscribed: the SessionStart (seq 1) reaches each first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) {
          const i = next++;
          statuses.push(
            await post({ session_id: sessionId, hook_event_name: 'Notification', message: `${i}` }),
          );
        }
      }),
    );
    last = count + 1;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const results = await Promise.all(followers);
    for (const { seqs } of results) {
      expect(seqs).toEqual(Array.from({ length: count + 1 }, (_, i) => i + 1));
    }
    // The subscribers did fall behind and come back.
    expect(results.reduce((sum, { cuts }) => sum + cuts, 0)).toBeGreaterThan(0);
  }, 60_000);
});
