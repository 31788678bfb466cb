import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookHub, type TestHub } from '../helpers/hub.js';
import { LiveQueue } from '../helpers/live-queue.js';
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
});
