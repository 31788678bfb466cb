import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  createSourceEventStream,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { withErrorCodes } from '../auth/hub-security.js';
import type { Principal } from '../auth/tokens.js';
import { ErrorCode, HubError } from '../errors.js';
import { SessionEventStream } from '../events/session-events.js';
import type { Logger } from '../log.js';
import { bearerSecret, type AccessGate, type ConnectionCounter } from './access-gate.js';
import { runSelection } from './compiled-selection.js';
import { masked } from './masked-error.js';

/** yoga's enveloped execute (with its plugins), and the key of the operation, in rootValue. */
interface Root {
  readonly execute: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
  /** The operation and its variables: subscribers with the same key get the same result. */
  readonly key: string;
  /** The subscription's id, which each of its `next` messages names. */
  readonly id: string;
  readonly outbox: Outbox;
  readonly log: Logger;
}

/** The same error's JSON, without what yoga keeps for itself (`unexpected`, `http`). */
function maskedJson(error: GraphQLError, log: Logger): GraphQLFormattedError {
  const json = masked(error, log).toJSON();
  if (!json.extensions || !('unexpected' in json.extensions || 'http' in json.extensions)) {
    return json;
  }
  const { unexpected: _, http: __, ...extensions } = json.extensions;
  return { ...json, extensions };
}

/** A result whose errors a client may see. */
function maskedResult(result: ExecutionResult, log: Logger): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((error) => masked(error, log));
  return errors.every((error, i) => error === result.errors![i]) ? result : { ...result, errors };
}

/**
 * One execution and one serialisation per published event and operation, shared by every
 * subscriber running the same operation with the same variables: 100 dashboards on one session
 * cost one execution and one JSON.stringify per event, not 100, and the bytes are encoded once.
 * Subscription results depend only on the event, never on the connection.
 */
const shared = new WeakMap<object, Map<string, Promise<Buffer> | Buffer>>();

/**
 * The end of a `next` message as graphql-ws writes it: the result (errors as their JSON) and
 * the message's closing brace. The message's start is the subscription's own (see Relay).
 */
function messageEnd(result: ExecutionResult, log: Logger): string {
  const errors = result.errors?.map((error) => maskedJson(error, log));
  return `${JSON.stringify(errors ? { ...result, errors } : result)}}`;
}

/**
 * The end of the event's message for the operation; with `share`, made once for all its
 * subscribers, as bytes. Unshared (a replayed event), it stays a string until the outbox writes
 * it: one object less per event.
 */
function executeShared(
  root: Root,
  args: ExecutionArgs,
  event: unknown,
  share: boolean,
): Promise<Part> | Part {
  // The selection maps one event to its result (yoga's execute would subscribe again).
  const result = () => runSelection(args, event);
  if (!share || typeof event !== 'object' || event === null) {
    const once = result();
    const end = (r: ExecutionResult) => messageEnd(r, root.log);
    return 'then' in once ? once.then(end) : end(once);
  }
  let results = shared.get(event);
  if (!results) shared.set(event, (results = new Map()));
  let end = results.get(root.key);
  if (end === undefined) {
    const once = result();
    const bytes = (r: ExecutionResult) => Buffer.from(messageEnd(r, root.log));
    results.set(root.key, (end = 'then' in once ? once.then(bytes) : bytes(once)));
  }
  return end;
}

/**
 * Sends a subscription's results itself, as graphql-ws `next` messages built from the shared
 * result and the subscription's own start of message. To graphql-ws it is a stream that yields
 * nothing and ends when its source does, so graphql-ws still sends `error` and `complete`,
 * after the last result. return() (the client's `complete`, or the connection closing) ends
 * the source at once instead of after its next event.
 */
class Relay implements AsyncIterableIterator<ExecutionResult> {
  readonly #source: AsyncIterator<unknown>;
  /** The source when it can hand over events that are already here without a wake-up each. */
  readonly #ready: SessionEventStream | null;
  readonly #root: Root;
  readonly #args: ExecutionArgs;
  readonly #start: Buffer;

