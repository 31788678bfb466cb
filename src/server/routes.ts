import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal, Scope } from '../auth/tokens.js';
import { nodeCallPath } from '../cluster/node-calls.js';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import { mcpPath } from '../mcp/mcp-endpoint.js';
import type { HubMetrics } from '../metrics.js';
import type { AccessGate, ConnectionCounter } from '../auth/access-gate.js';
import type { HubYoga } from './hub-yoga.js';
import { sendError, sendJson } from '../http/http-io.js';

/** A request handler of the HTTP server. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/**
 * Who may call a route, declared beside it so that no route goes without:
 * - `probe`: anyone, unchecked: the process's health, for load balancers and orchestrators.
 * - `page`: anyone, after the browser checks (Host, Origin): static pages and CORS preflights,
 *   which hold no data; what the page asks for next carries the token.
 * - `token`: after the browser checks, CSRF and the token, a token whose scope grants `scope`.
 * - `secret`: a secret no API token is, which the route's handler checks itself.
 */
export type RouteAccess =
  | { readonly kind: 'probe' }
  | { readonly kind: 'page' }
  | { readonly kind: 'token'; readonly scope: Scope }
  | { readonly kind: 'secret'; readonly holder: string };

export interface RouteSpec {
  /** Its method and path as the docs write them. */
  readonly name: string;
  readonly methods: readonly string[];
  /** The pathname, or a pattern whose groups are the handler's parameters. */
  readonly path: string | RegExp;
  /** Besides method and path, what makes a request this route's. */
  readonly when?: (req: IncomingMessage) => boolean;
  readonly access: RouteAccess;
}

/** yoga's endpoint (its default), where graphql-ws upgrades too. */
export const graphqlPath = '/graphql';

const probe = { kind: 'probe' } as const;
const page = { kind: 'page' } as const;
const read = { kind: 'token', scope: 'read' } as const;
const acceptsHtml = (req: IncomingMessage) => /text\/html/.test(req.headers.accept ?? '');

/**
 * Every route of the hub's HTTP server, in the order they are tried: the first whose path, method
 * and `when` fit takes the request. Reading sessions, their events and turns, and the metrics
 * (counts, no content: less than a read token may query) needs `read`, which a `hook` token
 * lacks; each GraphQL field checks the scope it needs on top (src/schema). The hooks and MCP
 * endpoints take the secrets the hub gives sessions, node calls the cluster's.
 */
export const routeTable = [
  {
    name: 'POST /hooks',
    methods: ['POST'],
    path: '/hooks',
    access: { kind: 'secret', holder: "a session's hook secret, or a token of scope hook" },
  },
  {
    name: `POST ${mcpPath}`,
    methods: ['POST'],
    path: mcpPath,
    access: { kind: 'secret', holder: "a running session's hook secret" },
  },
  {
    name: `POST ${nodeCallPath}`,
    methods: ['POST'],
    path: nodeCallPath,
    access: { kind: 'secret', holder: "the cluster's secret" },
  },
  { name: 'GET /healthz', methods: ['GET', 'HEAD'], path: '/healthz', access: probe },
  { name: 'GET /readyz', methods: ['GET', 'HEAD'], path: '/readyz', access: probe },
  { name: 'GET / (dashboard)', methods: ['GET', 'HEAD'], path: '/', access: page },
  {
    name: 'GET /assets/:file (dashboard)',
    methods: ['GET', 'HEAD'],
    path: /^\/assets\/([\w-]+\.[a-z0-9]+)$/,
    access: page,
  },
  {
    name: `GET ${graphqlPath} (GraphiQL)`,
    methods: ['GET'],
    path: graphqlPath,
    when: acceptsHtml,
    access: page,
  },
  {
    name: 'OPTIONS (CORS preflight of the token routes)',
    methods: ['OPTIONS'],
    // The paths of the routes that take a token, below: a browser asks before sending one.
    path: /^\/(?:graphql|metrics|turns|sessions\/[^/]+\/(?:events|turns))$/,
    access: page,
  },
  { name: 'GET /metrics', methods: ['GET'], path: '/metrics', access: read },
  {
    name: 'GET /sessions/:id/events',
    methods: ['GET'],
    path: /^\/sessions\/([^/]+)\/events$/,
    access: read,
  },
  {
    name: 'GET /sessions/:id/turns',
    methods: ['GET'],
    path: /^\/sessions\/([^/]+)\/turns$/,
    access: read,
  },
  { name: 'GET /turns', methods: ['GET'], path: '/turns', access: read },
  { name: `GET|POST ${graphqlPath}`, methods: ['GET', 'POST'], path: graphqlPath, access: read },
] as const satisfies readonly RouteSpec[];

