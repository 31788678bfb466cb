import type { BudgetHolds } from '../sessions/budget-holds.js';
import type { Server } from 'node:http';
import type Database from 'better-sqlite3';
import type { ClaudeCli } from '../claude/claude-cli.js';
import type { ClusterHub } from '../cluster/cluster-hub.js';
import type { ScheduleShare } from '../cluster/schedule-share.js';
import type { HubConfig } from '../config/index.js';
import type { HookListeners } from '../ingest/hook-listeners.js';
import type { Logger } from '../log.js';
import type { HubMetrics } from '../metrics.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { PolicyFileWatch } from '../permissions/policy-file-watch.js';
import type { Scheduler } from '../schedules/scheduler.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { UsageLimits } from '../sessions/usage-limits.js';
import type { SqliteEventLog } from '../store/sqlite-event-log.js';
import type { WebSocketEndpoint } from '../subscriptions/graphql-ws-server.js';
import type { Terminals } from '../terminal/terminals.js';
import type { PartOptions } from './part-options.js';
import type { Handler } from './routes.js';

/** What a started hub holds, each part set once it is taken, so a failed start releases it. */
export interface Parts {
  metrics?: HubMetrics;
  db?: Database.Database;
  eventLog?: SqliteEventLog;
  claude?: ClaudeCli;
  permissions?: PermissionBroker;
  /** The --policy-file's watch. */
  policyFile?: PolicyFileWatch;
  terminals?: Terminals;
  sessions?: SessionManager;
  /** Holds sessions at their budgets: made with the API, asked by the sessions' queues. */
  budgetHolds?: BudgetHolds;
  /** Sends the scheduled prompts at their ticks. */
  scheduler?: Scheduler;
  /** Holds the sessions of an account at its usage limit until the reset. */
  usageLimits?: UsageLimits;
  pruner?: NodeJS.Timeout;
  server?: Server;
  wsServer?: WebSocketEndpoint;
  hookListeners?: HookListeners;
  /** Set once this hub has joined its cluster (with --redis-url). */
  cluster?: ClusterHub;
  /** The cluster's schedules and who fires each tick, set with `cluster`. */
  scheduleShare?: ScheduleShare;
  /** The endpoint of calls from the cluster's other nodes, set with `cluster`. */
  nodeCalls?: Handler;
}

/** What every step of a start reads, and where it notes what it took. */
export interface StartContext {
  readonly config: HubConfig;
  /** Each part's options, derived from the config (see partOptions). */
  readonly options: PartOptions;
  readonly log: Logger;
  readonly parts: Parts;
}

/** Releases what a hub took, in the order that loses nothing: sessions before the server. */
export async function release(parts: Parts, stopSessions: boolean): Promise<void> {
  if (parts.pruner) clearInterval(parts.pruner);
  parts.scheduler?.close();
  parts.usageLimits?.close();
  parts.policyFile?.close();
  await parts.terminals?.close();
  await parts.sessions?.close(stopSessions);
  parts.permissions?.close();
  const { wsServer, server } = parts;
  await wsServer?.close();
  server?.closeAllConnections();
  if (server?.listening) await new Promise((resolve) => server.close(resolve));
  await parts.hookListeners?.close();
  parts.scheduleShare?.close();
  await parts.cluster?.close();
  await parts.claude?.close();
  parts.eventLog?.flush();
  parts.db?.close();
  parts.metrics?.close();
}
