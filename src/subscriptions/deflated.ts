import { constants, deflateRawSync } from 'node:zlib';

/**
 * A fleet feed's shared message ends of at least this many bytes go compressed to the
 * connections that negotiated permessage-deflate (RFC 7692): a dashboard's batch of session
 * changes or attention update (kilobytes of JSON, a seventh of it once compressed) is compressed
 * once for all its readers; smaller ones, whose copies cost little, go as they are.
 */
export const deflateFrom = 4096;

/** The empty stored block a sync flush ends with, which the receiver puts back (7.2.1). */
const flushTail = 4;
/** A stored block's header: its type byte and its length and the length's complement. */
const storedHeader = 5;

const deflatedEnds = new WeakMap<Buffer, Buffer>();
const storedStarts = new WeakMap<Buffer, Buffer>();

/**
 * The permessage-deflate options of the hub's WebSocket server: each message stands alone (no
 * context kept between them, so one compressed end serves every connection), and the client's
 * compressed messages do too (its inflater starts anew at each; a browser compresses every
 * message it sends, so its connection keeps one from its first).
 */
export const perMessageDeflate = {
  serverNoContextTakeover: true,
  clientNoContextTakeover: true,
  // ws compresses nothing of its own: the hub frames its messages itself (frames.ts).
  threshold: Number.MAX_SAFE_INTEGER,
} as const;

/**
 * Whether the hub may send deflated messages on a connection whose handshake answered
 * `extensions` (its Sec-WebSocket-Extensions header): permessage-deflate was agreed with the
 * full 32 KB window the hub compresses with.
 */
export function sendsDeflated(extensions: string | undefined): boolean {
  if (!extensions?.includes('permessage-deflate')) return false;
  const bits = /server_max_window_bits=(\d+)/.exec(extensions);
  return bits === null || bits[1] === '15';
}

/**
 * A shared message end as DEFLATE blocks, made once whatever the number of connections it goes
 * to: a sync flush (level 1), less its empty closing block.
 */
export function deflatedEnd(end: Buffer): Buffer {
  let deflated = deflatedEnds.get(end);
  if (!deflated) {
    const flushed = deflateRawSync(end, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
    deflated = flushed.subarray(0, flushed.length - flushTail);
    deflatedEnds.set(end, deflated);
  }
  return deflated;
}

/**
 * A subscription's start of message as a stored (uncompressed, not final) DEFLATE block, which
 * the shared end's blocks follow: one message, whose end was compressed without it. Null for a
 * start too long for one stored block (a subscription id of 64 KB): such a message goes as it is.
 */
export function storedStart(start: Buffer): Buffer | null {
  if (start.length > 0xffff) return null;
  let stored = storedStarts.get(start);
  if (!stored) {
    stored = Buffer.allocUnsafe(storedHeader + start.length);
    stored[0] = 0; // BFINAL 0, BTYPE 00: a stored block, byte-aligned.
    stored.writeUInt16LE(start.length, 1);
    stored.writeUInt16LE(~start.length & 0xffff, 3);
    start.copy(stored, storedHeader);
    storedStarts.set(start, stored);
  }
  return stored;
}
