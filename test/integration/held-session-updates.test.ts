import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHookHub } from '../helpers/hook-session.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

/** How long sessionUpdates' messages may wait after a connection's write for the next. */
const holdMs = 25;

describe('sessionUpdates over graphql-ws', () => {
  disposeWithSuite();

  it('writes a connection at most once per hold, every change still delivered, the last state last', async () => {
    const { hub, post } = await startHookHub([]);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const event = (id: string, name: string, fields: Record<string, unknown> = {}) =>
      post({ session_id: id, hook_event_name: name, cwd: '/tmp', ...fields });
    for (const id of ids) expect(await event(id, 'SessionStart', { source: 'startup' })).toBe(200);

    const ws = new WebSocket(hub.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise((resolve) => ws.once('message', resolve));
    const states = new Map<string, string>();
    let updates = 0;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        type: string;
        payload?: { data?: { sessionUpdates: { id: string; status: string } } };
      };
      const session = message.payload?.data?.sessionUpdates;
      if (message.type !== 'next' || !session) return;
      updates += 1;
      states.set(session.id, session.status);
    });
    ws.send(
      JSON.stringify({
        id: 'u',
        type: 'subscribe',
        payload: { query: 'subscription { sessionUpdates { id status } }' },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // What reaches the client's socket: each write arrives as one chunk or fewer (never more,
    // these messages being small).
    let chunks = 0;
    (ws as unknown as { _socket: Socket })._socket.on('data', () => (chunks += 1));

    // 100 changes, one after another: each turn starts, then ends, five times a session.
    const t0 = performance.now();
    for (let round = 0; round < 5; round++)
      for (const id of ids)
        await (round % 2 === 0
          ? event(id, 'UserPromptSubmit', { prompt: 'go' })
          : event(id, 'Stop', { last_assistant_message: 'done' }));
    const elapsed = performance.now() - t0;
    await expect.poll(() => updates, { timeout: 5000 }).toBe(100);
    expect(new Set(states.values())).toEqual(new Set(['BUSY']));
    expect(chunks).toBeLessThanOrEqual(Math.ceil(elapsed / holdMs) + 2);
    ws.close();
  });
});
