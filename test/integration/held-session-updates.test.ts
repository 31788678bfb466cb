import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { hookFleet } from '../helpers/hook-fleet.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

/** How long sessionUpdates' messages may wait after a connection's write for the next. */
const holdMs = 25;

describe('sessionUpdates over graphql-ws', () => {
  disposeWithSuite();

  it('writes a connection at most once per hold, every change still delivered, the last state last', async () => {
    const { ws, playTurns } = await hookFleet(20);
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
    const elapsed = await playTurns(5);
    await expect.poll(() => updates, { timeout: 5000 }).toBe(100);
    expect(new Set(states.values())).toEqual(new Set(['BUSY']));
    expect(chunks).toBeLessThanOrEqual(Math.ceil(elapsed / holdMs) + 2);
    ws.close();
  });
});
