import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createYoga } from 'graphql-yoga';
import type { Hub } from './api/hub.js';
import { LocalHub } from './api/local-hub.js';
import { ClusterHub } from './cluster/cluster-hub.js';
import { nodeCallEndpoint, nodeCallPath } from './cluster/node-calls.js';
import type { RecordKind } from './cluster/redis-keys.js';
import { AuditLog } from './audit/audit-log.js';
import { useHubSecurity } from './auth/hub-security.js';
import { loadTokens, Tokens, type Principal } from './auth/tokens.js';
import type { HubConfig } from './config.js';
import { createLogger, type Logger } from './log.js';
import { HubMetrics } from './metrics.js';
import { ErrorCode, HubError } from './errors.js';
import { LocalEventBus } from './events/event-bus.js';
import { Topic } from './events/topic.js';
import { PermissionBroker } from './permissions/permission-broker.js';
import type { PermissionRecord } from './permissions/permission-request.js';
import type { SessionRecord } from './sessions/session.js';
import type { MessageRecord } from './sessions/message.js';
import { RecordTable } from './store/record-table.js';
import { sessionEvents } from './events/session-events.js';
import { hookEndpoint } from './hooks/hook-endpoint.js';
import { HookListeners } from './hooks/hook-listeners.js';
import { AccessGate, ConnectionCounter } from './http/access-gate.js';
import { graphiqlPage } from './http/graphiql-page.js';
import { sendError, sendJson } from './http/http-io.js';
import { plainSse } from './http/plain-sse.js';
import { staticFiles } from './http/static-files.js';
import { graphqlOverWebSocket } from './http/websocket.js';
import type { HubContext } from './schema/context.js';
import { schema } from './schema/index.js';
import { SessionManager } from './sessions/session-manager.js';
import { TmuxDriver } from './sessions/tmux-driver.js';
import { TmuxRuntime } from './sessions/tmux-runtime.js';
import { openDatabase, storeWritable } from './store/database.js';
import { SqliteEventLog } from './store/sqlite-event-log.js';
import { appendObserved } from './events/event-log.js';

export interface AppOptions {
  /** Environment the sessions start with; the hub's own by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The logger; JSON lines on stderr at the configured level by default. */
  readonly logger?: Logger;
  /**
   * How often every tmux pane is listed even when no pane's process is gone and no session
   * starts; 5 s by default.
   */
  readonly paneCheckMs?: number;
}

export interface App {
  /** Listens; resolves with the GraphQL URL. */
  start(): Promise<{ url: string; port: number }>;
  /** Closes every connection, then the store; sessions are stopped first when so configured. */
  stop(): Promise<void>;
  readonly sessions: SessionManager;
}

const forwarderPath = fileURLToPath(new URL('../hooks/forward.sh', import.meta.url));
const dashboardDir = fileURLToPath(new URL('../dashboard/dist', import.meta.url));

