import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** A failure the command reports on one line: the hub's error code and message, or why it could not be reached. */
export class ClientError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface GraphQLResponse<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[];
  error?: string;
  code?: string;
}

/** The typed operations of the command line, over HTTP and graphql-ws, with an optional token. */
export class HubClient {
  constructor(
    readonly url: string,
    readonly token: string | undefined,
  ) {}

  async request<T, V extends Record<string, unknown>>(
    document: TypedDocumentNode<T, V>,
    variables: V,
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.token && { authorization: `Bearer ${this.token}` }),
        },
        body: JSON.stringify({ query: print(document), variables }),
      });
    } catch (error) {
      throw new ClientError(`cannot reach ${this.url}: ${cause(error)}`, 'UNREACHABLE');
    }
    const body = (await response.json().catch(() => ({}))) as GraphQLResponse<T>;
    if (body.error) throw new ClientError(body.error, body.code ?? `HTTP_${response.status}`);
    const first = body.errors?.[0];
    if (first) throw new ClientError(first.message, first.extensions?.code ?? 'ERROR');
    if (!body.data) throw new ClientError(`unexpected answer (HTTP ${response.status})`, 'ERROR');
    return body.data;
  }

  /**
   * The results of a subscription, until it completes or `signal` aborts (which ends it at
   * once, also while it waits for a result); errors end it with a ClientError.
   */
  async *subscribe<T, V extends Record<string, unknown>>(
    document: TypedDocumentNode<T, V>,
    variables: V,
    signal?: AbortSignal,
  ): AsyncGenerator<T> {
    const client = createClient({
      url: this.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: this.token ? { authorization: `Bearer ${this.token}` } : {},
    });
    const abort = () => void client.dispose();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      if (signal?.aborted) return;
      for await (const result of client.iterate({ query: print(document), variables })) {
        const first = result.errors?.[0];
        if (first) {
          const code = (first.extensions as { code?: string } | undefined)?.code ?? 'ERROR';
          throw new ClientError(first.message, code);
        }
        if (result.data) yield result.data as T;
      }
    } catch (error) {
      if (error instanceof ClientError) throw error;
      if (signal?.aborted) return;
      const close = error as { code?: number; reason?: string };
      if (typeof close.code === 'number') {
        const reason = close.reason ? `: ${close.reason}` : '';
        throw new ClientError(`the connection closed (${close.code}${reason})`, 'CLOSED');
      }
      throw new ClientError(`cannot reach ${this.url}: ${cause(error)}`, 'UNREACHABLE');
    } finally {
      signal?.removeEventListener('abort', abort);
      await client.dispose();
    }
  }
}

function cause(error: unknown): string {
  const inner = (error as { cause?: { code?: string; message?: string } }).cause;
  return inner?.code ?? inner?.message ?? (error as Error).message ?? String(error);
}
