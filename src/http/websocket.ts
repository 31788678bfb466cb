import type { IncomingMessage, Server } from 'node:http';
import {
  createSourceEventStream,
  execute,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { withErrorCodes } from '../auth/guard-plugin.js';
import { authorize } from '../auth/operation-scope.js';
import type { Principal } from '../auth/tokens.js';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import { bearerSecret, type AccessGate, type ConnectionCounter } from './access-gate.js';

/** yoga's enveloped execute (with its plugins), and the key of the operation, in rootValue. */
interface Root {
  readonly execute: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
  /** The operation and its variables: subscribers with the same key get the same result. */
  readonly key: string;
}

/**
 * One execution per published event and operation, shared by every subscriber running the same
 * operation with the same variables: 100 dashboards on one session cost one execution per event,
 * not 100. Subscription results depend only on the event, never on the connection.
 */
const shared = new WeakMap<object, Map<string, Promise<ExecutionResult> | ExecutionResult>>();

function executeShared(
  root: Root,
  args: ExecutionArgs,
  event: unknown,
): Promise<ExecutionResult> | ExecutionResult {
  // graphql's own execute maps one event to its result (yoga's would subscribe again).
  if (typeof event !== 'object' || event === null) return execute({ ...args, rootValue: event });
  let results = shared.get(event);
  if (!results) shared.set(event, (results = new Map()));
  let result = results.get(root.key);
  if (!result) results.set(root.key, (result = execute({ ...args, rootValue: event })));
  return result;
}

/** The results of a source stream, shaped as the async generator graphql-ws expects. */
async function* results(
  source: AsyncIterable<unknown>,
  root: Root,
  args: ExecutionArgs,
): AsyncGenerator<ExecutionResult> {
  for await (const event of source) yield await executeShared(root, args, event);
}

/** Bytes a connection may have waiting in its send buffer before sends wait for the network. */
const sendHighWater = 1024 * 1024;
/** Seconds between pings; a connection that does not answer within the next is dropped. */
const keepAliveMs = 12_000;

/**
 * Sends without waiting for each write to complete (graphql-ws' own ws binding awaits every
 * send, one event-loop round trip per message); waits only when the client falls behind.
 */
function send(socket: WebSocket, data: string): Promise<void> | void {
  if (socket.readyState !== socket.OPEN) return;
  if (socket.bufferedAmount < sendHighWater) {
    socket.send(data);
    return;
  }
  return new Promise((resolve) => socket.send(data, () => resolve()));
}

/** Close codes beyond graphql-ws' own: the token holds --max-connections already. */
export const tooManyConnections = 4429;

export interface WebSocketLimits {
  readonly gate: AccessGate;
  readonly connections: ConnectionCounter;
  /** Subscriptions one connection may run at once. */
  readonly maxSubscriptions: number;
  readonly log: Logger;
}

interface Extra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  principal?: Principal;
  release?: () => void;
}

/**
 * The token of a connection: `authorization: "Bearer <token>"` (or `token: "<token>"`) in
 * connectionParams, or the Authorization header of the upgrade request.
 */
function connectionAuthorization(
  params: Record<string, unknown> | undefined,
  request: IncomingMessage,
) {
  const given = params?.authorization ?? params?.Authorization;
  if (given !== undefined) return given;
  if (typeof params?.token === 'string') return `Bearer ${params.token}`;
  return request.headers.authorization;
}

/**
 * graphql-ws on the HTTP server at yoga's endpoint, with yoga's plugins (envelop). Browser
 * upgrades from other origins are refused; the token is checked at connection_init (4403
 * when missing or unknown, 4429 over --max-connections), and each operation's root fields
 * against its scope.
 */
export function graphqlOverWebSocket<T extends object, U extends object>(
  server: Server,
  yoga: YogaServerInstance<T, U>,
  limits: WebSocketLimits,
): WebSocketServer {
  const wsServer = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    handleProtocols,
    verifyClient: ({ req }, done) => {
      const refusal = limits.gate.browserRefusal(req.headers);
      if (refusal && !refusal.ok) done(false, refusal.status, refusal.error);
      else done(true);
    },
  });
  const options: ServerOptions<Record<string, unknown>, Extra> = {
    onConnect: (ctx) => {
      const authorization = connectionAuthorization(ctx.connectionParams, ctx.extra.request);
      const principal = limits.gate.authenticate(authorization);
      if (!principal) {
        const reason =
          bearerSecret(authorization) === undefined ? 'missing token' : 'unknown token';
        ctx.extra.socket.close(CloseCode.Forbidden, reason);
        return false;
      }
      const release = limits.connections.acquire(principal.name);
      if (!release) {
        ctx.extra.socket.close(
          tooManyConnections,
          `token "${principal.name}" has too many connections`,
        );
        return false;
      }
      ctx.extra.principal = principal;
      ctx.extra.release = release;
      return true;
    },
    execute: (args) => (args.rootValue as Root).execute(args as ExecutionArgs),
    subscribe: async (args) => {
      const source = await createSourceEventStream({
        ...(args as ExecutionArgs),
        rootValue: undefined,
      });
      if (!(Symbol.asyncIterator in source)) return withErrorCodes(source as ExecutionResult);
      return results(source, args.rootValue as Root, args as ExecutionArgs);
    },
    onSubscribe: async (ctx, _id, params) => {
      if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptions) {
        return [
          new HubError(
            ErrorCode.TooManySubscriptions,
            `this connection runs ${limits.maxSubscriptions} subscriptions already; complete one first`,
          ),
        ];
      }
      const enveloped = yoga.getEnveloped({
        ...ctx,
        req: ctx.extra.request,
        socket: ctx.extra.socket,
        principal: ctx.extra.principal,
        params,
      });
      let document: DocumentNode;
      try {
        document = enveloped.parse(params.query);
      } catch (error) {
        return [
          error instanceof GraphQLError ? error : new GraphQLError('the query cannot be parsed'),
        ];
      }
      const args = {
        schema: enveloped.schema,
        operationName: params.operationName,
        document,
        variableValues: params.variables,
        contextValue: await enveloped.contextFactory(),
        rootValue: {
          execute: enveloped.execute,
          key: `${params.operationName ?? ''}\0${params.query}\0${JSON.stringify(params.variables ?? {})}`,
        } satisfies Root,
      };
      const errors = enveloped.validate(args.schema, args.document);
      if (errors.length > 0) return errors;
      const refusal = authorize(ctx.extra.principal!, args.document, params.operationName);
      return refusal ? [refusal] : args;
    },
  };
  const protocol = makeServer(options);
  wsServer.on('connection', (socket, request) => {
    const extra: Extra = { socket, request };
    let alive = true;
    socket.on('pong', () => (alive = true));
    const ping = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, keepAliveMs);
    const closed = protocol.opened(
      {
        protocol: socket.protocol,
        send: (data) => send(socket, data),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', (data) => {
            handle(String(data)).catch((error: unknown) => {
              // graphql-ws throws for a message type a client must not send (next, error...).
              const message = (error as Error).message;
              if (/^Unexpected message of type/.test(message)) {
                socket.close(CloseCode.BadRequest, message.slice(0, 120));
              } else {
                limits.log.error({ err: error }, 'graphql-ws message failed');
                socket.close(CloseCode.InternalServerError, 'Internal server error');
              }
            });
          }),
      },
      extra,
    );
    socket.once('error', () => socket.terminate());
    socket.once('close', (code, reason) => {
      clearInterval(ping);
      extra.release?.();
      void closed(code, String(reason));
    });
  });
  return wsServer;
}