/** The hooks of a session reach the hub over loopback whatever address it listens on. */
function hookHost(host: string): string {
  if (['0.0.0.0', '::', '', 'localhost'].includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function countBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** GraphiQL's page: static, served without a token (the token goes in its headers pane). */
function isGraphiqlPage(req: IncomingMessage, pathname: string, endpoint: string): boolean {
  return (
    req.method === 'GET' && pathname === endpoint && /text\/html/.test(req.headers.accept ?? '')
  );
}

/** Responses that stay open: graphql-sse and the plain event stream count as connections. */
function isStream(req: IncomingMessage, isEventsPath: boolean): boolean {
  return isEventsPath || /text\/event-stream/.test(req.headers.accept ?? '');
}

export function buildApp(config: HubConfig, options: AppOptions = {}): App {
  const log = options.logger ?? createLogger(config.logLevel);
  const tokens = new Tokens(loadTokens(config));
  const gate = new AccessGate(tokens, config.corsOrigins);
  const connections = new ConnectionCounter(config.maxConnections);
  const db = openDatabase(config.dataDir);
  const tmuxConfig = path.join(config.dataDir, 'tmux.conf');
  writeFileSync(tmuxConfig, 'set -g remain-on-exit on\nset -g history-limit 10000\n');
  const tmux = new TmuxDriver(config.tmuxSocket, tmuxConfig);
  const retainMs = config.retainDays * 24 * 60 * 60 * 1000;
  const eventLog = new SqliteEventLog(db, { events: config.retainEvents, maxAgeMs: retainMs });
  /** Set once this hub has joined its cluster (with --redis-url). */
  let cluster: ClusterHub | null = null;
  const shared =
    (kind: RecordKind) =>
    (record: { readonly id: string }): void =>
      cluster?.localChanged(kind, record);
  /** Records and events past retention go at start, then every minute. */
  const prune = () => {
    eventLog.prune();
    const pruned = sessions.pruneRecords({ maxAgeMs: retainMs, perSession: config.retainRecords });
    if (pruned.sessions + pruned.messages + pruned.permissions > 0)
      log.info(pruned, 'records past retention deleted');
  };
  const pruner = setInterval(prune, 60_000);
  pruner.unref();
  const bus = new LocalEventBus();
  const permissionChanges = new Topic<PermissionRecord>();
  const permissions: PermissionBroker = new PermissionBroker(
    {
      holdMs: config.permissionHoldSeconds * 1000,
      onExpiry: config.permissionExpiry,
      changed: (request) => {
        permissionChanges.publish(request);
        const session = sessions.get(request.sessionId);
        if (session) sessions.updates.publish(session);
      },
      resolved: (request): Promise<void> => {
        metrics.permissionDecisions.inc({ outcome: request.status });
        return sessions
          .appendHubEvent(request.sessionId, 'HubPermissionResolved', {
            request_id: request.id,
            tool_name: request.toolName,
            status: request.status,
            message: request.message,
          })
          .catch((error: unknown) =>
            log.error(
              { sessionId: request.sessionId, requestId: request.id, err: error },
              'permission resolution could not be stored',
            ),
          );
      },
    },
    new RecordTable<PermissionRecord>(db, 'permissions', shared('permissions')),
  );
  const sessions: SessionManager = new SessionManager(
    {
      claudeBin: config.claudeBin,
      dataDir: config.dataDir,
      env: options.env ?? process.env,
      forwarderPath,
      allowedRoots: config.allowedRoots,
      maxSessions: config.maxSessions,
      hookTimeoutSeconds: config.hookTimeoutSeconds,
      permissionTimeoutSeconds: config.permissionHoldSeconds + 30,
      unknownScreenAfterMs: 10_000,
      messages: {
        limit: config.maxQueuedMessages,
        confirmTimeoutMs: 10_000,
        enterDelayMs: 300,
        readyTimeoutMs: config.startTimeoutSeconds * 1000,
      },
      startTimeoutMs: config.startTimeoutSeconds * 1000,
      stopTimeoutMs: 5000,
      pollIntervalMs: 500,
      restartPolicy: {
        limit: config.restartLimit,
        windowMs: config.restartWindowSeconds * 1000,
        initialDelayMs: config.restartDelaySeconds * 1000,
        maxDelayMs: config.restartMaxDelaySeconds * 1000,
      },
      log,
    },
    {
      runtime: new TmuxRuntime(tmux, {
        paneCheckMs: options.paneCheckMs ?? 5000,
        inputSettleMs: 500,
      }),
      log: config.redisUrl ? appendObserved(eventLog, (id) => cluster?.appended(id)) : eventLog,
      bus,
      store: new RecordTable<SessionRecord>(db, 'sessions', shared('sessions')),
      messageStore: new RecordTable<MessageRecord>(db, 'messages', shared('messages')),
      permissions,
    },
  );
  let openStreams = 0;
  const streams = { open: () => void openStreams++, close: () => void openStreams-- };
  const streamOptions = { bufferLimit: config.subscriberBuffer, replayPageSize: 1000, streams };
  const events = (sessionId: string, after: number | null) =>
    sessionEvents(
      {
        log: eventLog,
        bus,
        ...streamOptions,
        liveFrom: (id) => eventLog.lastSeq(id),
        isEnded: (id) => sessions.isEnded(id),
      },
      sessionId,
      after,
    );
  const localHub = new LocalHub({
    sessions,
    permissions,
    log: eventLog,
    events,
    permissionChanges,
    subscriberBuffer: config.subscriberBuffer,
  });
  const audit = new AuditLog(db);
  /** The local hub, until this one has joined its cluster. */
  let hub: Hub = localHub;

  const yoga = createYoga<
    { req: IncomingMessage; res?: ServerResponse; principal?: Principal },
    HubContext
  >({
    schema,
    context: ({ req, principal }): HubContext => {
      if (!principal) throw new HubError(ErrorCode.Unauthenticated, 'not authenticated');
      return { hub, audit, principal, address: req.socket.remoteAddress ?? '' };
    },
    cors: (request) => {
      const origin = request.headers.get('origin');
      if (!origin || !gate.isAllowedOrigin(origin)) return false;
      return {
        origin: [origin],
        methods: ['GET', 'POST'],
        allowedHeaders: ['authorization', 'content-type', 'accept', 'last-event-id'],
        credentials: false,
      };
    },
    maskedErrors: { isDev: false },
    plugins: useHubSecurity(config),
    // With tokens, subscriptions go over SSE, which carries the Headers pane's Authorization:
    // GraphiQL's graphql-ws client sends those headers neither on the upgrade nor at
    // connection_init.
    graphiql: {
      subscriptionsProtocol: tokens.configured ? 'SSE' : 'WS',
      title: 'claude-code-hub',
    },
    renderGraphiQL: graphiqlPage(),
    landingPage: false,
    logging: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...args: unknown[]) => log.warn(args.map(String).join(' ')),
      error: (...args: unknown[]) => log.error(args.map(String).join(' ')),
    },
  });
  let nodeCalls: ReturnType<typeof nodeCallEndpoint> | null = null;
  const joinCluster = (port: number) =>
    ClusterHub.join(
      {
        hub: localHub,
        sessions,
        eventLog,
        bus,
        permissionChanges,
        streamOptions,
      },
      {
        redisUrl: config.redisUrl,
        redisPrefix: config.redisPrefix,
        nodeName: config.nodeName || hostname(),
        url: config.advertiseUrl || `http://${hookHost(config.host)}:${port}`,
        leaseMs: config.nodeLeaseSeconds * 1000,
        startTimeoutMs: config.startTimeoutSeconds * 1000,
        retainEvents: config.retainEvents,
        subscriberBuffer: config.subscriberBuffer,
        log,
      },
    );
  const metrics = new HubMetrics({
    sessionsByStatus: () => countBy(sessions.list(), (record) => sessions.statusOf(record)),
    messagesByStatus: () => countBy(sessions.messages.all(), (message) => message.status),
    restarts: () => sessions.list().reduce((sum, record) => sum + record.restartCount, 0),
    subscribers: () => openStreams,
  });
  const hooks = hookEndpoint(sessions, { maxBodyBytes: config.maxHookBodyBytes, log, metrics });
  const sse = plainSse({ exists: (id) => sessions.get(id) !== undefined, events, log });

  /** Every request but hooks: browser checks, token, body size, stream count, then the route. */
  const dashboard = staticFiles(dashboardDir);
  const serveApi = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const refusal = gate.browserRefusal(req.headers);
    if (refusal && !refusal.ok) {
      return sendError(res, refusal.error);
    }
    if (req.method === 'OPTIONS' || isGraphiqlPage(req, url.pathname, yoga.graphqlEndpoint)) {
      return yoga(req, res);
    }
    if (await dashboard(req, res, url.pathname)) return;
    const access = gate.check(req);
    if (!access.ok) return sendError(res, access.error);
    const { principal } = access;
    if (url.pathname === '/metrics' && req.method === 'GET') {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType });
      res.end(text);
      return;
    }
    const eventsPath = /^\/sessions\/([^/]+)\/events$/.exec(url.pathname);
    if (!eventsPath && req.method !== 'GET' && req.method !== 'HEAD') {
      const length = req.headers['content-length'];
      if (length === undefined) {
        return sendError(res, new HubError(ErrorCode.LengthRequired, 'send a Content-Length'));
      }
      if (Number(length) > config.maxGraphqlBodyBytes) {
        req.resume();
        return sendError(
          res,
          new HubError(
            ErrorCode.PayloadTooLarge,
            `body is larger than ${config.maxGraphqlBodyBytes} bytes`,
          ),
        );
      }
    }
    if (isStream(req, eventsPath !== null)) {
      const release = connections.acquire(principal.name);
      if (!release) {
        return sendError(
          res,
          new HubError(
            ErrorCode.TooManyConnections,
            `token "${principal.name}" holds ${config.maxConnections} connections already`,
          ),
        );
      }
      res.once('close', release);
    }
    if (eventsPath && req.method === 'GET') {
      return sse(req, res, decodeURIComponent(eventsPath[1] as string), url.searchParams);
    }
    return yoga(req, res, { principal });
  };

  /** A request's failure is logged and answered 500; the hub goes on. */
  const answered = (
    req: IncomingMessage,
    res: ServerResponse,
    handled: Promise<void> | void,
  ): void =>
    void Promise.resolve(handled).catch((error: unknown) => {
      log.error({ method: req.method, path: req.url, err: error }, 'request failed');
      sendError(res, new HubError(ErrorCode.Internal, 'internal error'));
    });
  let hookListeners: HookListeners | null = null;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    let handled: Promise<void> | void;
    if (url.pathname === '/hooks') {
      handled =
        req.method === 'POST'
          ? hooks(req, res)
          : sendError(res, new HubError(ErrorCode.MethodNotAllowed, 'use POST'));
    } else if (url.pathname === nodeCallPath && cluster) {
      handled = nodeCalls!(req, res);
    } else if (url.pathname === '/healthz') {
      handled = sendJson(res, 200, { status: 'ok' });
    } else if (url.pathname === '/readyz') {
      handled = tmux.reachable().then((tmuxReachable) => {
        const checks = {
          store: storeWritable(db),
          tmux: tmuxReachable,
          ...(config.redisUrl ? { redis: cluster?.connected ?? false } : {}),
        };
        const ready = Object.values(checks).every(Boolean);
        sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
      });
    } else {
      handled = serveApi(req, res, url);
    }
    answered(req, res, handled);
  });

  const wsServer = graphqlOverWebSocket(server, yoga, {
    gate,
    connections,
    maxSubscriptions: config.maxSubscriptions,
    log,
  });

  return {
    sessions,
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const { port } = server.address() as AddressInfo;
      hookListeners = new HookListeners(
        `http://${hookHost(config.host)}:${port}/hooks`,
        (req, res) => answered(req, res, hooks(req, res)),
      );
      try {
        prune();
        await sessions.start(hookListeners);
      } catch (error) {
        await this.stop();
        throw error;
      }
      if (config.redisUrl) {
        try {
          cluster = await joinCluster(port);
        } catch (error) {
          await this.stop();
          throw error;
        }
        nodeCalls = nodeCallEndpoint(cluster.secret, (call) => cluster!.run(call), {
          maxBodyBytes: config.maxGraphqlBodyBytes,
          log,
        });
        hub = cluster;
      }
      const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
      return { url: `http://${shownHost}:${port}${yoga.graphqlEndpoint}`, port };
    },
    async stop() {
      clearInterval(pruner);
      await sessions.close(config.stopSessionsOnExit);
      permissions.close();
      for (const client of wsServer.clients) client.terminate();
      await new Promise((resolve) => wsServer.close(resolve));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await hookListeners?.close();
      await cluster?.close();
      cluster = null;
      db.close();
    },
  };
}
