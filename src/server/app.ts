import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import type { WebSocketServer } from 'ws';
import type { Hub } from '../hub/hub.js';
import { LocalHub } from '../hub/local-hub.js';
import { AuditLog } from '../audit/audit-log.js';
import { loadTokens, Tokens } from '../auth/tokens.js';
import { ClusterHub } from '../cluster/cluster-hub.js';
import { nodeCallEndpoint } from '../cluster/node-calls.js';
import type { RecordKind } from '../cluster/redis-keys.js';
import type { HubConfig } from '../config/index.js';
import { ClaudeCli, claudeProbeBounds } from '../claude/claude-cli.js';
import { LocalEventBus } from '../events/event-bus.js';
import { appendObserved } from '../events/event-log.js';
import { sessionEvents } from '../subscriptions/session-events.js';
import { Topic } from '../events/topic.js';
import { hookEndpoint } from '../ingest/hook-endpoint.js';
import { HookListeners } from '../ingest/hook-listeners.js';
import { AccessGate, ConnectionCounter } from '../auth/access-gate.js';
import { hubYoga } from './hub-yoga.js';
import { plainSse, turnsSse } from '../subscriptions/plain-sse.js';
import { turnFeed } from '../runs/run-reader.js';
import { turnUsage } from '../runs/turn-usage.js';
import { guarded, hubRouter } from './routes.js';
import { staticFiles } from '../http/static-files.js';
import {
  graphqlOverWebSocket,
  type WebSocketEndpoint,
} from '../subscriptions/graphql-ws-server.js';
import { createLogger, type Logger } from '../log.js';
import { countBy, HubMetrics } from '../metrics.js';
import { PermissionBroker } from '../permissions/permission-broker.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { MessageRecord } from '../sessions/message.js';
import { SessionStatus, type SessionRecord } from '../sessions/session.js';
import { SessionManager } from '../sessions/session-manager.js';
import { hubSecrets, sessionEnvironment } from '../runtime/session-env.js';
import { TmuxDriver } from '../runtime/tmux-driver.js';
import { HeadlessRuntime } from '../runtime/headless-runtime.js';
import { RuntimeSet } from '../runtime/runtime-set.js';
import { RuntimeKind } from '../runtime/session-runtime.js';
import { TmuxRuntime } from '../runtime/tmux-runtime.js';
import { ExternalRuntime } from '../runtime/external-runtime.js';
import { GlobalHooks } from '../hooks/global-hooks.js';
import { TurnIndex } from '../runs/turn-index.js';
import { openDatabase, storeChecks } from '../store/database.js';
import { RecordTable } from '../store/record-table.js';
import { SqliteEventLog } from '../store/sqlite-event-log.js';
import { SqliteChannelLog } from '../channels/sqlite-channel-log.js';
import { Channels } from '../channels/channels.js';
import { parseChannelSpec } from '../channels/channel.js';
import { mcpEndpoint, mcpPath } from '../mcp/mcp-endpoint.js';
import { Terminals } from '../terminal/terminals.js';
import { warmUp } from './warm-up.js';

export interface AppOptions {
  /** Environment the sessions start with; the hub's own by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The logger; JSON lines on stderr at the configured level by default. */
  readonly logger?: Logger;
  /**
   * How often every tmux pane is listed even when no pane's process is gone and no session
   * starts; a minute by default.
   */
  readonly paneCheckMs?: number;
}

export interface App {
  /**
   * Opens the store, listens, re-adopts the sessions, joins the cluster; resolves with the
   * GraphQL URL. When a step fails, what the steps before took is released and it rejects.
   */
  start(): Promise<{ url: string; port: number }>;
  /** Closes every connection, then the store; sessions are stopped first when so configured. */
  stop(): Promise<void>;
}

/** How long stopSession waits for claude's SessionEnd, and interruptSession for the turn. */
const stopTimeoutMs = 5000;

const forwarderPath = fileURLToPath(new URL('../../hooks/forward.sh', import.meta.url));
const dashboardDir = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));
const { version } = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
) as { version: string };

