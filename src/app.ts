import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createYoga } from 'graphql-yoga';
import type { HubConfig } from './config.js';
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
import { sendJson } from './http/http-io.js';
import { plainSse } from './http/plain-sse.js';
import { graphqlOverWebSocket } from './http/websocket.js';
import type { HubContext } from './schema/context.js';
import { schema } from './schema/index.js';
import { SessionManager } from './sessions/session-manager.js';
import { TmuxDriver } from './sessions/tmux-driver.js';
import { openDatabase } from './store/database.js';
import { SqliteEventLog } from './store/sqlite-event-log.js';

export interface AppOptions {
  /** Environment the sessions start with; the hub's own by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where log lines go; stderr by default. */
  readonly log?: (message: string) => void;
}

export interface App {
  /** Listens; resolves with the GraphQL URL. */
  start(): Promise<{ url: string; port: number }>;
  /** Closes every connection, then the store; sessions are stopped first when so configured. */
  stop(): Promise<void>;
  readonly sessions: SessionManager;
}

const forwarderPath = fileURLToPath(new URL('../hooks/forward.sh', import.meta.url));

/** The hooks of a session reach the hub over loopback whatever address it listens on. */
function hookHost(host: string): string {
  if (['0.0.0.0', '::', '', 'localhost'].includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export function buildApp(config: HubConfig, options: AppOptions = {}): App {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const db = openDatabase(config.dataDir);
  const tmuxConfig = path.join(config.dataDir, 'tmux.conf');
  writeFileSync(tmuxConfig, 'set -g remain-on-exit on\nset -g history-limit 10000\n');
  const tmux = new TmuxDriver(config.tmuxSocket, tmuxConfig);
  const eventLog = new SqliteEventLog(db, {
    events: config.retainEvents,
    maxAgeMs: config.retainDays * 24 * 60 * 60 * 1000,
  });
  const pruner = setInterval(() => eventLog.prune(), 60_000);
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
      resolved: (request): Promise<void> =>
        sessions
          .appendHubEvent(request.sessionId, 'HubPermissionResolved', {
            request_id: request.id,
            tool_name: request.toolName,
            status: request.status,
            message: request.message,
          })
          .catch((error: unknown) =>
            log(`error: permission ${request.id}: ${(error as Error).message}`),
          ),
    },
    new RecordTable<PermissionRecord>(db, 'permissions'),
  );
  const sessions: SessionManager = new SessionManager(
    {
      claudeBin: config.claudeBin,
      dataDir: config.dataDir,
      env: options.env ?? process.env,
      forwarderPath,
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
      inputSettleMs: 500,
      restartPolicy: {
        limit: config.restartLimit,
        windowMs: config.restartWindowSeconds * 1000,
        initialDelayMs: config.restartDelaySeconds * 1000,
        maxDelayMs: config.restartMaxDelaySeconds * 1000,
      },
      log,
    },
    {
      tmux,
      log: eventLog,
      bus,
      store: new RecordTable<SessionRecord>(db, 'sessions'),
      messageStore: new RecordTable<MessageRecord>(db, 'messages'),
      permissions,
    },
  );
  const events = (sessionId: string, after: number | null) =>
    sessionEvents(
      {
        log: eventLog,
        bus,
        bufferLimit: config.subscriberBuffer,
        replayPageSize: 1000,
        isEnded: (id) => sessions.isEnded(id),
      },
      sessionId,
      after,
    );
  const overflow = () =>
    new HubError(
      ErrorCode.SubscriberTooSlow,
      `subscriber fell more than ${config.subscriberBuffer} updates behind; subscribe again`,
    );
  const context: HubContext = {
    sessions,
    log: eventLog,
    sessionEvents: events,
    permissions,
    sessionUpdates: () => sessions.updates.stream(config.subscriberBuffer, overflow),
    permissionChanges: () => permissionChanges.stream(config.subscriberBuffer, overflow),
  };

  const yoga = createYoga<{ req: IncomingMessage; res: ServerResponse }>({
    schema,
    context: () => context,
    graphiql: { subscriptionsProtocol: 'WS', title: 'claude-code-hub' },
    landingPage: false,
    logging: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...args: unknown[]) => log(`warn: ${args.map(String).join(' ')}`),
      error: (...args: unknown[]) => log(`error: ${args.map(String).join(' ')}`),
    },
  });
  const hooks = hookEndpoint(sessions, { maxBodyBytes: config.maxHookBodyBytes, log });
  const sse = plainSse({ exists: (id) => sessions.get(id) !== undefined, events });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    const eventsPath = /^\/sessions\/([^/]+)\/events$/.exec(url.pathname);
    let handled: Promise<void> | void;
    if (url.pathname === '/hooks') {
      handled =
        req.method === 'POST'
          ? hooks(req, res)
          : sendJson(res, 405, { error: 'use POST', code: 'METHOD_NOT_ALLOWED' });
    } else if (eventsPath && req.method === 'GET') {
      handled = sse(req, res, decodeURIComponent(eventsPath[1] as string), url.searchParams);
    } else {
      handled = yoga(req, res);
    }
    void Promise.resolve(handled).catch((error: unknown) => {
      log(`error: ${req.method} ${url.pathname}: ${(error as Error).stack ?? String(error)}`);
      sendJson(res, 500, { error: 'internal error', code: 'INTERNAL' });
    });
  });

  const wsServer = graphqlOverWebSocket(server, yoga);

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
      await sessions.start(`http://${hookHost(config.host)}:${port}/hooks`);
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
      db.close();
    },
  };
}
