import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { handleProtocols } from 'graphql-ws';
import { WebSocketServer } from 'ws';
import type { WsServerKind } from '../config.js';
import type { HubYoga } from '../http/hub-yoga.js';
import { framedServer, useFramedServer } from './graphql-ws-framed.js';
import { useLibraryServer } from './graphql-ws-library.js';
import {
  hubOptions,
  type HubServerOptions,
  type Results,
  type WebSocketLimits,
} from './graphql-ws-options.js';
import { WriterProcess } from './writer-process.js';
import { LiveTails, type TailFeed } from './live-tails.js';

/** The WebSocket side of the hub, to be closed with it. */
export interface WebSocketEndpoint {
  /** Ends every connection. */
  close(): Promise<void>;
}

/**
 * graphql-ws at yoga's endpoint, on the HTTP server; browser upgrades from other origins are
 * refused. `kind` picks the server: graphql-ws' own (`useServer`), or the hub's, which writes
 * each event's message once for all its subscribers (see README, Performance), and `writer`
 * the hub's with the connections' sockets owned and written by a second process, which also
 * sends each caught-up subscriber its live events itself.
 */
export function graphqlOverWebSocket(
  server: Server,
  yoga: HubYoga,
  limits: WebSocketLimits,
  kind: WsServerKind,
): WebSocketEndpoint {
  const options = (results: Results) => hubOptions(yoga, limits, results);
  if (kind === 'writer') return writerEndpoint(server, yoga, limits, options);
  const wsServer = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    handleProtocols,
    maxPayload: limits.maxMessageBytes,
    verifyClient: ({ req }, done) => {
      const refusal = limits.gate.browserRefusal(req.headers);
      if (refusal && !refusal.ok) done(false, refusal.error.httpStatus, refusal.error.message);
      else done(true);
    },
  });
  const use = kind === 'library' ? useLibraryServer : useFramedServer;
  use(wsServer, options, limits);
  return {
    close: async () => {
      for (const client of wsServer.clients) client.terminate();
      await new Promise((resolve) => wsServer.close(resolve));
    },
  };
}

/**
 * The hub's server with a writer process: this process checks each upgrade (path, origin,
 * subprotocol) as ws would, and hands the socket over; subscriptions that have caught up hand
 * their live tails over too (LiveTails).
 */
function writerEndpoint(
  server: Server,
  yoga: HubYoga,
  limits: WebSocketLimits,
  options: (results: Results) => HubServerOptions,
): WebSocketEndpoint {
  const tails: LiveTails = new LiveTails((): TailFeed => writer, limits);
  const writer: WriterProcess = new WriterProcess(framedServer(options, limits, tails), limits);
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://hub').pathname !== yoga.graphqlEndpoint) {
      return refuse(socket, 400, STATUS_CODES[400]!);
    }
    const refusal = limits.gate.browserRefusal(req.headers);
    if (refusal && !refusal.ok) {
      return refuse(socket, refusal.error.httpStatus, refusal.error.message);
    }
    const offered = req.headers['sec-websocket-protocol'];
    const protocol = offered
      ? handleProtocols(new Set(offered.split(',').map((name) => name.trim())))
      : false;
    writer.upgrade(req, socket as Socket, head, protocol);
  };
  server.on('upgrade', upgrade);
  return {
    close: async () => {
      server.off('upgrade', upgrade);
      await writer.close();
    },
  };
}

/** Answers an upgrade with an HTTP error, as ws does. */
function refuse(socket: Duplex, status: number, message: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
      `Content-Type: text/html\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
  );
}
