import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
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

  it('takes the parts where `at` says, a shared one as often as it is named', () => {
    const shared = Buffer.from('"payload":{"seq":7}}');
    const parts: Part[] = ['{"id":"a",', shared, '{"id":"b",'];
    const at = [0, 1, 2, 1];
    const ordered = at.map((i) => parts[i]!);
    const { lengths, bytes } = measure(ordered, 2);
    expect(read(frames(parts, lengths, bytes, at))).toEqual([
      '{"id":"a","payload":{"seq":7}}',
      '{"id":"b","payload":{"seq":7}}',
    ]);
  });
});
