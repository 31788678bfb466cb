import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';
import { sendError } from '../http/http-io.js';
import type { HookAddress } from '../sessions/hook-urls.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The hooks-only listeners on earlier addresses, for the app. */
export class HookListeners implements HookAddress {
  readonly url: string;
  readonly #handle: Handler;
  readonly #beside: Readonly<Record<string, Handler>>;
  readonly #servers = new Map<string, Server>();

  /**
   * `handle` serves `POST /hooks`, and `beside` the other paths a session calls by their path
   * (each takes its own methods); every other request on these listeners is a 404.
   */
  constructor(url: string, handle: Handler, beside: Readonly<Record<string, Handler>> = {}) {
    this.url = url;
    this.#handle = handle;
    this.#beside = beside;
  }

  async reclaim(url: string): Promise<string | null> {
    if (url === this.url || this.#servers.has(url)) return null;
    let where: URL;
    try {
      where = new URL(url);
    } catch {
      return `${url} is not a URL`;
    }
    const host = where.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(where.port || 80);
    const server = createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://hub').pathname;
      const beside = Object.hasOwn(this.#beside, pathname) ? this.#beside[pathname] : undefined;
      if (beside) return beside(req, res);
      if (pathname !== where.pathname) {
        return sendError(res, new HubError(ErrorCode.NotFound, 'this address serves hooks only'));
      }
      if (req.method !== 'POST') {
        return sendError(res, new HubError(ErrorCode.MethodNotAllowed, 'use POST'));
      }
      return this.#handle(req, res);
    });
    return new Promise((resolve) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        resolve(`cannot listen on ${host}:${port}: ${error.code ?? error.message}`),
      );
      server.listen(port, host, () => {
        this.#servers.set(url, server);
        resolve(null);
      });
    });
  }

  async release(url: string): Promise<void> {
    const server = this.#servers.get(url);
    if (!server) return;
    this.#servers.delete(url);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  get reclaimed(): string[] {
    return [...this.#servers.keys()];
  }

  async close(): Promise<void> {
    await Promise.all(this.reclaimed.map((url) => this.release(url)));
  }
}
