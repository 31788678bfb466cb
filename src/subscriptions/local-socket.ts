import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { frames } from './frames.js';
import type { FrameSink } from './graphql-ws-framed.js';

/** Bytes a connection may have waiting to be sent before sends wait for the network. */
export const sendHighWater = 256 * 1024;
/** Milliseconds between pings; a connection that does not answer within the next is dropped. */
export const keepAliveMs = 12_000;

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
    write: (parts, lengths, bytes) => void raw.write(frames(parts, lengths, bytes)),
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
