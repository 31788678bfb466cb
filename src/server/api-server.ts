import { systemClock } from '../clock.js';
import { BudgetHolds } from '../sessions/budget-holds.js';
import { UsageLimits } from '../sessions/usage-limits.js';
import { CostRecorder, mayEndTurn } from '../costs/cost-recorder.js';
import type { TurnCost } from '../costs/turn-cost.js';
import type { LocalCosts } from '../cluster/local-parts.js';
import type { Turn } from '../runs/run-fold.js';
import { maxFileDiffChars, SessionFileChanges } from '../changes/session-file-changes.js';
import { maxDiffChars } from '../git/diff-bounds.js';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AccessGate, ConnectionCounter } from '../auth/access-gate.js';
import type { Tokens } from '../auth/tokens.js';
import { staticFiles } from '../http/static-files.js';
import type { Hub } from '../hub/hub.js';
import { LocalHub } from '../hub/local-hub.js';
import { Orchestrator } from '../hub/orchestrator.js';
import { sessionTools } from '../hub/session-tools.js';
import { Scheduler } from '../schedules/scheduler.js';
import { hookEndpoint } from '../ingest/hook-endpoint.js';
import { mcpEndpoint } from '../mcp/mcp-endpoint.js';
import type { HubMetrics } from '../metrics.js';
import type { PolicyFileWatch } from '../permissions/policy-file-watch.js';
import { turnFeed } from '../runs/run-reader.js';
import { TurnIndex } from '../runs/turn-index.js';
import { turnUsage } from '../runs/turn-usage.js';
import { SessionStatus } from '../sessions/session.js';
import { storeChecks } from '../store/database.js';
import { graphqlOverWebSocket } from '../subscriptions/graphql-ws-server.js';
import { plainSse, turnsSse } from '../subscriptions/plain-sse.js';
import { sessionEvents, type SessionEventsDeps } from '../subscriptions/session-events.js';
import type { HubCore } from './hub-core.js';
import { hubYoga, type HubYoga } from './hub-yoga.js';
import type { Store } from './open-store.js';
import type { StartContext } from './parts.js';
import { hubRouter, type Handler } from './routes.js';
import { warmUp } from './warm-up.js';

const dashboardDir = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));
const { version } = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
) as { version: string };

/** Who may call: the tokens, the checks of every request, the open connections per token. */
export interface Access {
  readonly tokens: Tokens;
  readonly gate: AccessGate;
  readonly connections: ConnectionCounter;
}

export interface ApiServerDeps {
  readonly access: Access;
  readonly store: Store;
  readonly core: HubCore;
  readonly metrics: HubMetrics;
  /** Counts the open event streams, for the subscribers gauge. */
  readonly streams: NonNullable<SessionEventsDeps['streams']>;
  /** The --policy-file's watch, for Query.policyFile; null without one. */
  readonly policyFile: PolicyFileWatch | null;
}

/** The HTTP server, not yet listening, and what the later steps of the start need of it. */
export interface ApiServer {
  readonly server: Server;
  readonly yoga: HubYoga;
  /** This process's hub, which the cluster's view serves its local sessions from. */
  readonly localHub: LocalHub;
  /** POST /hooks and /mcp, which listeners on earlier hook addresses answer too. */
  readonly hooks: Handler;
  readonly mcp: Handler;
  readonly streamOptions: Pick<SessionEventsDeps, 'bufferLimit' | 'replayPageSize' | 'streams'>;
  /** This node's sessions' usage limits, which the cluster shares. */
  readonly usageLimits: UsageLimits;
  /** This node's turns' costs, which the other nodes of a cluster ask for. */
  readonly costs: LocalCosts;
  /** The scheduled prompts, armed by `start` once the sessions are adopted and the cluster joined. */
  readonly scheduler: Scheduler;
}

/**
 * Builds the API on the hub's parts: the local Hub, yoga (warmed up before the ready line), the
 * hook and MCP endpoints, the plain streams, and the HTTP server with graphql-ws on it. The
 * schema and the streams call the cluster's Hub once this node has joined (`parts.cluster`).
 */
