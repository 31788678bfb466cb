/**
 * The hub's public GraphQL API, same origin as the page: queries and mutations over HTTP POST,
 * every live update over one graphql-ws connection that reconnects by itself.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';

const endpoint = new URL('/graphql', location.href).href;
const tokenKey = 'claude-code-hub.token';

/** The WebSocket close code of a hub that refused the token (or its absence). */
const forbiddenCloseCode = 4403;

/** A refused or failed operation; `code` is the hub's `extensions.code` when it gave one. */
export class HubError extends Error {
  readonly code: string | undefined;
  readonly extensions: Record<string, unknown>;

  constructor(message: string, code?: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HubError';
    this.code = code;
    this.extensions = extensions;
  }
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'token needed';

export interface HubClientEvents {
  /** The live connection changed state. */
  connection(state: ConnectionState): void;
  /** The connection came back after a loss: whatever changed meanwhile was missed. */
  reconnected(): void;
  /** The hub wants a token (HTTP 401 or WebSocket close 4403). */
  unauthorized(): void;
}

export interface Sink<T> {
  next(data: T): void;
  error(error: HubError): void;
  complete?(): void;
}

/** The token typed on the page; kept for the tab only. */
export function savedToken(): string | null {
  return sessionStorage.getItem(tokenKey);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(tokenKey, token);
}

function authorization(): string | undefined {
  const token = savedToken();
  return token ? `Bearer ${token}` : undefined;
}

/** 0.5 s, 1 s, 2 s, 4 s, then every 5 s, with jitter so tabs do not all come back at once. */
async function backoff(retries: number): Promise<void> {
  const ms = Math.min(500 * 2 ** retries, 5000) + Math.random() * 300;
  await new Promise((resolve) => setTimeout(resolve, ms));
}

function formattedErrorOf(errors: readonly unknown[]): HubError {
  const first = (errors[0] ?? {}) as { message?: string; extensions?: Record<string, unknown> };
  const code = first.extensions?.code;
  return new HubError(
    first.message ?? 'unknown error',
    typeof code === 'string' ? code : undefined,
    first.extensions ?? {},
  );
}

/** graphql-ws reports GraphQL errors, close events and socket errors through the same sink. */
function hubErrorOf(error: unknown): HubError {
  if (error instanceof HubError) return error;
  if (Array.isArray(error)) return formattedErrorOf(error);
  if (error instanceof Error) return new HubError(error.message);
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code, reason } = error as { code: unknown; reason?: unknown };
    return new HubError(`connection closed (${String(code)} ${String(reason ?? '')})`, 'CLOSED');
  }
  return new HubError('connection error');
}

export class HubClient {
  readonly #events: HubClientEvents;
  readonly #ws: Client;
  #state: ConnectionState = 'connecting';

  constructor(events: HubClientEvents) {
    this.#events = events;
    this.#ws = createClient({
      url: endpoint.replace(/^http/, 'ws'),
      // A function, so a token typed after a 4403 is used by the next attempt.
      connectionParams: () => {
        const value = authorization();
        return value ? { authorization: value } : {};
      },
      // A dashboard is left open for days: it keeps trying, whatever the hub did.
      retryAttempts: Infinity,
      shouldRetry: () => true,
      retryWait: backoff,
      on: {
        connecting: (isRetry) => this.#connection(isRetry ? 'reconnecting' : 'connecting'),
        connected: (_socket, _payload, wasRetry) => {
          this.#connection('connected');
          if (wasRetry) events.reconnected();
        },
        closed: (event) => {
          if ((event as { code?: number } | null)?.code === forbiddenCloseCode) {
            this.#connection('token needed');
            events.unauthorized();
          } else {
            this.#connection('reconnecting');
          }
        },
      },
    });
  }

  /** A refused token stays the news until a connection succeeds: the retries would only hide it. */
  #connection(state: ConnectionState): void {
    if (this.#state === 'token needed' && state !== 'connected') return;
    this.#state = state;
    this.#events.connection(state);
  }

  /** Runs a query or mutation; rejects with a HubError carrying the hub's code. */
  async request<Result, Variables>(
    document: TypedDocumentNode<Result, Variables>,
    variables: Variables,
  ): Promise<Result> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    const auth = authorization();
    if (auth) headers.authorization = auth;
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: print(document), variables }),
    });
    if (response.status === 401) {
      this.#events.unauthorized();
      throw new HubError('the hub needs a token', 'UNAUTHENTICATED');
    }
    const body = (await response.json().catch(() => null)) as {
      data?: Result | null;
      errors?: unknown[];
      error?: string;
      code?: string;
    } | null;
    if (body?.errors?.length) throw formattedErrorOf(body.errors);
    if (!response.ok || !body?.data) {
      throw new HubError(body?.error ?? `the hub answered HTTP ${response.status}`, body?.code);
    }
    return body.data;
  }

  /**
   * Subscribes over graphql-ws. After a reconnect graphql-ws sends this same `variables` object
   * again, so a caller that updates it in place (a new `after`) resumes where it left off.
   * A result with errors and no data ends the subscription like an error does. Returns the
   * function that ends it; after that the sink hears nothing more.
   */
  subscribe<Result, Variables extends Record<string, unknown>>(
    document: TypedDocumentNode<Result, Variables>,
    variables: Variables,
    sink: Sink<Result>,
  ): () => void {
    let finished = false;
    const finish = (report: () => void) => {
      if (finished) return;
      finished = true;
      report();
    };
    const dispose = this.#ws.subscribe<Result>(
      { query: print(document), variables },
      {
        next: (result) => {
          if (finished) return;
          if (result.data) return sink.next(result.data);
          finish(() => sink.error(formattedErrorOf(result.errors ?? [])));
          dispose();
        },
        error: (error) => finish(() => sink.error(hubErrorOf(error))),
        complete: () => finish(() => sink.complete?.()),
      },
    );
    return () => {
      finished = true;
      dispose();
    };
  }
}
