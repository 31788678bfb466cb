/** A message's start or end: bytes, or a string encoded (UTF-8) when the message is written. */
export type Part = Buffer | string;

export const byteLength = (part: Part) =>
  typeof part === 'string' ? Buffer.byteLength(part) : part.length;

export const frameHeaderSize = (length: number) => (length < 126 ? 2 : length < 0x10000 ? 4 : 10);

/**
 * Messages as WebSocket frames in one buffer: final, unmasked text frames. Message `i` is
 * `parts[2i]` then `parts[2i + 1]`, `lengths[i]` bytes; `bytes` is the frames' total. A message
 * whose `deflated[i]` is true is compressed already (permessage-deflate, see deflated.ts) and
 * is marked so (RSV1); the others are sent as they are.
 */
export function frames(
  parts: readonly Part[],
  lengths: readonly number[],
  bytes: number,
  deflated: readonly boolean[] | null = null,
): Buffer {
  const target = Buffer.allocUnsafe(bytes);
  let offset = 0;
  for (let i = 0; i < lengths.length; i++) {
    const length = lengths[i]!;
    target[offset] = deflated?.[i] ? 0xc1 : 0x81;
    if (length < 126) {
      target[offset + 1] = length;
      offset += 2;
    } else if (length < 0x10000) {
      target[offset + 1] = 126;
      target.writeUInt16BE(length, offset + 2);
      offset += 4;
    } else {
      target[offset + 1] = 127;
      target.writeUInt32BE(Math.floor(length / 0x100000000), offset + 2);
      target.writeUInt32BE(length >>> 0, offset + 6);
      offset += 10;
    }
    for (let j = 2 * i; j < 2 * i + 2; j++) {
      const part = parts[j]!;
      offset += typeof part === 'string' ? target.write(part, offset) : part.copy(target, offset);
    }
  }
  return target;
}
