import type { Clock } from '../clock.js';
import { AccessGate, ConnectionCounter } from '../auth/access-gate.js';
import { loadTokens, Tokens, type TokenEntry } from '../auth/tokens.js';
import type { HubConfig } from '../config/index.js';
import { createLogger, type Logger } from '../log.js';
import { countBy, HubMetrics } from '../metrics.js';
import type { SessionRecord } from '../sessions/session.js';
import { adoptSessions } from './adopt-sessions.js';
import { apiServer, type Access } from './api-server.js';
import { setConfiguredBudgets } from './configured-budgets.js';
import { hubCore } from './hub-core.js';
import { joinCluster } from './join-cluster.js';
import { listen, shownHost } from './listen.js';
import { openStore } from './open-store.js';
import { partOptions } from './part-options.js';
import { release, type Parts, type StartContext } from './parts.js';
import { watchPolicyFile } from './policy-file.js';
import { startRetention } from './retention.js';

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
  /** The clock usage limits reset by (the system's by default). */
  readonly limitClock?: Clock;
  /** The clock scheduled prompts tick by (the system's by default). */
  readonly scheduleClock?: Clock;
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

/**
 * The hub, built without I/O: each part's options derived from the config, the logger; `start`
 * does the rest.
 */
export function buildApp(config: HubConfig, appOptions: AppOptions = {}): App {
  const log = appOptions.logger ?? createLogger(config.logLevel);
  const { paneCheckMs, limitClock, scheduleClock } = appOptions;
  const options = partOptions(config, appOptions.env ?? process.env, {
    ...(paneCheckMs === undefined ? {} : { paneCheckMs }),
    ...(limitClock === undefined ? {} : { limitClock }),
    ...(scheduleClock === undefined ? {} : { scheduleClock }),
  });
  let parts: Parts = {};
  return {
    async start() {
      parts = {};
      try {
        return await start({ config, options, log, parts });
      } catch (error) {
        await release(parts, false);
        throw error;
      }
    },
    stop: () => release(parts, config.stopSessionsOnExit),
  };
}

/**
 * The start order: who may call, the store, the hub's parts (construction only), the --budget
 * budgets, the policy file's rules, retention, the API, listening, the sessions re-adopted (and
 * checked against changed budgets), the cluster joined, the schedules armed. Each step notes in `parts` what it
 * takes, for `release`.
 */
async function start(hub: StartContext): Promise<{ url: string; port: number }> {
  const { config, options, parts } = hub;
  const tokens = loadTokens(config);
  const access = accessOf(config, tokens);
  const streams = new OpenStreams();
  const metrics = (parts.metrics = hubMetrics(parts, streams));
  const store = openStore(hub);
  const core = hubCore(hub, { store, tokens, metrics });
  // --budget wins at every start; the API may change it until the next one.
  const budgetsSet = setConfiguredBudgets(core.costs.budgets, config.budgets, Date.now(), hub.log);
  const policyFile = watchPolicyFile(hub, core.rules);
  // Learned in the background: a session's launch and Query.claude wait for it, the start not.
  void core.claude.facts(config.claudeBin);
  startRetention(hub, { ...core, eventLog: store.eventLog }, metrics);
  const api = await apiServer(hub, { access, store, core, metrics, streams, policyFile });
  const port = await listen(api.server, config.host, config.port);
  await adoptSessions(hub, { ...core, ...api, port });
  // Sessions held at an earlier amount go on, those over the new one are held.
  if (budgetsSet > 0) await parts.budgetHolds?.budgetsChanged();
  if (options.cluster) await joinCluster(hub, options.cluster, { port, api, core, store });
  // Last: a tick missed while the hub was down fires now, into adopted sessions, through the
  // cluster once joined.
  api.scheduler.start();
  return { url: `http://${shownHost(config.host)}:${port}${api.yoga.graphqlEndpoint}`, port };
}

/** Who may call the hub: its tokens, the checks of each request, the connections per token. */
function accessOf(config: HubConfig, entries: readonly TokenEntry[]): Access {
  const tokens = new Tokens(entries);
  return {
    tokens,
    gate: new AccessGate(tokens, config.corsOrigins),
    connections: new ConnectionCounter(config.maxConnections),
  };
}

/**
 * The event streams open now (graphql-ws, SSE, plain SSE), for the subscribers gauge, and those
 * cut so far for falling behind.
 */
class OpenStreams {
  count = 0;
  cuts = 0;
  readonly open = (): void => void this.count++;
  readonly close = (): void => void this.count--;
  readonly cut = (): void => void this.cuts++;
}

/**
 * The hub's metrics. Their gauges are read at a scrape, which comes once the hub listens: after
 * the sessions are built.
 */
function hubMetrics(parts: Parts, streams: OpenStreams): HubMetrics {
  const sessions = () => parts.sessions?.list() ?? [];
  const statusOf = (record: SessionRecord) => parts.sessions?.statusOf(record) ?? record.status;
  return new HubMetrics({
    sessionsByStatus: () => countBy(sessions(), statusOf),
    messagesByStatus: () =>
      countBy(parts.sessions?.messages.all() ?? [], (message) => message.status),
    restarts: () => sessions().reduce((sum, record) => sum + record.restartCount, 0),
    subscribers: () => streams.count,
    subscribersCut: () => streams.cuts,
  });
}
