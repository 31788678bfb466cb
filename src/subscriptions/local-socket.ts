import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { frames, type Part } from './frames.js';

/** Bytes a connection may have waiting to be sent before sends wait for the network. */
const sendHighWater = 256 * 1024;
/** Milliseconds between pings; a connection that does not answer within the next is dropped. */
const keepAliveMs = 12_000;

/** Where a connection's frames go (the hub's server's Outbox writes them here). */
export interface FrameSink {
  readonly open: boolean;
  /** True when the client is behind: `more` bytes on top of what waits would be too many. */
  behind(more: number): boolean;
  /**
   * Writes messages, two parts each, as `frames` takes them (a part may be shared; a message
   * `deflated` is compressed already).
   */
  write(
    parts: readonly Part[],
    lengths: readonly number[],
    bytes: number,
    deflated: readonly boolean[],
  ): void;
  /** Calls `done` once the client has caught up, or the connection has closed. */
  whenCaughtUp(done: () => void): void;
}

/**
 * A connection whose socket this process writes: frames go straight to the TCP socket under
 * ws (which writes its control frames itself), and a ping every `keepAliveMs` drops a client
 * that stopped answering. `stop` ends the pings, once the connection has closed.
 */
export function localSink(ws: WebSocket, raw: Duplex): { sink: FrameSink; stop: () => void } {
  let alive = true;
  ws.on('pong', () => (alive = true));
  const ping = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, keepAliveMs);
  const sink: FrameSink = {
    get open() {
      return ws.readyState === ws.OPEN;
    },
    behind: (more) => raw.writableLength + more >= sendHighWater,
    write: (parts, lengths, bytes, deflated) =>
      void raw.write(frames(parts, lengths, bytes, deflated)),
    whenCaughtUp: (done) => {
      const caughtUp = () => {
        raw.off('drain', caughtUp).off('close', caughtUp);
        done();
      };
      raw.on('drain', caughtUp).on('close', caughtUp);
    },
  };
  return { sink, stop: () => clearInterval(ping) };
}