export type RouteName = (typeof routeTable)[number]['name'];

/** What a handler gets besides the request: the URL, the path's parameters, and who calls. */
export interface RouteRequest {
  readonly url: URL;
  readonly params: readonly string[];
  /** Who the token says calls; null on a route that takes no token. */
  readonly principal: Principal | null;
}

type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteRequest,
) => Promise<void> | void;

/** The parameters of a path the route serves, decoded; null for a path it does not. */
function pathParams(path: string | RegExp, pathname: string): string[] | null {
  if (typeof path === 'string') return path === pathname ? [] : null;
  const match = path.exec(pathname);
  if (!match) return null;
  try {
    return match.slice(1).map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/** The route a request is for, or the methods its path takes (none: no route has that path). */
function findRoute(
  req: IncomingMessage,
  pathname: string,
):
  | { readonly route: RouteSpec & { readonly name: RouteName }; readonly params: string[] }
  | { readonly route: null; readonly allowed: readonly string[] } {
  const routes: readonly (RouteSpec & { readonly name: RouteName })[] = routeTable;
  const allowed = new Set<string>();
  for (const route of routes) {
    const params = pathParams(route.path, pathname);
    if (!params || (route.when && !route.when(req))) continue;
    if (route.methods.includes(req.method ?? 'GET')) return { route, params };
    for (const method of route.methods) allowed.add(method);
  }
  return { route: null, allowed: [...allowed] };
}

/** A request listener whose failures are logged and answered 500; the hub goes on. */
export function guarded(handler: Handler, log: Logger) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => handler(req, res))().catch((error: unknown) => {
      const path = (req.url ?? '/').split('?')[0];
      log.error({ method: req.method, path, err: error }, 'request failed');
      sendError(res, new HubError(ErrorCode.Internal, 'internal error'));
    });
  };
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

export interface HubRouteDeps {
  readonly gate: AccessGate;
  readonly yoga: HubYoga;
  /** POST /hooks: checks the hook secret or hook token itself. */
  readonly hooks: Handler;
  /** /mcp: checks the session's secret itself. */
  readonly mcp: Handler;
  /** The node-call endpoint once the hub has joined its cluster, else null. */
  readonly nodeCalls: () => Handler | null;
  /** /readyz: each check holds. */
  readonly ready: () => Promise<Record<string, boolean>>;
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
  readonly log: Logger;
}

