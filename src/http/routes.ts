import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import type { HubMetrics } from '../metrics.js';
import type { AccessGate, ConnectionCounter } from './access-gate.js';
import type { HubYoga } from './hub-yoga.js';
import { sendError, sendJson } from './http-io.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** Answers a request it takes, and says whether it took it. */
export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

/**
 * The HTTP server's request listener: the first route that takes a request answers it. A
 * request's failure is logged and answered 500; the hub goes on.
 */
export function router(routes: readonly Route[], log: Logger) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://hub');
    void (async () => {
      for (const route of routes) if (await route(req, res, url)) return;
      sendError(res, new HubError(ErrorCode.NotFound, `nothing at ${url.pathname}`));
    })().catch((error: unknown) => {
      log.error({ method: req.method, path: url.pathname, err: error }, 'request failed');
      sendError(res, new HubError(ErrorCode.Internal, 'internal error'));
    });
  };
}

/** A route for one path, POST only. */
export function postRoute(path: string, handle: () => Handler | null): Route {
  return async (req, res, url) => {
    const handler = url.pathname === path ? handle() : null;
    if (!handler) return false;
    if (req.method === 'POST') await handler(req, res);
    else sendError(res, new HubError(ErrorCode.MethodNotAllowed, 'use POST'));
    return true;
  };
}

/** A route for one path, every method: the handler answers each. */
export function pathRoute(path: string, handler: Handler): Route {
  return async (req, res, url) => {
    if (url.pathname !== path) return false;
    await handler(req, res);
    return true;
  };
}

/** GET /healthz (the process answers) and /readyz (each check of `ready` holds), no token. */
export function healthRoute(ready: () => Promise<Record<string, boolean>>): Route {
  return async (_req, res, url) => {
    if (url.pathname === '/healthz') {
      sendJson(res, 200, { status: 'ok' });
      return true;
    }
    if (url.pathname !== '/readyz') return false;
    const checks = await ready();
    const ok = Object.values(checks).every(Boolean);
    sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', checks });
    return true;
  };
}

/** Responses that stay open: graphql-sse and the plain streams count as connections. */
function isStream(req: IncomingMessage, isPlainStream: boolean): boolean {
  return isPlainStream || /text\/event-stream/.test(req.headers.accept ?? '');
}

/** The plain SSE streams: GET /sessions/:id/events, /sessions/:id/turns and /turns. */
function plainStreamOf(
  req: IncomingMessage,
  pathname: string,
): { kind: 'events' | 'turns'; sessionId: string | null } | null {
  if (req.method !== 'GET') return null;
  if (pathname === '/turns') return { kind: 'turns', sessionId: null };
  const match = /^\/sessions\/([^/]+)\/(events|turns)$/.exec(pathname);
  if (!match) return null;
  return { kind: match[2] as 'events' | 'turns', sessionId: decodeURIComponent(match[1]!) };
}

/** GraphiQL's page: static, served without a token (the token goes in its headers pane). */
function isGraphiqlPage(req: IncomingMessage, pathname: string, endpoint: string): boolean {
  return (
    req.method === 'GET' && pathname === endpoint && /text\/html/.test(req.headers.accept ?? '')
  );
}

/** A body the API refuses before reading it: no length, or too long. */
function bodyRefusal(req: IncomingMessage, maxBytes: number): HubError | null {
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  const length = req.headers['content-length'];
  if (length === undefined) return new HubError(ErrorCode.LengthRequired, 'send a Content-Length');
  if (Number(length) <= maxBytes) return null;
  req.resume();
  return new HubError(ErrorCode.PayloadTooLarge, `body is larger than ${maxBytes} bytes`);
}

export interface ApiRouteDeps {
  readonly gate: AccessGate;
  readonly yoga: HubYoga;
  readonly dashboard: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  readonly metrics: HubMetrics;
  /** GET /sessions/:id/events, the plain event stream. */
  readonly events: (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string,
    query: URLSearchParams,
  ) => Promise<void>;
  /** GET /turns and /sessions/:id/turns, the plain stream of completed turns. */
  readonly turns: (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string | null,
    query: URLSearchParams,
  ) => Promise<void>;
  readonly connections: ConnectionCounter;
  readonly maxBodyBytes: number;
  readonly maxConnections: number;
}

/**
 * Everything else: the browser checks (Host, Origin), GraphiQL's page and the dashboard, then
 * the token; then /metrics, the plain event stream, or GraphQL, with bodies and open streams
 * bounded.
 */
export function apiRoute(deps: ApiRouteDeps): Route {
  const { gate, yoga } = deps;
  return async (req, res, url) => {
    const refusal = gate.browserRefusal(req.headers);
    if (refusal && !refusal.ok) {
      sendError(res, refusal.error);
      return true;
    }
    if (req.method === 'OPTIONS' || isGraphiqlPage(req, url.pathname, yoga.graphqlEndpoint)) {
      await yoga(req, res);
      return true;
    }
    if (await deps.dashboard(req, res, url.pathname)) return true;
    const access = gate.check(req);
    if (!access.ok) {
      sendError(res, access.error);
      return true;
    }
    const { principal } = access;
    if (url.pathname === '/metrics' && req.method === 'GET') {
      const text = await deps.metrics.registry.metrics();
      res.writeHead(200, { 'content-type': deps.metrics.registry.contentType });
      res.end(text);
      return true;
    }
    const plain = plainStreamOf(req, url.pathname);
    const tooLarge = plain ? null : bodyRefusal(req, deps.maxBodyBytes);
    if (tooLarge) {
      sendError(res, tooLarge);
      return true;
    }
    if (isStream(req, plain !== null)) {
      const release = deps.connections.acquire(principal.name);
      if (!release) {
        const message = `token "${principal.name}" holds ${deps.maxConnections} connections already`;
        sendError(res, new HubError(ErrorCode.TooManyConnections, message));
        return true;
      }
      res.once('close', release);
    }
    if (plain?.kind === 'events') {
      await deps.events(req, res, plain.sessionId!, url.searchParams);
    } else if (plain?.kind === 'turns') {
      await deps.turns(req, res, plain.sessionId, url.searchParams);
    } else {
      await yoga(req, res, { principal });
    }
    return true;
  };
}