/** The hooks of a session reach the hub over loopback whatever address it listens on. */
function hookHost(host: string): string {
  if (['0.0.0.0', '::', '', 'localhost'].includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** What a started hub holds, each part set once it is taken, so a failed start releases it. */
interface Parts {
  db?: Database.Database;
  eventLog?: SqliteEventLog;
  pruner?: NodeJS.Timeout;
  sessions?: SessionManager;
  permissions?: PermissionBroker;
  server?: Server;
  wsServer?: WebSocketEndpoint;
  hookListeners?: HookListeners;
  cluster?: ClusterHub;
  terminals?: Terminals;
  metrics?: HubMetrics;
  claude?: ClaudeCli;
}

/** Releases what a hub took, in the order that loses nothing: sessions before the server. */
async function release(parts: Parts, stopSessions: boolean): Promise<void> {
  if (parts.pruner) clearInterval(parts.pruner);
  await parts.terminals?.close();
  await parts.sessions?.close(stopSessions);
  parts.permissions?.close();
  const { wsServer, server } = parts;
  await wsServer?.close();
  server?.closeAllConnections();
  if (server?.listening) await new Promise((resolve) => server.close(resolve));
  await parts.hookListeners?.close();
  await parts.cluster?.close();
  await parts.claude?.close();
  parts.eventLog?.flush();
  parts.db?.close();
  parts.metrics?.close();
}

/** The hub: built without I/O; `start` does the rest. */
export function buildApp(config: HubConfig, options: AppOptions = {}): App {
  const log = options.logger ?? createLogger(config.logLevel);
  let parts: Parts = {};
  return {
    async start() {
      parts = {};
      try {
        return await open(config, options, log, parts);
      } catch (error) {
        await release(parts, false);
        throw error;
      }
    },
    stop: () => release(parts, config.stopSessionsOnExit),
  };
}

/**
 * Seconds tmux may hold a terminal's output for the hub (its event loop stalled) before it stops
 * sending it; the hub then sends its viewers a fresh snapshot.
 */
const terminalPauseAfterSeconds = 10;

/** Wires the hub and brings it up, noting in `parts` each thing it takes. */
async function open(
  config: HubConfig,
  options: AppOptions,
  log: Logger,
  parts: Parts,
): Promise<{ url: string; port: number }> {
  const tokenEntries = loadTokens(config);
  const tokens = new Tokens(tokenEntries);
  const gate = new AccessGate(tokens, config.corsOrigins);
  const connections = new ConnectionCounter(config.maxConnections);
  let openStreams = 0;
  const metrics = (parts.metrics = new HubMetrics({
    sessionsByStatus: () => countBy(sessions.list(), (record) => sessions.statusOf(record)),
    messagesByStatus: () => countBy(sessions.messages.all(), (message) => message.status),
    restarts: () => sessions.list().reduce((sum, record) => sum + record.restartCount, 0),
    subscribers: () => openStreams,
  }));
  const db = (parts.db = openDatabase(config.dataDir, log));
  const tmuxConfig = path.join(config.dataDir, 'tmux.conf');
  writeFileSync(tmuxConfig, 'set -g remain-on-exit on\nset -g history-limit 10000\n');
  chmodSync(tmuxConfig, 0o600);
  const env = options.env ?? process.env;
  const secrets = hubSecrets(config);
  // All that claude and tmux get of the hub's environment: a server keeps its first client's.
  const childEnv = sessionEnvironment(env, secrets);
  const tmux = new TmuxDriver(config.tmuxSocket, tmuxConfig, childEnv);
  // Learned in the background: a session's launch and Query.claude wait for it, the start not.
  const claude = (parts.claude = new ClaudeCli({
    dataDir: config.dataDir,
    env: childEnv,
    log,
    ...claudeProbeBounds,
  }));
  void claude.facts(config.claudeBin);
  const retainMs = config.retainDays * 24 * 60 * 60 * 1000;
  const eventLog = (parts.eventLog = new SqliteEventLog(db, {
    events: config.retainEvents,
    maxAgeMs: retainMs,
  }));
  /** Set once this hub has joined its cluster (with --redis-url). */
  let cluster: ClusterHub | null = null;
  const shared =
    (kind: RecordKind) =>
    (record: { readonly id: string }): void =>
      cluster?.localChanged(kind, record);
  const records = {
    sessions: new RecordTable<SessionRecord>(db, 'sessions', shared('sessions')),
    messages: new RecordTable<MessageRecord>(db, 'messages', shared('messages')),
    permissions: new RecordTable<PermissionRecord>(db, 'permissions', shared('permissions')),
  };
  const bus = new LocalEventBus();
  const permissionChanges = new Topic<PermissionRecord>();
  const permissions: PermissionBroker = (parts.permissions = new PermissionBroker(
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
    records.permissions,
  ));
  const channels = new Channels(
    {
      declared: new Map(
        config.channels.map((spec) => {
          const { name, description } = parseChannelSpec(spec);
          return [name, description];
        }),
      ),
      bufferLimit: config.subscriberBuffer,
    },
    new SqliteChannelLog(db, { perChannel: config.retainEvents, maxAgeMs: retainMs }),
  );
  const terminals = (parts.terminals = new Terminals({
    scrollback: config.terminalScrollback,
    viewerBuffer: config.terminalBufferBytes,
    pauseAfterSeconds: terminalPauseAfterSeconds,
  }));
  const globalHooks = new GlobalHooks({
    dataDir: config.dataDir,
    env,
    forwarderPath,
    httpTimeoutSeconds: config.hookTimeoutSeconds,
    permissionTimeoutSeconds: config.permissionHoldSeconds + 30,
    hookUrl: () => parts.hookListeners?.url ?? '',
    events: () => claude.hookEvents(config.claudeBin),
    checkProjectDir: (dir) => sessions.checkAllowedRoot(dir),
    tokens: tokenEntries,
  });
  const sessions: SessionManager = (parts.sessions = new SessionManager(
    {
      claudeBin: config.claudeBin,
      hookEvents: (bin) => claude.hookEvents(bin),
      defaultRuntime:
        config.defaultRuntime === 'headless' ? RuntimeKind.Headless : RuntimeKind.Tmux,
      dataDir: config.dataDir,
      env,
      secrets,
      forwarderPath,
      allowedRoots: config.allowedRoots,
      maxSessions: config.maxSessions,
      hookTimeoutSeconds: config.hookTimeoutSeconds,
      permissionTimeoutSeconds: config.permissionHoldSeconds + 30,
      unknownScreenAfterMs: 10_000,
      isHookToken: (secretSha256) => globalHooks.isHookToken(secretSha256),
      lastInput: (id) => terminals.lastInput(id),
      ownClients: () => terminals.clientPids(),
      messages: {
        limit: config.maxQueuedMessages,
        confirmTimeoutMs: 10_000,
        readyTimeoutMs: config.startTimeoutSeconds * 1000,
        typingGraceMs: config.typingGraceSeconds * 1000,
      },
      startTimeoutMs: config.startTimeoutSeconds * 1000,
      stopTimeoutMs,
      pollIntervalMs: 500,
      timed: metrics.timed,
      restartPolicy: {
        limit: config.restartLimit,
        windowMs: config.restartWindowSeconds * 1000,
        initialDelayMs: config.restartDelaySeconds * 1000,
        maxDelayMs: config.restartMaxDelaySeconds * 1000,
      },
      log,
    },
    {
      runtime: new RuntimeSet({
        TMUX: new TmuxRuntime(tmux, {
          paneCheckMs: options.paneCheckMs ?? 60_000,
          timed: metrics.timed,
          inputSettleMs: 500,
          pasteSettleMs: 300,
        }),
        HEADLESS: new HeadlessRuntime({
          output: (id, line) =>
            void sessions
              .appendStreamLine(id, line)
              .catch((error: unknown) =>
                log.error({ err: error, sessionId: id }, 'a stream line could not be stored'),
              ),
          stopTimeoutMs,
        }),
        EXTERNAL: new ExternalRuntime({ pasteSettleMs: 300, stopTimeoutMs }),
      }),
      log: config.redisUrl ? appendObserved(eventLog, (id) => cluster?.appended(id)) : eventLog,
      bus,
      store: records.sessions,
      messageStore: records.messages,
      permissions,
    },
  ));
  /** Records and events past retention go at start, then every minute. */
  const prune = () => {
    eventLog.prune();
    channels.prune();
    const pruned = sessions.pruneRecords({ maxAgeMs: retainMs, perSession: config.retainRecords });
    if (pruned.sessions + pruned.messages + pruned.permissions > 0)
      log.info(pruned, 'records past retention deleted');
  };
  prune();
  parts.pruner = setInterval(() => void metrics.timed('retention', prune), 60_000);
  parts.pruner.unref();

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
    terminals,
    subscriberBuffer: config.subscriberBuffer,
  });
  /** The local hub, until this one has joined its cluster. */
  let hub: Hub = localHub;
  const turns = new TurnIndex((id, options) => hub.log.read(id, options));
  const yoga = hubYoga({
    config,
    tokens,
    gate,
    hub: () => hub,
    audit: new AuditLog(db),
    turns,
    globalHooks,
    channels,
    claude: () => claude.facts(config.claudeBin),
    log,
  });
  await warmUp(yoga);
  const hooks = hookEndpoint(sessions, { maxBodyBytes: config.maxHookBodyBytes, log, metrics });
  const mcpServer = mcpEndpoint({
    sessionOf: (secret) => sessions.sessionOfSecret(secret)?.id ?? null,
    tools: {
      channels: () => channels.list(),
      async send(sessionId, channel, text) {
        const message = channels.send(sessionId, channel, text);
        await sessions.appendHubEvent(sessionId, 'ChannelMessage', {
          channel,
          text,
          channel_seq: message.seq,
        });
        return message;
      },
    },
    maxBodyBytes: config.maxGraphqlBodyBytes,
    version,
    log,
  });

  let nodeCalls: ReturnType<typeof nodeCallEndpoint> | null = null;

  const server = (parts.server = createServer(
    hubRouter({
      gate,
      yoga,
      hooks,
      mcp: mcpServer,
      nodeCalls: () => nodeCalls,
      ready: async () => ({
        ...storeChecks(db, { eventLog, records: Object.values(records) }),
        tmux: await tmux.reachable(),
        ...(config.redisUrl ? { redis: cluster?.connected ?? false } : {}),
      }),
      dashboard: staticFiles(dashboardDir),
      metrics,
      events: plainSse({
        exists: (id) => sessions.get(id) !== undefined,
        isEnded: (id) => sessions.isEnded(id),
        events,
        log,
      }),
      turns: turnsSse({
        exists: (id) => hub.get(id) !== undefined,
        isEnded: (id) => hub.get(id)?.status === SessionStatus.Stopped,
        turns: (id, after) => turnFeed(hub, id, after),
        completedAt: async (id, turnId) =>
          (await turns.turns(id)).find((turn) => turn.id === turnId)?.completedAt ?? null,
        usage: (turn) => turnUsage(turn, Date.now),
        log,
      }),
      connections,
      maxBodyBytes: config.maxGraphqlBodyBytes,
      maxConnections: config.maxConnections,
      log,
    }),
  ));
  parts.wsServer = graphqlOverWebSocket(
    server,
    yoga,
    {
      gate,
      connections,
      maxMessageBytes: config.maxGraphqlBodyBytes,
      maxSubscriptions: config.maxSubscriptions,
      fanoutBudgetMs: config.fanoutBudgetMs,
      fanout: metrics.fanout,
      log,
    },
    config.graphqlWsServer,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  parts.hookListeners = new HookListeners(
    `http://${hookHost(config.host)}:${port}/hooks`,
    guarded(hooks, log),
    { [mcpPath]: guarded(mcpServer, log) },
  );
  let earlierGlobalUrl: string | null = null;
  try {
    const moved = await globalHooks.follow();
    if (moved)
      log.info(
        { path: moved.path, url: moved.url, from: moved.from },
        'global hooks point here again',
      );
    earlierGlobalUrl = moved?.from ?? null;
  } catch (error) {
    log.warn({ err: error }, 'global hooks could not be pointed here');
  }
  await sessions.start(parts.hookListeners, earlierGlobalUrl);
  if (config.redisUrl) {
    cluster = parts.cluster = await ClusterHub.join(
      { hub: localHub, sessions, eventLog, bus, permissionChanges, streamOptions },
      {
        redisUrl: config.redisUrl,
        redisPrefix: config.redisPrefix,
        nodeName: config.nodeName || hostname(),
        url: config.advertiseUrl || `http://${hookHost(config.host)}:${port}`,
        leaseMs: config.nodeLeaseSeconds * 1000,
        startTimeoutMs: config.startTimeoutSeconds * 1000,
        stopTimeoutMs,
        retainEvents: config.retainEvents,
        subscriberBuffer: config.subscriberBuffer,
        log,
      },
    );
    const joined = cluster;
    nodeCalls = nodeCallEndpoint(joined.secret, (call) => joined.run(call), {
      maxBodyBytes: config.maxGraphqlBodyBytes,
      log,
    });
    hub = joined;
  }
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${shownHost}:${port}${yoga.graphqlEndpoint}`, port };
}
