import type { IncomingMessage, Server } from 'node:http';
import {
  createSourceEventStream,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';

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

/** graphql-ws on the HTTP server at yoga's endpoint, with yoga's plugins (envelop). */
export function graphqlOverWebSocket<T extends object>(
  server: Server,
  yoga: YogaServerInstance<T, object>,
): WebSocketServer {
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint, handleProtocols });
  const options: ServerOptions<
    Record<string, unknown>,
    { socket: WebSocket; request: IncomingMessage }
  > = {
    execute: (args) => (args.rootValue as Root).execute(args as ExecutionArgs),
    subscribe: async (args) => {
      const source = await createSourceEventStream({
        ...(args as ExecutionArgs),
        rootValue: undefined,
      });
      if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
      return results(source, args.rootValue as Root, args as ExecutionArgs);
    },
    onSubscribe: async (ctx, _id, params) => {
      const enveloped = yoga.getEnveloped({
        ...ctx,
        req: ctx.extra.request,
        socket: ctx.extra.socket,
        params,
      });
      const args = {
        schema: enveloped.schema,
        operationName: params.operationName,
        document: enveloped.parse(params.query),
        variableValues: params.variables,
        contextValue: await enveloped.contextFactory(),
        rootValue: {
          execute: enveloped.execute,
          key: `${params.operationName ?? ''}\0${params.query}\0${JSON.stringify(params.variables ?? {})}`,
        } satisfies Root,
      };
      const errors = enveloped.validate(args.schema, args.document);
      return errors.length > 0 ? errors : args;
    },
  };
  const protocol = makeServer(options);
  wsServer.on('connection', (socket, request) => {
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
            handle(String(data)).catch(() =>
              socket.close(CloseCode.InternalServerError, 'Internal server error'),
            );
          }),
      },
      { socket, request },
    );
    socket.once('error', () => socket.terminate());
    socket.once('close', (code, reason) => {
      clearInterval(ping);
      void closed(code, String(reason));
    });
  });
  return wsServer;
}
