import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import {
  deflatedEnd,
  perMessageDeflate,
  sendsDeflated,
  storedStart,
} from '../../src/subscriptions/deflated.js';
import { byteLength, frameHeaderSize, frames, type Part } from '../../src/subscriptions/frames.js';

/** ws' own frame parser, as its client reads (ws exports it; its types do not say so). */
const { Receiver } = createRequire(import.meta.url)('ws') as {
  Receiver: new (options: { isServer: boolean }) => Writable;
};

/** The text messages a client reads from `bytes`, with ws' own parser. */
function read(bytes: Buffer): string[] {
  const messages: string[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on('message', (data: Buffer, isBinary: boolean) => {
    expect(isBinary).toBe(false);
    messages.push(String(data));
  });
  receiver.write(bytes);
  return messages;
}

/**
 * The `count` messages a ws client reads when a server with the hub's permessage-deflate
 * options writes `bytes` to its socket, as the hub's outbox does; and the extensions agreed.
 */
async function readOverWebSocket(
  bytes: Buffer,
  count: number,
  clientOptions: ConstructorParameters<typeof WebSocket>[2] = {},
): Promise<{ messages: string[]; agreed: string | undefined }> {
  const server = new WebSocketServer({ port: 0, perMessageDeflate });
  let agreed: string | undefined;
  server.on('headers', (headers) => {
    agreed = headers.find((header) => header.startsWith('Sec-WebSocket-Extensions:'));
  });
  server.on('connection', (_socket, request) => request.socket.write(bytes));
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.1:${port}`, clientOptions);
  const messages: string[] = [];
  client.on('message', (data) => messages.push(String(data)));
  client.on('error', (error) => messages.push(`error: ${error.message}`));
  try {
    await vi.waitFor(() => expect(messages.length).toBe(count));
    return { messages, agreed };
  } finally {
    client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Each message's lengths and the frames' total, as the hub's outbox counts them. */
function measure(parts: readonly Part[], messages: number): { lengths: number[]; bytes: number } {
  const lengths = Array.from(
    { length: messages },
    (_, i) => byteLength(parts[2 * i]!) + byteLength(parts[2 * i + 1]!),
  );
  return { lengths, bytes: lengths.reduce((sum, n) => sum + frameHeaderSize(n) + n, 0) };
}

describe('frames', () => {
  it('frames messages of every header size, from bytes and strings, as a client reads them', () => {
    const long = 'x'.repeat(70_000);
    const parts: Part[] = [
      Buffer.from('{"id":"1",'),
      '"short":"é"}',
      Buffer.from('{"id":"2","medium":"'),
      `${'y'.repeat(300)}"}`,
      '{"id":"3","long":"',
      Buffer.from(`${long}"}`),
    ];
    const { lengths, bytes } = measure(parts, 3);
    const framed = frames(parts, lengths, bytes);
    expect(framed.length).toBe(bytes);
    expect(read(framed)).toEqual([
      '{"id":"1","short":"é"}',
      `{"id":"2","medium":"${'y'.repeat(300)}"}`,
      `{"id":"3","long":"${long}"}`,
    ]);
  });

  it('sends a shared end compressed once after each subscription start, among plain messages', async () => {
    const sessions = Array.from({ length: 200 }, (_, i) => ({
      id: `5e551011-0000-4000-8000-${String(i).padStart(12, '0')}`,
      status: i % 3 ? 'IDLE' : 'BUSY',
      error: null,
    }));
    const end = Buffer.from(`${JSON.stringify({ data: { sessionUpdateBatches: sessions } })}}`);
    const shared = deflatedEnd(end);
    expect(deflatedEnd(end)).toBe(shared);
    expect(shared.length).toBeLessThan(end.length / 4);
    const starts = ['{"id":"a","type":"next","payload":', '{"id":"b","type":"next","payload":'];
    const parts: Part[] = [
      storedStart(Buffer.from(starts[0]!))!,
      shared,
      '{"id":"c","type":"complete"',
      '}',
      storedStart(Buffer.from(starts[1]!))!,
      shared,
    ];
    const { lengths, bytes } = measure(parts, 3);
    const framed = frames(parts, lengths, bytes, [true, false, true]);
    const { messages, agreed } = await readOverWebSocket(framed, 3);
    expect(sendsDeflated(agreed)).toBe(true);
    expect(messages).toEqual([
      `${starts[0]}${String(end)}`,
      '{"id":"c","type":"complete"}',
      `${starts[1]}${String(end)}`,
    ]);
    expect(JSON.parse(messages[2]!).payload.data.sessionUpdateBatches).toEqual(sessions);
  });

  it('keeps a start too long for one stored block out of compression', () => {
    expect(storedStart(Buffer.alloc(0x10000, 'x'))).toBeNull();
    expect(storedStart(Buffer.alloc(0xffff, 'x'))!.length).toBe(0xffff + 5);
  });

  it('compresses only where the handshake agreed to permessage-deflate with the full window', async () => {
    const plain = frames(['{"id":"a"', '}'], [10], 12);
    const offers = async (perMessageDeflate: boolean | object) =>
      (await readOverWebSocket(plain, 1, { perMessageDeflate })).agreed;
    expect(sendsDeflated(await offers(false))).toBe(false);
    expect(sendsDeflated(await offers({ serverMaxWindowBits: 10 }))).toBe(false);
    expect(sendsDeflated(await offers({ serverMaxWindowBits: 15 }))).toBe(true);
    expect(sendsDeflated(undefined)).toBe(false);
    expect(sendsDeflated('Sec-WebSocket-Extensions: x-webkit-deflate-frame')).toBe(false);
    const agreed = 'Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover';
    expect(sendsDeflated(agreed)).toBe(true);
    expect(sendsDeflated(`${agreed}; server_max_window_bits=15`)).toBe(true);
    expect(sendsDeflated(`${agreed}; server_max_window_bits=10`)).toBe(false);
  });
});
