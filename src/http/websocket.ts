import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  createSourceEventStream,
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
import { SessionEventStream } from '../events/session-events.js';
import type { Logger } from '../log.js';
import { bearerSecret, type AccessGate, type ConnectionCounter } from './access-gate.js';
import { runSelection } from './compiled-selection.js';

/** yoga's enveloped execute (with its plugins), and the key of the operation, in rootValue. */
interface Root {
  readonly execute: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
  /** The operation and its variables: subscribers with the same key get the same result. */
  readonly key: string;
  /** The subscription's id, which each of its `next` messages names. */
  readonly id: string;
  readonly outbox: Outbox;
}

/**
 * One execution and one serialisation per published event and operation, shared by every
 * subscriber running the same operation with the same variables: 100 dashboards on one session
 * cost one execution and one JSON.stringify per event, not 100. Subscription results depend
 * only on the event, never on the connection.
 */
const shared = new WeakMap<object, Map<string, Promise<string> | string>>();

/** A `next` message's payload as graphql-ws writes it: the result, errors as their JSON. */
function serialise(result: ExecutionResult): string {
  return JSON.stringify(result);
}

/** The result of the event for the operation; with `share`, made once for all its subscribers. */
function executeShared(
  root: Root,
  args: ExecutionArgs,
  event: unknown,
  share: boolean,
): Promise<string> | string {
  // The selection maps one event to its result (yoga's execute would subscribe again).
  const run = () => {
    const result = runSelection(args, event);
    return 'then' in result ? result.then(serialise) : serialise(result);
  };
  if (!share || typeof event !== 'object' || event === null) return run();
  let results = shared.get(event);
  if (!results) shared.set(event, (results = new Map()));
  let json = results.get(root.key);
  if (json === undefined) results.set(root.key, (json = run()));
  return json;
}

/**
 * Sends a subscription's results itself, as graphql-ws `next` messages built from the shared
 * payload and the subscription's id. To graphql-ws it is a stream that yields nothing and ends
 * when its source does, so graphql-ws still sends `error` and `complete`, after the last
 * result. return() (the client's `complete`, or the connection closing) ends the source at
 * once instead of after its next event.
 */
class Relay implements AsyncIterableIterator<ExecutionResult> {
  readonly #source: AsyncIterator<unknown>;
  /** The source when it can hand over events that are already here without a wake-up each. */
  readonly #ready: SessionEventStream | null;
  readonly #root: Root;
  readonly #args: ExecutionArgs;
  readonly #prefix: string;

  constructor(source: AsyncIterable<unknown>, root: Root, args: ExecutionArgs) {
    this.#source = source[Symbol.asyncIterator]();
    this.#ready = this.#source instanceof SessionEventStream ? this.#source : null;
    this.#root = root;
    this.#args = args;
    this.#prefix = `{"id":${JSON.stringify(root.id)},"type":"next","payload":`;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    for (;;) {
      const step = await this.#source.next();
      if (step.done) return { value: undefined, done: true };
      let event: unknown = step.value;
      do {
        // A replayed event is this subscriber's alone: nothing to share, and a WeakMap entry
        // per event costs the garbage collector more than the selection itself.
        let json = executeShared(this.#root, this.#args, event, !this.#ready?.replaying);
        if (typeof json !== 'string') json = await json;
        const sent = this.#root.outbox.send(`${this.#prefix}${json}}`);
        if (sent) await sent;
        event = this.#ready?.takeReady();
      } while (event !== undefined);
    }
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    void this.#source.return?.().catch(() => undefined);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Bytes a connection may have waiting in its send buffer before sends wait for the network. */
const sendHighWater = 1024 * 1024;
/** Bytes of corked messages after which a connection is flushed before the end of the turn. */
const corkedHighWater = 64 * 1024;
/** Seconds between pings; a connection that does not answer within the next is dropped. */
const keepAliveMs = 12_000;

/** Connections with messages corked in this turn of the event loop. */
const corked = new Set<Outbox>();

function uncorkAll(): void {
  for (const outbox of corked) outbox.flush();
  corked.clear();
}

/**
 * The sending side of one connection. Messages sent in one turn of the event loop leave in
 * one write (the socket is corked until the turn ends): 100 subscribers of one session cost
 * one system call per connection and turn, not one per message. Sends never wait for a write
 * to complete (graphql-ws' own ws binding awaits every send); they wait only when the client
 * falls behind.
 */
class Outbox {
  readonly #ws: WebSocket;
  readonly #raw: Duplex;
  #corked = false;

  constructor(ws: WebSocket, raw: Duplex) {
    this.#ws = ws;
    this.#raw = raw;
  }

  send(data: string): Promise<void> | void {
    const ws = this.#ws;
    if (ws.readyState !== ws.OPEN) return;
    if (!this.#corked) {
      this.#corked = true;
      this.#raw.cork();
      if (corked.size === 0) setImmediate(uncorkAll);
      corked.add(this);
    } else if (this.#raw.writableLength > corkedHighWater) {
      this.flush();
      this.#corked = true;
      this.#raw.cork();
    }
    if (ws.bufferedAmount < sendHighWater) {
      ws.send(data);
      return;
    }
    return new Promise((resolve) => ws.send(data, () => resolve()));
  }

  flush(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#raw.uncork();
  }
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
  readonly outbox: Outbox;
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
      return new Relay(source, args.rootValue as Root, args as ExecutionArgs);
    },
    onSubscribe: async (ctx, id, params) => {
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
          id,
          outbox: ctx.extra.outbox,
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
    const outbox = new Outbox(socket, request.socket);
    const extra: Extra = { socket, request, outbox };
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
        send: (data) => outbox.send(data),
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
