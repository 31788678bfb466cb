import type { UsageLimits } from '../sessions/usage-limits.js';
import type { UsageGroup, UsageTotal } from '../costs/usage-ledger.js';
import type { EventLog } from '../events/event-log.js';
import type { LocalEventBus } from '../events/event-bus.js';
import type { Topic } from '../events/topic.js';
import type { LocalHub } from '../hub/local-hub.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { RuleBook } from '../permissions/rule-book.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { SessionEventsDeps } from '../subscriptions/session-events.js';
import type { WireTurnCost } from './node-ops.js';

/** This node's turns' costs, which the other nodes ask of it. */
export interface LocalCosts {
  /** This node's ledger, grouped. */
  usage(since: number, groupBy: UsageGroup): UsageTotal[];
  /** What a session of this node cost so far (its kept turns); null before any. */
  sessionCost(sessionId: string): number | null;
  /** Each turn of a session of this node: its kept cost, else worked out now. */
  turnCosts(sessionId: string): Promise<WireTurnCost[]>;
}

/** The parts of this process's own hub that its view of the cluster serves local sessions from. */
export interface LocalParts {
  readonly hub: LocalHub;
  readonly sessions: SessionManager;
  readonly eventLog: EventLog;
  readonly bus: LocalEventBus;
  readonly permissionChanges: Topic<PermissionRecord>;
  /** The permission rules in force here: the API's are the cluster's (see RuleShare). */
  readonly rules: RuleBook;
  /** Usage limits of this node's sessions' accounts: the cluster's (see LimitShare). */
  readonly usageLimits: Pick<UsageLimits, 'shared'>;
  readonly costs: LocalCosts;
  /** Everything sessionEvents needs but the log, the bus and the seams. */
  readonly streamOptions: Pick<SessionEventsDeps, 'bufferLimit' | 'replayPageSize' | 'streams'>;
}
