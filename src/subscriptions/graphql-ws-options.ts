import type { IncomingMessage } from 'node:http';
import { createSourceEventStream, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { CloseCode, type ServerOptions } from 'graphql-ws';
import type { YogaServerInstance } from 'graphql-yoga';
import type { WebSocket } from 'ws';
import { withErrorCodes } from '../auth/hub-security.js';
import { allows, type Principal } from '../auth/tokens.js';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import {
  bearerSecret,
  type AccessGate,
  type ConnectionCounter,
  type ServerContext,
} from '../auth/access-gate.js';
import { jsonNesting, maxEnvelopeNesting } from '../http/json-nesting.js';
import { masked } from './masked-error.js';

/** What graphql-ws needs of yoga: its endpoint, and its envelop for each operation. */
export type GraphqlYoga = Pick<
  YogaServerInstance<ServerContext, Record<string, unknown>>,
  'getEnveloped' | 'graphqlEndpoint'
>;

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
  /** Bytes one client message may take (--max-graphql-body): ws closes a larger one with 1009. */
  readonly maxMessageBytes: number;
  /** Subscriptions one connection may run at once. */
  readonly maxSubscriptions: number;
  /** Milliseconds of a turn of the event loop fan-out may take (the hub's server; FanoutTurns). */
  readonly fanoutBudgetMs: number;
  /** Told of the writes to subscribers (the hub's server). */
  readonly fanout?: FanoutObserver;
  readonly log: Logger;
}

/** What the hub's graphql-ws server tells of its writes to subscribers (for its metrics). */
export interface FanoutObserver {
  /** For each write of live events: the seconds since the oldest of them was received. */
  delivered(seconds: number): void;
  /** Each time a client was behind: the seconds its connection waited for it to catch up. */
  waited(seconds: number): void;
}

/** What the hub keeps on each connection, beside its socket and upgrade request. */
export interface Extra {
  /** The connection, for a close (the hub's server writes what waits first). */
  readonly socket: Pick<WebSocket, 'close'>;
  readonly request: IncomingMessage;
  principal?: Principal;
  release?: () => void;
}

/** What onSubscribe hands to execute and subscribe for one operation, as its root value. */
export interface Root {
  /** yoga's enveloped execute, with its plugins (its results come masked). */
  readonly execute: (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;
  /** The operation and its variables: subscribers with the same key share each result. */
  readonly key: string;
  /** The subscription's id on its connection. */
  readonly id: string;
  readonly extra: Extra;
}

/** The options every graphql-ws server of the hub takes. */
export type HubServerOptions = ServerOptions<Record<string, unknown>, Extra>;

/** A server's own part: a subscription's results from its source of events. */
export type Results = (
  source: AsyncIterable<unknown>,
  args: ExecutionArgs,
) => AsyncIterable<ExecutionResult>;

/** A result whose errors a client may see. */
export function maskedResult(result: ExecutionResult, log: Logger): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((error) => masked(error, log));
  return errors.every((error, i) => error === result.errors![i]) ? result : { ...result, errors };
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
 * Message types only a server sends. graphql-ws' server throws on receiving one, which a ws
 * binding reports as an internal error (4500). Made invalid as they are parsed, they are
 * refused as the protocol asks: 4400.
 */
const serverOnly = new Set(['connection_ack', 'next', 'error']);
function refuseServerMessages(key: string, value: unknown): unknown {
  if (key !== '' || typeof value !== 'object' || value === null) return value;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && serverOnly.has(type) ? { type: null } : value;
}

/**
 * The reason a client's message is refused for its nesting (past what a GraphQL body over HTTP
 * may nest, its variables a level deeper here), or null. Counted in one pass before graphql-ws'
 * JSON.parse, which would build every level of a `[[[[…` message first (a reviver runs after).
 * The servers close the connection with 4400, graphql-ws' code for a bad message.
 */
export function messageNestingRefusal(text: string): string | null {
  if (jsonNesting(text, maxEnvelopeNesting) <= maxEnvelopeNesting) return null;
  return `the message nests arrays or objects deeper than ${maxEnvelopeNesting} levels`;
}

/**
 * The hub's side of graphql-ws, the same for every server: the token checked at
 * connection_init (4403 when missing or unknown, or of a scope that cannot read, such as
 * `hook`; 4029 over --max-connections), each operation
 * parsed, validated and given its context by yoga's envelop, as yoga's example wires it, so its
 * plugins and masking apply as over HTTP; each field checks the caller's scope as it resolves
 * or subscribes. How each event becomes a result (`results`) is the server's own.
 */
export function hubOptions(
  yoga: GraphqlYoga,
  limits: WebSocketLimits,
  results: Results,
): HubServerOptions {
  return {
    jsonMessageReviver: refuseServerMessages,
    onConnect: (ctx) => {
      const authorization = connectionAuthorization(ctx.connectionParams, ctx.extra.request);
      const principal = limits.gate.authenticate(authorization);
      if (!principal) {
        const reason =
          bearerSecret(authorization) === undefined ? 'missing token' : 'unknown token';
        ctx.extra.socket.close(CloseCode.Forbidden, reason);
        return false;
      }
      // Every operation needs read at least: a hook token is refused here, as over HTTP (403).
      if (!allows(principal, 'read')) {
        ctx.extra.socket.close(
          CloseCode.Forbidden,
          `token "${principal.name}" has scope ${principal.scope}; graphql-ws needs read`,
        );
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
    onClose: (ctx) => ctx.extra.release?.(),
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
      try {
        const document = enveloped.parse(params.query);
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        const root: Root = {
          execute: enveloped.execute,
          key: `${params.operationName ?? ''}\0${params.query}\0${JSON.stringify(params.variables ?? {})}`,
          id,
          extra: ctx.extra,
        };
        return {
          schema: enveloped.schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: root,
        };
      } catch (error) {
        return [masked(error, limits.log)];
      }
    },
    execute: (args) => (args.rootValue as Root).execute(args as ExecutionArgs),
    subscribe: async (args) => {
      const source = await createSourceEventStream({
        ...(args as ExecutionArgs),
        rootValue: undefined,
      });
      if (!(Symbol.asyncIterator in source)) {
        return maskedResult(withErrorCodes(source as ExecutionResult), limits.log);
      }
      return results(source, args as ExecutionArgs);
    },
    // An error a subscription's source throws, or one refusing an operation.
    onError: (_ctx, _id, _payload, errors) =>
      errors.map((error) => masked(error, limits.log).toJSON()),
  };
}