export async function apiServer(
  { config, options, log, parts }: StartContext,
  deps: ApiServerDeps,
): Promise<ApiServer> {
  const { access, store, core, metrics } = deps;
  const { sessions, channels } = core;
  const streamOptions = { ...options.streams, streams: deps.streams };
  const events = (sessionId: string, after: number | null) =>
    sessionEvents(
      {
        log: store.eventLog,
        bus: core.bus,
        ...streamOptions,
        liveFrom: (id) => store.eventLog.lastSeq(id),
        isEnded: (id) => sessions.isEnded(id),
      },
      sessionId,
      after,
    );
  const hub = (): Hub => parts.cluster ?? localHub;
  // A cluster's log holds the events of other nodes too, which this one does not hear.
  const turns = new TurnIndex(
    (id, read) => hub().log.read(id, read),
    options.cluster ? {} : { local: store.eventLog },
  );
  const changes = new SessionFileChanges({
    ...core.changes,
    turns,
    read: (id, read) => hub().log.read(id, read),
    permissions: (id) => core.permissions.list().filter((request) => request.sessionId === id),
    bounds: { perFile: maxFileDiffChars, total: maxDiffChars },
    log,
  });
  const localHub = new LocalHub({
    sessions,
    permissions: core.permissions,
    changes,
    log: store.eventLog,
    events,
    permissionChanges: core.permissionChanges,
    terminals: core.terminals,
    subscriberBuffer: config.subscriberBuffer,
  });
  const holds = (parts.budgetHolds = new BudgetHolds({
    sessions,
    budgets: core.costs.budgets,
    settle: (id) => recorder.settle(id),
    mayEndTurn,
    clock: systemClock,
    log,
  }));
  const recorder = new CostRecorder({
    turns,
    ledger: core.costs.ledger,
    prices: core.costs.prices,
    session: (id) => sessions.get(id),
    recorded: (row) => {
      metrics.turnCosted(row.models);
      // The session's view, which the other nodes read its cost from, is shared again.
      const record = sessions.get(row.sessionId);
      if (record) parts.cluster?.localChanged('sessions', record);
    },
    log,
  });
  const { ledger } = core.costs;
  const turnCost = async (turn: Turn): Promise<TurnCost> => {
    const kept = ledger.ofTurn(turn.id);
    return kept
      ? { costUsd: kept.costUsd, source: kept.source, models: kept.models }
      : recorder.costOf(turn);
  };
  const costs: LocalCosts = {
    usage: (since, groupBy) => ledger.usage(since, groupBy),
    sessionCost: (id) => ledger.sessionCost(id),
    turnCosts: async (id) =>
      Promise.all(
        (await turns.turns(id)).map(async (turn) => ({
          turnId: turn.id,
          ...(await turnCost(turn)),
        })),
      ),
  };
  const limits = (parts.usageLimits = new UsageLimits({
    sessions,
    clock: options.limitClock,
    log,
    share: (account, limit) => parts.cluster?.shareUsageLimit(account, limit),
  }));
  limits.start();
  core.bus.subscribeAll((event) => {
    turns.heard(event);
    recorder.heard(event);
    holds.heard(event);
    limits.heard(event);
  });
  const scheduler = (parts.scheduler = new Scheduler({
    table: store.records.schedules,
    hub,
    claims: () => parts.scheduleShare ?? null,
    clock: options.scheduleClock,
    log,
    changed: (change) => parts.scheduleShare?.changed(change),
  }));
  scheduler.load();
  const yoga = hubYoga({
    config,
    tokens: access.tokens,
    gate: access.gate,
    hub,
    audit: core.audit,
    rules: core.rules,
    policyFile: deps.policyFile,
    turns,
    costs: {
      recorder,
      holds,
      sessions,
      ...core.costs,
      usage: async (since, groupBy) =>
        parts.cluster ? parts.cluster.usage(since, groupBy) : ledger.usage(since, groupBy),
      sessionCost: (id) => (parts.cluster ?? costs).sessionCost(id),
      remoteTurnCosts: (id) => parts.cluster?.turnCosts(id) ?? null,
    },
    globalHooks: core.globalHooks,
    channels,
    schedules: scheduler,
    claude: () => core.claude.facts(config.claudeBin),
    log,
  });
  await warmUp(yoga);
  const hooks = hookEndpoint(sessions, { maxBodyBytes: options.maxHookBodyBytes, log, metrics });
  const mcp = mcpEndpoint({
    sessionOf: (secret) => sessions.sessionOfSecret(secret)?.id ?? null,
    tools: {
      ...sessionTools(channels, sessions),
      orchestration: new Orchestrator({
        hub,
        audit: core.audit,
        limits: { maxChildren: config.maxChildren, maxDepth: config.maxOrchestrationDepth },
      }),
    },
    maxBodyBytes: options.maxBodyBytes,
    version,
    log,
  });
  const server = (parts.server = createServer(
    hubRouter({
      gate: access.gate,
      yoga,
      hooks,
      mcp,
      nodeCalls: () => parts.nodeCalls ?? null,
      ready: async () => ({
        ...storeChecks(store.db, {
          eventLog: store.eventLog,
          records: Object.values(store.records),
        }),
        tmux: await core.tmux.reachable(),
        ...(options.cluster ? { redis: parts.cluster?.connected ?? false } : {}),
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
        exists: (id) => hub().get(id) !== undefined,
        isEnded: (id) => hub().get(id)?.status === SessionStatus.Stopped,
        turns: (id, after) => turnFeed(hub(), id, after),
        completedAt: async (id, turnId) =>
          (await turns.turns(id)).find((turn) => turn.id === turnId)?.completedAt ?? null,
        usage: (turn) => turnUsage(turn, Date.now),
        log,
      }),
      connections: access.connections,
      maxBodyBytes: options.maxBodyBytes,
      maxConnections: config.maxConnections,
      log,
    }),
  ));
  const { server: wsKind, ...wsLimits } = options.graphqlWs;
  parts.wsServer = graphqlOverWebSocket(
    server,
    yoga,
    {
      ...wsLimits,
      gate: access.gate,
      connections: access.connections,
      fanout: metrics.fanout,
      log,
    },
    wsKind,
  );
  return {
    server,
    yoga,
    localHub,
    hooks,
    mcp,
    streamOptions,
    usageLimits: limits,
    costs,
    scheduler,
  };
}
