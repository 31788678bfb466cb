import { once } from 'node:events';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { hookFleet } from '../helpers/hook-fleet.js';
import { disposeWithSuite, leftovers } from '../helpers/leftovers.js';

interface Batch {
  payload: { data: { sessionUpdateBatches: { id: string; status: string }[] } };
}

/** A dashboard's connection: what it reads, as messages and as bytes off the wire. */
async function dashboard(url: string, perMessageDeflate: boolean) {
  const ws = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate });
  leftovers.add(() => ws.terminate());
  let socket: Socket | undefined;
  ws.once('upgrade', (response) => (socket = response.socket as Socket));
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'connection_init' }));
  await once(ws, 'message');
  const messages: string[] = [];
  ws.on('message', (data) => messages.push(String(data)));
  const query =
    'subscription { sessionUpdateBatches(everyMs: 1000) { id name status model permissionMode cwd lastEventAt costUsd restartCount } }';
  ws.send(JSON.stringify({ id: 'u', type: 'subscribe', payload: { query } }));
  const before = socket!.bytesRead;
  return {
    extensions: ws.extensions,
    messages,
    /** The bytes of its messages and those off the wire since it subscribed. */
    bytes: () => ({
      messages: messages.reduce((sum, message) => sum + Buffer.byteLength(message), 0),
      wire: socket!.bytesRead - before,
    }),
  };
}

describe('large shared messages over graphql-ws', () => {
  disposeWithSuite();

  it('go compressed, made once, to clients that agreed to permessage-deflate, and as they are to others', async () => {
    const { hub, ids, playTurns } = await hookFleet(80);
    const url = hub.url.replace(/^http/, 'ws');
    const deflated = await dashboard(url, true);
    const plain = await dashboard(url, false);
    expect(deflated.extensions).toBe('permessage-deflate');
    expect(plain.extensions).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Every session prompted: its BUSY state in a batch.
    await playTurns(1);
    const busy = (messages: string[]) =>
      new Set(
        messages.flatMap((message) =>
          (JSON.parse(message) as Batch).payload.data.sessionUpdateBatches
            .filter((session) => session.status === 'BUSY')
            .map((session) => session.id),
        ),
      );
    await expect.poll(() => busy(deflated.messages).size, { timeout: 10_000 }).toBe(ids.length);
    await expect.poll(() => busy(plain.messages).size, { timeout: 10_000 }).toBe(ids.length);
    expect(deflated.messages).toEqual(plain.messages);
    // A batch of most of the fleet is past the size compressed.
    expect(Math.max(...plain.messages.map((message) => message.length))).toBeGreaterThan(8192);

    const [compressed, uncompressed] = [deflated.bytes(), plain.bytes()];
    expect(uncompressed.wire).toBeGreaterThanOrEqual(uncompressed.messages);
    expect(compressed.wire).toBeLessThan(compressed.messages / 2);
  });
});
