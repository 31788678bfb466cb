import type { Server } from 'node:http';
import { handleProtocols } from 'graphql-ws';
import { WebSocketServer } from 'ws';
import type { WsServerKind } from '../config/index.js';
import { perMessageDeflate } from './deflated.js';
import { useFramedServer } from './graphql-ws-framed.js';
import { useLibraryServer } from './graphql-ws-library.js';
import {
  hubOptions,
  type GraphqlYoga,
  type Results,
  type WebSocketLimits,
} from './graphql-ws-options.js';

/** The WebSocket side of the hub, to be closed with it. */
export interface WebSocketEndpoint {
  /** Ends every connection. */
  close(): Promise<void>;
}

/**
 * graphql-ws at yoga's endpoint, on the HTTP server; browser upgrades from other origins are
 * refused. `kind` picks the server: graphql-ws' own (`useServer`), or the hub's, which writes
 * each event's message once for all its subscribers (see docs/performance.md).
 */
export function graphqlOverWebSocket(
  server: Server,
  yoga: GraphqlYoga,
  limits: WebSocketLimits,
  kind: WsServerKind,
): WebSocketEndpoint {
  const options = (results: Results) => hubOptions(yoga, limits, results);
  const wsServer = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    handleProtocols,
    maxPayload: limits.maxMessageBytes,
    // The hub's own server compresses its large shared messages once for every reader.
    perMessageDeflate: kind === 'library' ? false : perMessageDeflate,
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
