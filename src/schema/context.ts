import type { TurnIndex } from '../runs/turn-index.js';
import type { Hub } from '../hub/hub.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { RuleBook } from '../permissions/rule-book.js';
import type { PolicyFileStatus } from '../permissions/policy-file-watch.js';
import type { Principal } from '../auth/tokens.js';
import type { GlobalHooks } from '../hooks/global-hooks.js';
import type { Channels } from '../channels/channels.js';
import type { ClaudeFacts } from '../claude/claude-cli.js';
import type { CostRecorder } from '../costs/cost-recorder.js';
import type { Prices } from '../costs/prices.js';
import type { BudgetBook } from '../costs/budgets.js';
import type { BudgetHolds } from '../sessions/budget-holds.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { UsageGroup, UsageLedger, UsageTotal } from '../costs/usage-ledger.js';
import type { TurnCost } from '../costs/turn-cost.js';
import type { Scheduler } from '../schedules/scheduler.js';

/** Turns' costs: the ledger of completed ones, and what works out one not kept yet. */
export interface Costs {
  readonly recorder: Pick<CostRecorder, 'costOf'>;
  readonly ledger: Pick<
    UsageLedger,
    'ofTurn' | 'sessionCost' | 'usage' | 'labelCost' | 'tokenCost'
  >;
  readonly prices: Pick<Prices, 'tables'>;
  readonly budgets: BudgetBook;
  readonly holds: Pick<BudgetHolds, 'budgetsChanged'>;
  /** This node's sessions, whose own budgets are set here. */
  readonly sessions: Pick<SessionManager, 'amend'>;
  /** Query.usage: this node's ledger, or in a cluster every live node's summed. */
  readonly usage: (since: number, groupBy: UsageGroup) => Promise<readonly UsageTotal[]>;
  /** What a session's kept turns cost, on whichever node runs it; null before any. */
  readonly sessionCost: (sessionId: string) => number | null;
  /** The turns' costs of a session another node runs, asked of it; null for this node's own. */
  readonly remoteTurnCosts: (
    sessionId: string,
  ) => Promise<readonly (TurnCost & { readonly turnId: string })[]> | null;
}

/** What every resolver gets. */
export interface HubContext {
  /** The sessions, their events and the commands: of this process, or of the whole cluster. */
  readonly hub: Hub;
  readonly audit: AuditLog;
  /** The permission rules in force on this node (the cluster keeps every node's the same). */
  readonly rules: RuleBook;
  /** How this node's --policy-file last loaded; null without one. */
  readonly policyFile: { status(): PolicyFileStatus } | null;
  /** Each session's turns, folded once and kept up to date as events come. */
  readonly turns: TurnIndex;
  /** Turns' costs: this node's, and the cluster's through the functions that say so. */
  readonly costs: Costs;
  /** The hooks that make every claude on the machine report here, and their install. */
  readonly globalHooks: GlobalHooks;
  /** The scheduled prompts (every node of a cluster fires its ticks through the cluster's Hub). */
  readonly schedules: Pick<Scheduler, 'list' | 'add' | 'remove'>;
  /** The named outputs sessions answer to, on this process. */
  readonly channels: Channels;
  /** What is known of the claude the hub's sessions run: its version and hook events. */
  readonly claude: () => Promise<ClaudeFacts>;
  /** Who is calling, and from which address. */
  readonly principal: Principal;
  readonly address: string;
}

/** The part of the context that is the same for every request. */
export type SharedContext = Omit<HubContext, 'principal' | 'address'>;
