import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHookHub, type TestHub } from '../helpers/hub.js';
import { LiveQueue } from '../helpers/live-queue.js';
import { subscribeToEvents } from '../helpers/event-subscription.js';
import { expectErrorLog } from '../helpers/unexpected-output.js';

/** The hub's WebSocket writer: the child of this process whose command line starts ws. */
function writerPid(): number | null {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
  for (const pid of children.split(' ').filter(Boolean).map(Number)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('WebSocketServer')) return pid;
    } catch {
      // It has ended since.
    }
  }
  return null;
}

describe('the WebSocket writer process (--graphql-ws-server writer)', () => {
  let hub: TestHub;
  let post: (body: Record<string, unknown>) => Promise<number>;

  beforeAll(async () => {
    ({ hub, post } = await startHookHub(['--graphql-ws-server', 'writer']));
  });

  afterAll(async () => {
    await hub?.stop();
  });

  it('is replaced when it ends: its clients see the connection lost, come back and resume with after', async () => {
    const sessionId = randomUUID();
    expect(
      await post({ session_id: sessionId, hook_event_name: 'SessionStart', cwd: '/tmp' }),
    ).toBe(200);
    const closes: number[] = [];
    const client = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      on: { closed: (event) => closes.push((event as { code: number }).code) },
    });
    const seqs = new LiveQueue<number>();
    const follow = (after: number) =>
      new Promise<void>((resolve, reject) =>
        client.subscribe<{ sessionEvents: { seq: number } }>(
          {
            query: `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq } }`,
            variables: { id: sessionId, after },
          },
          {
            next: ({ data }) => seqs.push(data!.sessionEvents.seq),
            error: reject,
            complete: resolve,
          },
        ),
      );
    try {
      const first = follow(0);
      expect(await seqs.next()).toBe(1);
      expect(await post({ session_id: sessionId, hook_event_name: 'Notification' })).toBe(200);
      expect(await seqs.next()).toBe(2);

      const pid = writerPid();
      expect(pid).not.toBeNull();
      expectErrorLog('the WebSocket writer process ended; starting another');
      process.kill(pid!, 'SIGKILL');
      await expect(first).rejects.toMatchObject({ code: 1006 });
      expect(closes).toEqual([1006]);

      // Meanwhile the hub stores what comes; the next connection goes to a new writer.
      expect(await post({ session_id: sessionId, hook_event_name: 'Notification' })).toBe(200);
      void follow(2);
      expect(await seqs.next()).toBe(3);
      expect(writerPid()).not.toBe(pid);
      expect(await post({ session_id: sessionId, hook_event_name: 'Stop' })).toBe(200);
      expect(await seqs.next()).toBe(4);
    } finally {
      await client.dispose();
    }
  });

  it("cuts the newest connection's live tails while it lags 2 MB behind the hub, and keeps the older", async () => {
    const sessionId = randomUUID();
    expect(
      await post({ session_id: sessionId, hook_event_name: 'SessionStart', cwd: '/tmp' }),
    ).toBe(200);
    const follow = () => {
      const client = createClient({
        url: hub.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      const seqs = new LiveQueue<number>();
      const ended = new Promise<unknown>((resolve) =>
        client.subscribe<{ sessionEvents: { seq: number } }>(
          {
            query: `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq payload } }`,
            variables: { id: sessionId },
          },
          {
            next: ({ data }) => seqs.push(data!.sessionEvents.seq),
            error: resolve,
            complete: () => resolve('complete'),
          },
        ),
      );
      return { client, seqs, ended };
    };
    const older = follow();
    expect(await older.seqs.next()).toBe(1);
    const newer = follow();
    expect(await newer.seqs.next()).toBe(1);
    // Both caught up: a first live event each, then their tails are the writer's.
    expect(await post({ session_id: sessionId, hook_event_name: 'Notification' })).toBe(200);
    expect([await older.seqs.next(), await newer.seqs.next()]).toEqual([2, 2]);

    const pid = writerPid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      // 2.5 MB of results the stopped writer cannot read.
      const filler = 'x'.repeat(100_000);
      for (let i = 0; i < 25; i++) {
        const body = { session_id: sessionId, hook_event_name: 'Notification', filler };
        expect(await post(body)).toBe(200);
      }
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(await newer.ended).toMatchObject([{ extensions: { code: 'SUBSCRIBER_TOO_SLOW' } }]);
    // The older connection gets every event, in order.
    const rest = await older.seqs.until((seq) => seq === 27);
    expect(rest).toEqual(Array.from({ length: 25 }, (_, i) => 3 + i));
    for (const { client } of [older, newer]) await client.dispose();
  });

  it("counts the writer's writes of live tails in the hub's delivery histogram", async () => {
    const delivered = async () => {
      const text = await (await fetch(`${hub.baseUrl}/metrics`)).text();
      const line = text
        .split('\n')
        .find((candidate) => candidate.startsWith('claude_hub_event_delivery_seconds_count '));
      return Number(line?.split(' ')[1] ?? 0);
    };
    const sessionId = randomUUID();
    expect(
      await post({ session_id: sessionId, hook_event_name: 'SessionStart', cwd: '/tmp' }),
    ).toBe(200);
    const events = subscribeToEvents(hub.url, sessionId, 0, 'seq');
    expect(await events.next()).toEqual({ seq: 1 });
    expect(await post({ session_id: sessionId, hook_event_name: 'Notification' })).toBe(200);
    expect(await events.next()).toEqual({ seq: 2 });
    const before = await delivered();
    for (let seq = 3; seq <= 7; seq++) {
      expect(await post({ session_id: sessionId, hook_event_name: 'Notification' })).toBe(200);
      expect(await events.next()).toEqual({ seq });
    }
    // The writer tells what it wrote once a second.
    await vi.waitFor(async () => expect(await delivered()).toBeGreaterThanOrEqual(before + 5), {
      timeout: 5_000,
      interval: 100,
    });
    events.dispose();
  });
});