  constructor(source: AsyncIterable<unknown>, root: Root, args: ExecutionArgs) {
    this.#source = source[Symbol.asyncIterator]();
    this.#ready = this.#source instanceof SessionEventStream ? this.#source : null;
    this.#root = root;
    this.#args = args;
    this.#start = Buffer.from(`{"id":${JSON.stringify(root.id)},"type":"next","payload":`);
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    for (;;) {
      const step = await this.#source.next();
      if (step.done) return { value: undefined, done: true };
      let event: unknown = step.value;
      do {
        // A replayed event is this subscriber's alone: nothing to share, and a WeakMap entry
        // per event costs the garbage collector more than the selection itself.
        let end = executeShared(this.#root, this.#args, event, !this.#ready?.replaying);
        if (typeof end === 'object' && 'then' in end) end = await end;
        const sent = this.#root.outbox.send(this.#start, end);
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

/** Bytes a connection may have waiting to be sent before sends wait for the network. */
const sendHighWater = 256 * 1024;
/** Bytes of messages waiting for the end of the turn after which they are written at once. */
const turnHighWater = 64 * 1024;
/** Seconds between pings; a connection that does not answer within the next is dropped. */
const keepAliveMs = 12_000;
/** A message's start or end: bytes, or a string encoded (UTF-8) when the message is written. */
type Part = Buffer | string;
const byteLength = (part: Part) =>
  typeof part === 'string' ? Buffer.byteLength(part) : part.length;

/** Connections with messages waiting for the end of this turn of the event loop. */
const waiting = new Set<Outbox>();

function flushAll(): void {
  for (const outbox of waiting) outbox.flush();
  waiting.clear();
}

/** Writes a final, unmasked text frame's header for `length` bytes of data; returns its end. */
function writeFrameHeader(target: Buffer, at: number, length: number): number {
  target[at] = 0x81;
  if (length < 126) {
    target[at + 1] = length;
    return at + 2;
  }
  if (length < 0x10000) {
    target[at + 1] = 126;
    target.writeUInt16BE(length, at + 2);
    return at + 4;
  }
  target[at + 1] = 127;
  target.writeUInt32BE(Math.floor(length / 0x100000000), at + 2);
  target.writeUInt32BE(length >>> 0, at + 6);
  return at + 10;
}

const frameHeaderSize = (length: number) => (length < 126 ? 2 : length < 0x10000 ? 4 : 10);

/**
 * The sending side of one connection. The messages of one turn of the event loop are framed
 * into one buffer and leave in one write: 100 subscribers of one session cost one system call
 * per connection and turn, and no object per message. Each message is two parts (a
 * subscription's start and the result, shared by every subscriber as bytes, or one replayed
 * event's as a string), copied or encoded once, at the end of the turn. ws frames and writes control frames itself; the hub's text messages take this path
 * (no extension is negotiated, so a frame is a header and the bytes). Sends never wait for a
 * write to complete (graphql-ws' own ws binding awaits every send); they wait only when the
 * client falls behind.
 */
class Outbox {
  readonly #ws: WebSocket;
  readonly #raw: Duplex;
  /** The waiting messages, two parts each, and their lengths in bytes. */
  #parts: Part[] = [];
  #lengths: number[] = [];
  #bytes = 0;

  constructor(ws: WebSocket, raw: Duplex) {
    this.#ws = ws;
    this.#raw = raw;
  }

  /** Queues the message `head` + `body`; resolves when the client has caught up, if behind. */
  send(head: Part, body: Part = ''): Promise<void> | void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    if (this.#parts.length === 0) {
      if (waiting.size === 0) setImmediate(flushAll);
      waiting.add(this);
    }
    const length = byteLength(head) + byteLength(body);
    this.#parts.push(head, body);
    this.#lengths.push(length);
    this.#bytes += frameHeaderSize(length) + length;
    if (this.#bytes > turnHighWater) this.flush();
    if (this.#raw.writableLength + this.#bytes < sendHighWater) return;
    this.flush();
    return new Promise((resolve) => {
      const done = () => {
        this.#raw.off('drain', done).off('close', done);
        resolve();
      };
      this.#raw.on('drain', done).on('close', done);
    });
  }

  /** Writes the waiting messages, unless the connection is closing (nothing follows a close). */
  flush(): void {
    const [parts, lengths, bytes] = [this.#parts, this.#lengths, this.#bytes];
    if (parts.length === 0) return;
    [this.#parts, this.#lengths, this.#bytes] = [[], [], 0];
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    const frames = Buffer.allocUnsafe(bytes);
    const put = (part: Part, at: number) =>
      typeof part === 'string' ? frames.write(part, at) : part.copy(frames, at);
    let at = 0;
    for (let i = 0; i < lengths.length; i++) {
      at = writeFrameHeader(frames, at, lengths[i]!);
      at += put(parts[2 * i]!, at);
      at += put(parts[2 * i + 1]!, at);
    }
    this.#raw.write(frames);
  }
}

/**
 * Close codes of the hub's own, outside the ones graphql-ws reserves (4004, 4005, 4400-4504):
 * its clients take those for graphql-ws' meanings, and give up for good on some (4429 is its
 * TooManyInitialisationRequests).
 */
export const HubCloseCode = {
  /** The token holds --max-connections already: a client retries, as after any other close. */
  TooManyConnections: 4029,
} as const;

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
 * when missing or unknown, 4029 over --max-connections); each field checks the caller's scope
 * as it resolves or subscribes, as over HTTP.
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
      if (refusal && !refusal.ok) done(false, refusal.error.httpStatus, refusal.error.message);
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
          HubCloseCode.TooManyConnections,
          `token "${principal.name}" has too many connections`,
        );
        return false;
      }
      ctx.extra.principal = principal;
      ctx.extra.release = release;
      return true;
    },
    // yoga's enveloped execute masks its results itself: only what bypasses it is masked here.
    execute: (args) => (args.rootValue as Root).execute(args as ExecutionArgs),
    // An error a subscription's source throws, or one refusing an operation.
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => maskedJson(error, limits.log)),
    subscribe: async (args) => {
      const source = await createSourceEventStream({
        ...(args as ExecutionArgs),
        rootValue: undefined,
      });
      if (!(Symbol.asyncIterator in source))
        return maskedResult(withErrorCodes(source as ExecutionResult), limits.log);
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
          log: limits.log,
        } satisfies Root,
      };
      const errors = enveloped.validate(args.schema, args.document);
      // Each field checks the principal's scope itself as it resolves or subscribes.
      return errors.length > 0 ? errors : args;
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
        close: (code, reason) => {
          outbox.flush();
          socket.close(code, reason);
        },
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
