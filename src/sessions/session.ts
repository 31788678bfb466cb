import type { BudgetHold } from '../costs/budgets.js';
import type { SessionWorktree } from '../git/worktrees.js';
import { RuntimeKind, SessionOrigin } from '../runtime/session-runtime.js';
import type { PaneAddress } from '../runtime/tmux-pane.js';

/** Lifecycle states; their moves are in session-lifecycle.ts (and docs/sessions.md). */
export const SessionStatus = {
  /** tmux runs claude; its SessionStart has not arrived yet. */
  Starting: 'STARTING',
  /** The turn is over and claude waits for input. */
  Idle: 'IDLE',
  /** A prompt was submitted and the turn is running. */
  Busy: 'BUSY',
  /** A permission request waits for a person (derived from the pending requests). */
  AwaitingPermission: 'AWAITING_PERMISSION',
  /** claude sits on a startup dialog (blockedReason says which). */
  Blocked: 'BLOCKED',
  /** Ended on purpose: stopSession, or claude exited after its SessionEnd. */
  Stopped: 'STOPPED',
  /** claude exited unexpectedly or failed to start. */
  Crashed: 'CRASHED',
  /**
   * claude runs, but its hooks post to an address this hub could not listen on again after a
   * restart (error says which and why): it is relaunched with --resume once its turn is over.
   */
  Disconnected: 'DISCONNECTED',
  /** It runs on another node of the cluster, whose lease lapsed: nobody can tell what it does. */
  Unreachable: 'UNREACHABLE',
  /** Idle while its account's usage limit holds (derived from usageLimit): messages wait for the reset. */
  Limited: 'LIMITED',
} as const;
export type SessionStatus = (typeof SessionStatus)[keyof typeof SessionStatus];

/** Everything the hub keeps about a session, in memory and in the store. */
export interface SessionRecord {
  /** The first Claude session id; the hub's id for the session for its whole life. */
  readonly id: string;
  readonly name: string | null;
  readonly cwd: string;
  readonly model: string | null;
  /** The CLI's value (`default`, `acceptEdits`, ...), or null for the CLI's default. */
  readonly permissionMode: string | null;
  /** How its claude runs: in tmux (TMUX) or headless over stream-json (HEADLESS). */
  readonly runtime: RuntimeKind;
  /** MANAGED: the hub started it. EXTERNAL: a person did; the global hooks report it. */
  readonly origin: SessionOrigin;
  /** An EXTERNAL session's tmux server and pane; null outside tmux, and for MANAGED ones. */
  pane: PaneAddress | null;
  /** claude's process id, once a hook or its session file said it. */
  pid: number | null;
  /** The tmux session of a TMUX session (named for every session, used by TMUX ones). */
  readonly tmuxSession: string;
  readonly settingsPath: string;
  /** Where claude's hooks post: the hub's hook URL when this claude was launched. */
  hookUrl: string | null;
  /** SHA-256 of the per-session hook secret; the secret itself is never stored. */
  hookSecretHash: string;
  /** The current Claude session id: changes after `/clear`. */
  claudeSessionId: string;
  /** The conversation's transcript, as the latest hook payload gave it. */
  transcriptPath: string | null;
  status: SessionStatus;
  /** When status last changed. */
  statusSince: number;
  /** Which startup dialog holds a BLOCKED session. */
  blockedReason: string | null;
  /** Why the session crashed or failed to start, with what the screen showed. */
  error: string | null;
  /** Set once a SessionEnd that really ends the session was received. */
  ended: boolean;
  restartCount: number;
  /** When it was restarted lately, for the restart limit. */
  restartTimes: number[];
  readonly createdAt: number;
  lastEventAt: number | null;
  lastAssistantMessage: string | null;
  /** Set by createSession and setSessionLabels: unique, checked (see session-labels.ts). */
  labels: string[];
  /**
   * The name of the token whose createSession made it (`local` when the hub has no tokens);
   * null for an EXTERNAL session, which a person started.
   */
  readonly createdBy: string | null;
  /**
   * The git worktree made for it (createSession's `worktree`), where `cwd` lies; null for a
   * session without one (and every record stored before worktrees).
   */
  worktree: SessionWorktree | null;
  /** What it may spend, in US dollars (createSession's budgetUsd); null: no budget of its own. */
  budgetUsd: number | null;
  /**
   * The budget it reached (its own, a label's or its token's): its queued messages wait until
   * that budget is raised. Null while it is under every budget.
   */
  budgetHold: BudgetHold | null;
  /**
   * Who its claude bills (see claudeAccount), learned at launch; null for a session started by
   * hand and for records stored before accounts.
   */
  account: string | null;
  /** The usage limit its account reached: its messages wait until it resets. Null while none. */
  usageLimit: UsageLimitHold | null;
  /** The session that started it with the hub's start_session tool; null for any other. */
  readonly parentId: string | null;
  /** What it may do with the hub's orchestration tools; null: it is not offered them. */
  readonly orchestration: Orchestration | null;
}