/** Each route's handler; the router has checked the route's access before it runs. */
function routeHandlers(deps: HubRouteDeps): Record<RouteName, RouteHandler> {
  const { yoga } = deps;
  /** A response that stays open counts against its token's connections until it closes. */
  const opened = (res: ServerResponse, principal: Principal): boolean => {
    const release = deps.connections.acquire(principal.name);
    if (!release) {
      const message = `token "${principal.name}" holds ${deps.maxConnections} connections already`;
      sendError(res, new HubError(ErrorCode.TooManyConnections, message));
      return false;
    }
    res.once('close', release);
    return true;
  };
  const dashboard: RouteHandler = async (req, res, { url }) => {
    if (!(await deps.dashboard(req, res, url.pathname))) {
      sendError(res, new HubError(ErrorCode.NotFound, `nothing at ${url.pathname}`));
    }
  };
  const turns =
    (sessionId: (params: readonly string[]) => string | null): RouteHandler =>
    async (req, res, { url, params, principal }) => {
      if (opened(res, principal!)) await deps.turns(req, res, sessionId(params), url.searchParams);
    };
  return {
    'POST /hooks': (req, res) => deps.hooks(req, res),
    [`POST ${mcpPath}` as const]: (req, res) => deps.mcp(req, res),
    [`POST ${nodeCallPath}` as const]: (req, res) => {
      const nodeCalls = deps.nodeCalls();
      if (nodeCalls) return nodeCalls(req, res);
      req.resume();
      sendError(res, new HubError(ErrorCode.NotFound, 'this hub is in no cluster'));
    },
    'GET /healthz': (_req, res) => sendJson(res, 200, { status: 'ok' }),
    'GET /readyz': async (_req, res) => {
      const checks = await deps.ready();
      const ok = Object.values(checks).every(Boolean);
      sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', checks });
    },
    'GET / (dashboard)': dashboard,
    'GET /assets/:file (dashboard)': dashboard,
    [`GET ${graphqlPath} (GraphiQL)` as const]: (req, res) => yoga(req, res),
    'OPTIONS (CORS preflight of the token routes)': (req, res) => yoga(req, res),
    'GET /metrics': async (_req, res) => {
      const text = await deps.metrics.registry.metrics();
      res.writeHead(200, { 'content-type': deps.metrics.registry.contentType });
      res.end(text);
    },
    'GET /sessions/:id/events': async (req, res, { url, params, principal }) => {
      if (opened(res, principal!)) await deps.events(req, res, params[0]!, url.searchParams);
    },
    'GET /sessions/:id/turns': turns((params) => params[0]!),
    'GET /turns': turns(() => null),
    [`GET|POST ${graphqlPath}` as const]: async (req, res, { principal }) => {
      const tooLarge = bodyRefusal(req, deps.maxBodyBytes);
      if (tooLarge) return sendError(res, tooLarge);
      // graphql-sse keeps the response open as a stream.
      const isStream = /text\/event-stream/.test(req.headers.accept ?? '');
      if (isStream && !opened(res, principal!)) return;
      await yoga(req, res, { principal: principal! });
    },
  };
}

/**
 * The hub's HTTP server's request listener: the route of `routeTable` a request is for, its
 * access checked (a path no route has is 404, a method its routes do not take 405), then its
 * handler.
 */
export function hubRouter(deps: HubRouteDeps) {
  if (deps.yoga.graphqlEndpoint !== graphqlPath) {
    throw new Error(`yoga serves ${deps.yoga.graphqlEndpoint}, the routes ${graphqlPath}`);
  }
  const handlers = routeHandlers(deps);
  return guarded(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    const found = findRoute(req, url.pathname);
    if (found.route === null) {
      if (found.allowed.length === 0) {
        return sendError(res, new HubError(ErrorCode.NotFound, `nothing at ${url.pathname}`));
      }
      req.resume();
      res.setHeader('allow', found.allowed.join(', '));
      const message = `${url.pathname} takes ${found.allowed.join(', ')}`;
      return sendError(res, new HubError(ErrorCode.MethodNotAllowed, message));
    }
    const { route, params } = found;
    const { access } = route;
    let principal: Principal | null = null;
    if (access.kind === 'page' || access.kind === 'token') {
      const refusal = deps.gate.browserRefusal(req.headers);
      if (refusal && !refusal.ok) return sendError(res, refusal.error);
    }
    if (access.kind === 'token') {
      const checked = deps.gate.check(req, access.scope, route.name);
      if (!checked.ok) return sendError(res, checked.error);
      principal = checked.principal;
    }
    await handlers[route.name](req, res, { url, params, principal });
  }, deps.log);
}