/** Which sessions an orchestrating session may act on. */
export const OrchestrationReach = {
  /** Only those it started. */
  Children: 'CHILDREN',
  /** Every session of the hub. */
  All: 'ALL',
} as const;
export type OrchestrationReach = (typeof OrchestrationReach)[keyof typeof OrchestrationReach];

/** An orchestrating session's grant: its reach, and how deep in a tree of starts it is. */
export interface Orchestration {
  readonly reach: OrchestrationReach;
  /** 0 for a session a client created; its children's children are 2, and so on. */
  readonly depth: number;
}

/** Where a usage limit's reset time came from. */
export const LimitReset = {
  /** The API told claude when the limit resets. */
  Claude: 'CLAUDE',
  /** It did not (an API key's 429 after claude's own retries): the hub waits, longer each time. */
  Backoff: 'BACKOFF',
} as const;
export type LimitReset = (typeof LimitReset)[keyof typeof LimitReset];

/** A usage limit holding a session's messages until it resets. */
export interface UsageLimitHold {
  /** When it resets (ms since the epoch): the hub lets the messages go then. */
  readonly until: number;
  /** Which limit (`five_hour`, `seven_day`, ...) when claude said. */
  readonly kind: string | null;
  readonly reset: LimitReset;
  /** When the hub learned of it. */
  readonly since: number;
  /** Whether it cut off this session's turn: then the hub asks claude to go on at the reset. */
  readonly cutOff: boolean;
}

/** Whether a person can see and type into the session's claude (a HEADLESS one has no terminal). */
export function hasTerminal(record: Pick<SessionRecord, 'runtime'>): boolean {
  return record.runtime !== RuntimeKind.Headless;
}

export function isRunning(status: SessionStatus): boolean {
  return status !== SessionStatus.Stopped && status !== SessionStatus.Crashed;
}

/** What every new record starts with, whoever started its claude. */
export function freshLifecycle(now: number) {
  return {
    hookUrl: null,
    hookSecretHash: '',
    statusSince: now,
    blockedReason: null,
    error: null,
    ended: false,
    restartCount: 0,
    restartTimes: [],
    createdAt: now,
    lastEventAt: null,
    lastAssistantMessage: null,
  } satisfies Partial<SessionRecord>;
}

/** The fields added to records since the first release, with what a record without them means. */
function addedFields(): Pick<
  SessionRecord,
  | 'runtime'
  | 'origin'
  | 'pane'
  | 'pid'
  | 'hookUrl'
  | 'transcriptPath'
  | 'restartTimes'
  | 'statusSince'
  | 'blockedReason'
  | 'labels'
  | 'createdBy'
  | 'worktree'
  | 'budgetUsd'
  | 'budgetHold'
  | 'account'
  | 'usageLimit'
  | 'parentId'
  | 'orchestration'
> {
  return {
    runtime: RuntimeKind.Tmux,
    origin: SessionOrigin.Managed,
    pane: null,
    pid: null,
    hookUrl: null,
    transcriptPath: null,
    restartTimes: [],
    statusSince: 0,
    blockedReason: null,
    labels: [],
    createdBy: null,
    worktree: null,
    budgetUsd: null,
    budgetHold: null,
    account: null,
    usageLimit: null,
    parentId: null,
    orchestration: null,
  };
}

/**
 * A session record as a store or another node kept it, with the fields added since it may have
 * been written filled in, so that nothing else has to check for them.
 */
export function withStoredDefaults<T extends SessionRecord>(stored: T): T {
  return { ...addedFields(), ...stored };
}
