/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** What a tool call does: COMMAND (Bash), FILE_CHANGE (Write, Edit, MultiEdit, NotebookEdit), READ, WEB_SEARCH, SUBAGENT (Task), MCP, another TOOL, or a WARNING (a permission denied). */
export type ActionKind =
  | 'COMMAND'
  | 'FILE_CHANGE'
  | 'MCP'
  | 'READ'
  | 'SUBAGENT'
  | 'TOOL'
  | 'WARNING'
  | 'WEB_SEARCH';

/** An action is STARTED, then COMPLETED. */
export type ActionPhase =
  | 'COMPLETED'
  | 'STARTED';

export type AttentionReason =
  | 'BLOCKED'
  | 'BUDGET_REACHED'
  | 'CRASHED'
  | 'DISCONNECTED'
  | 'IDLE'
  | 'PERMISSION';

/** What a budget limits: one SESSION's spending (createSession's budgetUsd), or that of all sessions with a LABEL, or created by a TOKEN (by its name). */
export type BudgetScope =
  | 'LABEL'
  | 'SESSION'
  | 'TOKEN';

/** Where a turn's cost comes from: CLAUDE (claude's own figure, a HEADLESS session's `result` line), PRICE_TABLE (its transcript's tokens per model at the price table's prices: TMUX sessions), UNKNOWN (no usage yet, or a model no price table has). */
export type CostSource =
  | 'CLAUDE'
  | 'PRICE_TABLE'
  | 'UNKNOWN';

export type CreateSessionInput = {
  /** What the session may spend, in US dollars (more than 0, at most 1,000,000): once its completed turns cost that much, its queued messages wait (budgetHold) until the budget is raised. See docs/costs.md. */
  budgetUsd?: number | null | undefined;
  /** An existing directory claude works in. */
  cwd: string;
  /** A UUID for the Claude session; generated when absent. */
  id?: string | null | undefined;
  /** Up to 32 labels of 1 to 64 letters, digits or `._:/=-`; duplicates are dropped. */
  labels?: Array<string> | null | undefined;
  /** claude's --model, e.g. sonnet or a full model name. */
  model?: string | null | undefined;
  name?: string | null | undefined;
  /** The cluster node to run it on (Query.nodes lists them); the node that answers when absent. */
  node?: string | null | undefined;
  /** Offer it the hub's orchestration tools (start, ask, message, watch and stop other sessions, its children); never offered otherwise. See docs/orchestration.md. */
  orchestrate?: boolean | null | undefined;
  /** With orchestrate: which sessions it may act on; CHILDREN when absent. */
  orchestrationReach?: OrchestrationReach | null | undefined;
  permissionMode?: PermissionMode | null | undefined;
  /** Sent as the first message as soon as the session is ready. */
  prompt?: string | null | undefined;
  /** Continue a conversation claude had in cwd (made by hand, say): its id, or its resume line (`claude --resume <id>` or `-r <id>`, backticks or not). The session's id is the conversation's; CONVERSATION_NOT_FOUND when claude has none by that id there. */
  resume?: string | null | undefined;
  /** How claude runs; the hub's --default-runtime (TMUX unless told) when absent. */
  runtime?: SessionRuntime | null | undefined;
  /** Answer claude's workspace-trust dialog for this cwd with "Yes, I trust this folder". */
  trustWorkspace?: boolean | null | undefined;
  /** Run claude in a new git worktree of cwd's repository, on a branch of its own (not with resume). */
  worktree?: WorktreeInput | null | undefined;
};

export type DecidePermissionInput = {
  behavior: PermissionBehavior;
  /** With DENY: also stop the turn. */
  interrupt?: boolean | null | undefined;
  /** With DENY: shown to the model as the reason. */
  message?: string | null | undefined;
  requestId: string;
  /** With ALLOW: run the tool with this input instead. */
  updatedInput?: unknown;
};

/** How a file changed: added, modified, deleted, or renamed (with or without edits). */
export type FileChangeKind =
  | 'ADD'
  | 'DELETE'
  | 'MODIFY'
  | 'RENAME';

/** Which settings file holds the global hooks. */
export type HookScope =
  /** One project's `.claude/settings.local.json` (kept out of git by Claude Code). */
  | 'PROJECT'
  /** The user's: `settings.json` in the Claude config dir (CLAUDE_CONFIG_DIR, else ~/.claude). Every claude the user runs reports. */
  | 'USER';

export type InputMatchInput = {
  path: string;
  pattern: string;
};

export type MessageStatus =
  | 'DELIVERED'
  | 'FAILED'
  | 'QUEUED'
  | 'SENT';

/** Which sessions an orchestrating session may act on with the hub's tools. */
export type OrchestrationReach =
  /** Every session of the hub (but itself). */
  | 'ALL'
  /** Only those it started. */
  | 'CHILDREN';

export type PermissionBehavior =
  | 'ALLOW'
  | 'DENY';

export type PermissionDecisionErrorCode =
  | 'ALREADY_DECIDED'
  | 'ANSWERED_IN_TERMINAL'
  | 'EXPIRED'
  | 'NOT_FOUND';

/** How a tool call came to run: PERSON (decided through the API, with the token named), RULE (a permission rule of the hub's), TERMINAL (answered in claude's own dialog), MODE (the permission mode let it through unasked: acceptEdits for edits, bypassPermissions, auto), NO_PROMPT (nobody was asked: claude's settings allow it, or it needs no permission). */
export type PermissionDecisionKind =
  | 'MODE'
  | 'NO_PROMPT'
  | 'PERSON'
  | 'RULE'
  | 'TERMINAL';

/** claude's --permission-mode. */
export type PermissionMode =
  | 'ACCEPT_EDITS'
  | 'AUTO'
  | 'BYPASS_PERMISSIONS'
  | 'DEFAULT'
  | 'DONT_ASK'
  | 'PLAN';

export type PermissionRuleInput = {
  decision: RuleDecision;
  enabled?: boolean | null | undefined;
  match?: RuleMatchInput | null | undefined;
  message?: string | null | undefined;
  name: string;
  on?: RuleTrigger | null | undefined;
  priority?: number | null | undefined;
};

/** Where a permission request is. Only PENDING requests hold claude waiting. */
export type PermissionStatus =
  | 'ALLOWED'
  | 'ANSWERED_IN_TERMINAL'
  | 'DENIED'
  | 'EXPIRED'
  | 'PENDING';

/** What a permission rule does to what it matches. */
export type RuleDecision =
  /** The call runs; nobody is asked. On STOP: claude may stop. */
  | 'ALLOW'
  /** The call is held for a person, as without rules (claude is made to ask even where its permission mode would not). */
  | 'ASK'
  /** The call is refused and the model is told the rule's message. On STOP: claude is sent back to work with the message, once per turn. */
  | 'DENY';

export type RuleMatchInput = {
  cwdUnder?: Array<string> | null | undefined;
  input?: Array<InputMatchInput> | null | undefined;
  labels?: Array<string> | null | undefined;
  origin?: SessionOrigin | null | undefined;
  runtime?: SessionRuntime | null | undefined;
  token?: string | null | undefined;
  tools?: Array<string> | null | undefined;
};

export type RuleSource =
  /** Made through the API; kept in the store. */
  | 'API'
  /** From the --policy-file: read-only here, change the file. */
  | 'FILE';

/** Where a permission rule applies. */
export type RuleTrigger =
  /** claude stopping at the end of a turn; `tools` and `input` then match a call the turn made. */
  | 'STOP'
  /** A tool call, at its PreToolUse and its PermissionRequest. */
  | 'TOOL_CALL';

/** What a tick does while the schedule's previous run is still busy. */
export type ScheduleOverlap =
  /** Send nothing this tick; lastError says "skipped: previous run still busy". Busy: the session is BUSY or the last run's message is not delivered yet; with createSession, the last session made is BUSY. */
  | 'SKIP'
  /** Send anyway: into a session, the text is queued and delivered once the turn before has ended; with createSession, the new session is made beside the busy one. */
  | 'WAIT';

/** Exactly one of sessionId and createSession. */
export type SchedulePromptInput = {
  /** A new session at each tick, made from this with the text as its prompt (id, resume and prompt must be absent). */
  createSession?: CreateSessionInput | null | undefined;
  /** Five fields: minute hour day-of-month month day-of-week, e.g. `*\/5 * * * *`. */
  cron: string;
  /** Default WAIT. */
  overlap?: ScheduleOverlap | null | undefined;
  /** The session each tick sends the text to. */
  sessionId?: string | null | undefined;
  /** A prompt, checked as sendMessage's text; at most 100000 characters. */
  text: string;
  /** An IANA time zone name (default UTC). */
  timezone?: string | null | undefined;
};

/** Who started the session. */
export type SessionOrigin =
  /** A person, by hand; the installed global hooks report it (see installHooks). The hub never starts, restarts or resumes it. */
  | 'EXTERNAL'
  /** The hub (createSession). */
  | 'MANAGED';

/** How claude runs: TMUX (in a tmux pane a person can attach to) or HEADLESS (`claude -p` over stream-json pipes, no terminal). */
export type SessionRuntime =
  | 'HEADLESS'
  | 'TMUX';

/** Where a session is in its life; its states and moves are in docs/sessions.md. */
export type SessionStatus =
  | 'AWAITING_PERMISSION'
  | 'BLOCKED'
  | 'BUSY'
  | 'CRASHED'
  | 'DISCONNECTED'
  | 'IDLE'
  | 'LIMITED'
  | 'STARTING'
  | 'STOPPED'
  | 'UNREACHABLE';

/** SNAPSHOT repaints the whole terminal; OUTPUT is what the pane drew next. */
export type TerminalChunkKind =
  /** The bytes the pane's program wrote next, as it wrote them. */
  | 'OUTPUT'
  /** Resets the terminal and draws its history, screen, cursor and modes: write it to a terminal of cols x rows. */
  | 'SNAPSHOT';

export type TerminalSnapshotReason =
  /** The subscriber fell more than --terminal-buffer characters behind: this replaces what it missed. */
  | 'BEHIND'
  /** The subscription's first chunk. */
  | 'FIRST'
  /** The session's claude now draws in another pane (it restarted in place). */
  | 'PANE'
  /** The window's size or layout changed. */
  | 'RESIZED';

/** RUNNING until its one completion: COMPLETED (Stop; a HEADLESS session's result line), FAILED (StopFailure, an error result, or claude crashed), INTERRUPTED. */
export type TurnStatus =
  | 'COMPLETED'
  | 'FAILED'
  | 'INTERRUPTED'
  | 'RUNNING';

/** How Query.usage groups turns: by SESSION (id), LABEL (a session with two labels counts in both; none: key null), TOKEN (the token that created the session; null: none), MODEL (each model's share of a turn), DAY (UTC, YYYY-MM-DD). */
export type UsageGroup =
  | 'DAY'
  | 'LABEL'
  | 'MODEL'
  | 'SESSION'
  | 'TOKEN';

/** A git worktree for the session, on a new branch: claude starts in the same subfolder of it as cwd is of its checkout. cwd must be in a git checkout (NOT_A_REPOSITORY otherwise); nothing is made when a value is refused. See docs/sessions.md, 'A worktree per session'. */
export type WorktreeInput = {
  /** The commit the branch starts at: any name git resolves to a commit in the repository (a branch, a tag, a commit id). Default: the commit checked out in cwd (its HEAD), not a remote branch. */
  base?: string | null | undefined;
  /** The new branch (BAD_USER_INPUT when git refuses the name, it exists, it starts with `-` or holds `@{`; at most 200 characters). Default: `claude/<session name>` (the name reduced to letters, digits, `.`, `_`, `-`), or `claude/<first 8 of the id>` without a name, with `-2`, `-3`... when taken. */
  branch?: string | null | undefined;
};

export type SessionStateFieldsFragment = { id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null };

export type SessionFieldsFragment = { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null };

export type PermissionFieldsFragment = { id: string, sessionId: string, toolName: string, toolInput: unknown, status: PermissionStatus, requestedAt: string, message: string | null, decidedBy: string | null, explanation: string | null };

export type AttentionFieldsFragment = { reason: AttentionReason, since: string, lastAssistantMessage: string | null, dialog: string | null, session: { id: string, name: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null };

export type DashboardOverviewQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardOverviewQuery = { sessions: Array<{ cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null }>, permissionRequests: Array<{ id: string, sessionId: string, toolName: string, toolInput: unknown, status: PermissionStatus, requestedAt: string, message: string | null, decidedBy: string | null, explanation: string | null }> };

export type DashboardAttentionSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardAttentionSubscription = { attention: { whole: boolean, items: Array<{ reason: AttentionReason, since: string, lastAssistantMessage: string | null, dialog: string | null, session: { id: string, name: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null }>, raised: Array<{ reason: AttentionReason, since: string, lastAssistantMessage: string | null, dialog: string | null, session: { id: string, name: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null }>, cleared: Array<{ reason: AttentionReason, since: string, session: { id: string }, permissionRequest: { id: string } | null }> } };

export type DashboardScreenQueryVariables = Exact<{
  id: string;
}>;


export type DashboardScreenQuery = { session: { id: string, screen: string } | null };

export type DashboardSessionUpdatesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardSessionUpdatesSubscription = { sessionUpdateBatches: Array<{ id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null }> };

export type DashboardSessionQueryVariables = Exact<{
  id: string;
}>;


export type DashboardSessionQuery = { session: { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } | null };

export type DashboardPermissionRequestsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardPermissionRequestsSubscription = { permissionRequests: { id: string, sessionId: string, toolName: string, toolInput: unknown, status: PermissionStatus, requestedAt: string, message: string | null, decidedBy: string | null, explanation: string | null } };

export type DashboardSessionEventsSubscriptionVariables = Exact<{
  id: string;
  after?: number | null | undefined;
}>;


export type DashboardSessionEventsSubscription = { sessionEvents:
    | { __typename: 'ChannelMessageEvent', channel: string | null, text: string | null, channelSeq: number | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'ConfigChangeEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'CwdChangedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'DirectoryAddedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'ElicitationEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'ElicitationResultEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'FileChangedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubBudgetRaisedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubBudgetReachedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubEventsMissedEvent', stepCount: number | null, turnOver: boolean | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubPermissionResolvedEvent', toolName: string | null, status: string | null, message: string | null, decidedBy: string | null, explanation: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubStopRefusedEvent', rule: string | null, reason: string | null, explanation: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubTurnEndedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubUsageLimitResetEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'HubUsageLimitedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'InstructionsLoadedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'MessageDisplayEvent', messageId: string | null, index: number | null, delta: string | null, final: boolean | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'NotificationEvent', message: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PermissionDeniedEvent', toolName: string | null, reason: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PermissionRequestEvent', toolName: string | null, toolInput: unknown, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostCompactEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostModelSwitchEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostToolBatchEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostToolUseEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PostToolUseFailureEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreCompactEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreModelSwitchEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreSkillShellCommandEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'PreToolUseEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SessionEndEvent', reason: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SessionStartEvent', source: string | null, model: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SetupEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'StopEvent', lastAssistantMessage: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'StopFailureEvent', error: string | null, lastAssistantMessage: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'StreamMessageEvent', type: string | null, seq: number, eventName: string, receivedAt: string, line: unknown }
    | { __typename: 'SubagentStartEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'SubagentStopEvent', agentType: string | null, lastAssistantMessage: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'TaskCompletedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'TaskCreatedEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'TeammateIdleEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'UnknownHookEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'UserPromptExpansionEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'UserPromptSubmitEvent', prompt: string | null, seq: number, eventName: string, receivedAt: string }
    | { __typename: 'WorktreeCreateEvent', seq: number, eventName: string, receivedAt: string }
    | { __typename: 'WorktreeRemoveEvent', seq: number, eventName: string, receivedAt: string }
   };

export type DashboardSessionActionsSubscriptionVariables = Exact<{
  id: string;
  after?: number | null | undefined;
}>;


export type DashboardSessionActionsSubscription = { sessionActions: { id: string, seq: number, kind: ActionKind, phase: ActionPhase, title: string, toolName: string | null, ok: boolean | null, detail: unknown, startedAt: string, completedAt: string | null, durationMs: number | null } };

export type DashboardTurnsSubscriptionVariables = Exact<{
  sessionId: string;
  after?: string | null | undefined;
}>;


export type DashboardTurnsSubscription = { turns: { id: string, number: number, status: TurnStatus, error: string | null, usage: unknown, costUsd: number | null, costSource: CostSource, resume: string, completedAt: string | null, durationMs: number | null } };

export type DashboardTurnChangesQueryVariables = Exact<{
  id: string;
}>;


export type DashboardTurnChangesQuery = { turn: { id: string, changes: Array<{ path: string, oldPath: string | null, kind: FileChangeKind, diff: string | null, truncated: boolean, actions: Array<{ id: string, kind: ActionKind, toolName: string | null, title: string }>, approvedBy: Array<{ kind: PermissionDecisionKind, toolUseId: string, token: string | null, rule: string | null, mode: string | null, requestId: string | null, decidedAt: string | null }> }> } | null };

export type DashboardSessionTerminalSubscriptionVariables = Exact<{
  id: string;
}>;


export type DashboardSessionTerminalSubscription = { sessionTerminal: { kind: TerminalChunkKind, data: string, cols: number, rows: number, reason: TerminalSnapshotReason | null } };

export type DashboardCreateSessionMutationVariables = Exact<{
  input: CreateSessionInput;
}>;


export type DashboardCreateSessionMutation = { createSession: { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } };

export type DashboardEnqueueMessageMutationVariables = Exact<{
  sessionId: string;
  text: string;
}>;


export type DashboardEnqueueMessageMutation = { enqueueMessage: { id: string, status: MessageStatus, error: string | null } };

export type DashboardAskMutationVariables = Exact<{
  sessionId: string;
  text: string;
}>;


export type DashboardAskMutation = { ask:
    | { __typename: 'AskFailed', message: { error: string | null } }
    | { __typename: 'AskReply', reply: string | null, durationMs: number }
    | { __typename: 'AskTimeout', waitedMs: number, message: { status: MessageStatus } }
   };

export type DashboardDecidePermissionMutationVariables = Exact<{
  input: DecidePermissionInput;
}>;


export type DashboardDecidePermissionMutation = { decidePermission: { request: { id: string, sessionId: string, toolName: string, toolInput: unknown, status: PermissionStatus, requestedAt: string, message: string | null, decidedBy: string | null, explanation: string | null } | null, error: { code: PermissionDecisionErrorCode, message: string } | null } };

export type DashboardStopSessionMutationVariables = Exact<{
  id: string;
}>;


export type DashboardStopSessionMutation = { stopSession: { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } };

export type DashboardResumeSessionMutationVariables = Exact<{
  id: string;
}>;


export type DashboardResumeSessionMutation = { resumeSession: { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } };

export type DashboardInterruptSessionMutationVariables = Exact<{
  id: string;
}>;


export type DashboardInterruptSessionMutation = { interruptSession: { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } };

export type DashboardSendKeysMutationVariables = Exact<{
  sessionId: string;
  keys: Array<string> | string;
}>;


export type DashboardSendKeysMutation = { sendKeys: { screen: string, cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } };

export type DashboardSendTerminalInputMutationVariables = Exact<{
  sessionId: string;
  data: string;
  paste?: boolean | null | undefined;
}>;


export type DashboardSendTerminalInputMutation = { sendTerminalInput: boolean };

export type DashboardResizeTerminalMutationVariables = Exact<{
  sessionId: string;
  cols: number;
  rows: number;
}>;


export type DashboardResizeTerminalMutation = { resizeTerminal: boolean };

export type DashboardFocusSessionMutationVariables = Exact<{
  id: string;
}>;


export type DashboardFocusSessionMutation = { focusSession: { cwd: string, runtime: SessionRuntime, createdAt: string, origin: SessionOrigin, id: string, name: string | null, model: string | null, permissionMode: PermissionMode | null, status: SessionStatus, blockedReason: string | null, error: string | null, attachCommand: string | null, lastEventAt: string | null, restartCount: number, node: string | null, tmuxPane: string | null, costUsd: number | null, limitedUntil: string | null, parent: { id: string, name: string | null } | null } };

export type DashboardChannelsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardChannelsQuery = { channels: Array<{ name: string, description: string | null, listeners: number, lastMessageAt: string | null }> };

export type HookInstallationFieldsFragment = { path: string, installed: boolean, events: Array<string>, url: string | null, current: boolean };

export type DashboardHookInstallationQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardHookInstallationQuery = { hookInstallation: { path: string, installed: boolean, events: Array<string>, url: string | null, current: boolean } };

export type DashboardInstallHooksMutationVariables = Exact<{ [key: string]: never; }>;


export type DashboardInstallHooksMutation = { installHooks: { path: string, installed: boolean, events: Array<string>, url: string | null, current: boolean } };

export type DashboardUninstallHooksMutationVariables = Exact<{ [key: string]: never; }>;


export type DashboardUninstallHooksMutation = { uninstallHooks: { path: string, installed: boolean, events: Array<string>, url: string | null, current: boolean } };

export type DashboardUsageQueryVariables = Exact<{
  groupBy: UsageGroup;
  since?: string | null | undefined;
}>;


export type DashboardUsageQuery = { usage: Array<{ key: string | null, turns: number, inputTokens: number, outputTokens: number, cacheReadTokens: number, cacheWriteTokens: number, costUsd: number, unpricedTurns: number }> };

export type DashboardSchedulesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardSchedulesQuery = { schedules: Array<{ id: string, cron: string, timezone: string, text: string, sessionId: string | null, createSession: unknown, overlap: ScheduleOverlap, nextRunAt: string | null, lastRunAt: string | null, lastSessionId: string | null, lastError: string | null }> };

export type RuleFieldsFragment = { id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } };

export type DashboardPermissionRulesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardPermissionRulesSubscription = { permissionRules: Array<{ id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } }> };

export type DashboardUpdatePermissionRuleMutationVariables = Exact<{
  id: string;
  input: PermissionRuleInput;
}>;


export type DashboardUpdatePermissionRuleMutation = { updatePermissionRule: { id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } } };

export type DashboardPolicyDryRunQueryVariables = Exact<{
  rules: Array<PermissionRuleInput> | PermissionRuleInput;
  since?: string | null | undefined;
}>;


export type DashboardPolicyDryRunQuery = { policyDryRun: { calls: number, sessions: number, allowed: number, denied: number, asked: number, changed: number, truncated: boolean, examples: Array<{ sessionId: string, seq: number, at: string, toolName: string, toolInput: unknown, then: RuleDecision, now: RuleDecision, thenDecidedBy: string | null, rule: string | null, explanation: string | null }> } };

export type RunTaskCreateMutationVariables = Exact<{
  input: CreateSessionInput;
}>;


export type RunTaskCreateMutation = { createSession: { id: string, runtime: SessionRuntime, createdAt: string } };

export type RunTaskSendMutationVariables = Exact<{
  id: string;
  text: string;
}>;


export type RunTaskSendMutation = { sendMessage: { id: string } };

export type RunTaskRequestsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type RunTaskRequestsSubscription = { permissionRequests: { id: string, sessionId: string, status: PermissionStatus, toolName: string, toolInput: unknown } };

export type RunTaskDecideMutationVariables = Exact<{
  input: DecidePermissionInput;
}>;


export type RunTaskDecideMutation = { decidePermission: { error: { code: PermissionDecisionErrorCode, message: string } | null } };

export type RunTaskTurnsSubscriptionVariables = Exact<{
  id: string;
  after?: string | null | undefined;
}>;


export type RunTaskTurnsSubscription = { turns: { number: number, status: TurnStatus, ok: boolean | null, answer: string | null, error: string | null, costUsd: number | null, usage: unknown, durationMs: number | null, resume: string, actions: Array<{ kind: ActionKind, title: string, ok: boolean | null }> } };

export type RunTaskStopMutationVariables = Exact<{
  id: string;
}>;


export type RunTaskStopMutation = { stopSession: { status: SessionStatus } };

export type CliSessionsQueryVariables = Exact<{
  label?: string | null | undefined;
}>;


export type CliSessionsQuery = { sessions: Array<{ id: string, name: string | null, labels: Array<string>, status: SessionStatus, cwd: string, lastEventAt: string | null, attachCommand: string | null, node: string | null, origin: SessionOrigin, tmuxPane: string | null }> };

export type CliAttentionItemFragment = { reason: AttentionReason, since: string, lastAssistantMessage: string | null, session: { id: string, name: string | null, cwd: string, attachCommand: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null };

export type CliAttentionQueryVariables = Exact<{ [key: string]: never; }>;


export type CliAttentionQuery = { attention: Array<{ reason: AttentionReason, since: string, lastAssistantMessage: string | null, session: { id: string, name: string | null, cwd: string, attachCommand: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null }> };

export type CliAttentionUpdatesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type CliAttentionUpdatesSubscription = { attention: { items: Array<{ reason: AttentionReason, since: string, lastAssistantMessage: string | null, session: { id: string, name: string | null, cwd: string, attachCommand: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null }>, raised: Array<{ reason: AttentionReason, since: string, lastAssistantMessage: string | null, session: { id: string, name: string | null, cwd: string, attachCommand: string | null, blockedReason: string | null, error: string | null, budgetHold: { scope: BudgetScope, key: string, usd: number, spentUsd: number } | null }, permissionRequest: { id: string, toolName: string, toolInput: unknown } | null }> } };

export type CliFocusSessionMutationVariables = Exact<{
  id: string;
  client?: string | null | undefined;
}>;


export type CliFocusSessionMutation = { focusSession: { id: string, name: string | null, origin: SessionOrigin, tmuxSession: string, tmuxPane: string | null } };

export type CliInstallHooksMutationVariables = Exact<{
  scope: HookScope;
  dir?: string | null | undefined;
}>;


export type CliInstallHooksMutation = { installHooks: { path: string, events: Array<string>, url: string | null, backupPath: string | null } };

export type CliCreateSessionMutationVariables = Exact<{
  input: CreateSessionInput;
}>;


export type CliCreateSessionMutation = { createSession: { id: string, status: SessionStatus, attachCommand: string | null, worktree: { path: string, branch: string } | null } };

export type CliSetSessionLabelsMutationVariables = Exact<{
  sessionId: string;
  labels: Array<string> | string;
}>;


export type CliSetSessionLabelsMutation = { setSessionLabels: { id: string, labels: Array<string> } };

export type CliEnqueueMessageMutationVariables = Exact<{
  sessionId: string;
  text: string;
  channel?: string | null | undefined;
}>;


export type CliEnqueueMessageMutation = { enqueueMessage: { id: string, status: MessageStatus } };

export type CliChannelsQueryVariables = Exact<{ [key: string]: never; }>;


export type CliChannelsQuery = { channels: Array<{ name: string, description: string | null, listeners: number, lastMessageAt: string | null }> };

export type CliChannelMessagesSubscriptionVariables = Exact<{
  channel: string;
  after?: number | null | undefined;
  description?: string | null | undefined;
}>;


export type CliChannelMessagesSubscription = { channelMessages: { seq: number, channel: string, sessionId: string, text: string, at: string } };

export type CliAskMutationVariables = Exact<{
  sessionId: string;
  text: string;
  timeoutSeconds?: number | null | undefined;
}>;


export type CliAskMutation = { ask:
    | { __typename: 'AskFailed', message: { error: string | null } }
    | { __typename: 'AskReply', reply: string | null, durationMs: number }
    | { __typename: 'AskTimeout', waitedMs: number }
   };

export type CliStopSessionMutationVariables = Exact<{
  id: string;
  removeWorktree?: boolean | null | undefined;
}>;


export type CliStopSessionMutation = { stopSession: { id: string, status: SessionStatus, worktree: { removal: { note: string } | null } | null } };

export type CliSessionDiffQueryVariables = Exact<{
  id: string;
  base?: string | null | undefined;
}>;


export type CliSessionDiffQuery = { session: { diff: string } | null };

export type CliSessionTurnNumbersQueryVariables = Exact<{
  id: string;
  last: number;
}>;


export type CliSessionTurnNumbersQuery = { session: { turns: Array<{ id: string, number: number }> } | null };

export type CliTurnChangesQueryVariables = Exact<{
  id: string;
}>;


export type CliTurnChangesQuery = { turn: { number: number, changes: Array<{ path: string, oldPath: string | null, kind: FileChangeKind, diff: string | null, truncated: boolean, actions: Array<{ id: string, toolName: string | null, title: string }>, approvedBy: Array<{ kind: PermissionDecisionKind, toolUseId: string, token: string | null, rule: string | null, mode: string | null }> }> } | null };

export type CliCommitWorktreeMutationVariables = Exact<{
  id: string;
  message: string;
}>;


export type CliCommitWorktreeMutation = { commitWorktree: string };

export type CliResumeSessionMutationVariables = Exact<{
  id: string;
}>;


export type CliResumeSessionMutation = { resumeSession: { id: string, status: SessionStatus } };

export type CliDecidePermissionMutationVariables = Exact<{
  input: DecidePermissionInput;
}>;


export type CliDecidePermissionMutation = { decidePermission: { request: { id: string, status: PermissionStatus, toolName: string } | null, error: { code: PermissionDecisionErrorCode, message: string } | null } };

export type CliTailSubscriptionVariables = Exact<{
  id: string;
  after?: number | null | undefined;
}>;


export type CliTailSubscription = { sessionEvents:
    | { __typename: 'ChannelMessageEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'ConfigChangeEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'CwdChangedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'DirectoryAddedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'ElicitationEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'ElicitationResultEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'FileChangedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubBudgetRaisedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubBudgetReachedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubEventsMissedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubPermissionResolvedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubStopRefusedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubTurnEndedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubUsageLimitResetEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'HubUsageLimitedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'InstructionsLoadedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'MessageDisplayEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'NotificationEvent', message: string | null, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PermissionDeniedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PermissionRequestEvent', toolName: string | null, toolInput: unknown, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PostCompactEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PostModelSwitchEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PostToolBatchEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PostToolUseEvent', toolName: string | null, toolResponse: unknown, durationMs: number | null, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PostToolUseFailureEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PreCompactEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PreModelSwitchEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PreSkillShellCommandEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'PreToolUseEvent', toolName: string | null, toolInput: unknown, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'SessionEndEvent', reason: string | null, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'SessionStartEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'SetupEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'StopEvent', lastAssistantMessage: string | null, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'StopFailureEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'StreamMessageEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'SubagentStartEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'SubagentStopEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'TaskCompletedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'TaskCreatedEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'TeammateIdleEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'UnknownHookEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'UserPromptExpansionEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'UserPromptSubmitEvent', prompt: string | null, seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'WorktreeCreateEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
    | { __typename: 'WorktreeRemoveEvent', seq: number, eventName: string, receivedAt: string, payload: unknown }
   };

export type CliActionsSubscriptionVariables = Exact<{
  id: string;
  after?: number | null | undefined;
}>;


export type CliActionsSubscription = { sessionActions: { id: string, seq: number, kind: ActionKind, phase: ActionPhase, title: string, toolName: string | null, ok: boolean | null, detail: unknown, startedAt: string, completedAt: string | null, durationMs: number | null } };

export type CliTurnsSubscriptionVariables = Exact<{
  sessionId?: string | null | undefined;
  after?: string | null | undefined;
}>;


export type CliTurnsSubscription = { turns: { id: string, sessionId: string, number: number, prompt: string | null, status: TurnStatus, ok: boolean | null, answer: string | null, error: string | null, usage: unknown, resume: string, startedAt: string, completedAt: string | null, durationMs: number | null, actions: Array<{ id: string, kind: ActionKind, title: string, ok: boolean | null, durationMs: number | null }> } };

export type CliUsageTotalFragment = { key: string | null, turns: number, inputTokens: number, outputTokens: number, cacheReadTokens: number, cacheWriteTokens: number, costUsd: number, unpricedTurns: number };

export type CliUsageQueryVariables = Exact<{
  groupBy: UsageGroup;
  since?: string | null | undefined;
}>;


export type CliUsageQuery = { usage: Array<{ key: string | null, turns: number, inputTokens: number, outputTokens: number, cacheReadTokens: number, cacheWriteTokens: number, costUsd: number, unpricedTurns: number }>, bySession: Array<{ key: string | null, turns: number, inputTokens: number, outputTokens: number, cacheReadTokens: number, cacheWriteTokens: number, costUsd: number, unpricedTurns: number }> };

export type CliPolicyDryRunQueryVariables = Exact<{
  rules: Array<PermissionRuleInput> | PermissionRuleInput;
  since?: string | null | undefined;
  sessionId?: string | null | undefined;
}>;


export type CliPolicyDryRunQuery = { policyDryRun: { calls: number, sessions: number, allowed: number, denied: number, asked: number, changed: number, truncated: boolean, examples: Array<{ sessionId: string, seq: number, at: string, toolName: string, toolInput: unknown, then: RuleDecision, now: RuleDecision, thenDecidedBy: string | null, rule: string | null, explanation: string | null }> } };

export type CliPermissionRuleFragment = { id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, createdAt: string, updatedAt: string, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } };

export type CliPermissionRulesQueryVariables = Exact<{ [key: string]: never; }>;


export type CliPermissionRulesQuery = { permissionRules: Array<{ id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, createdAt: string, updatedAt: string, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } }> };

export type CliCreatePermissionRuleMutationVariables = Exact<{
  input: PermissionRuleInput;
}>;


export type CliCreatePermissionRuleMutation = { createPermissionRule: { id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, createdAt: string, updatedAt: string, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } } };

export type CliUpdatePermissionRuleMutationVariables = Exact<{
  id: string;
  input: PermissionRuleInput;
}>;


export type CliUpdatePermissionRuleMutation = { updatePermissionRule: { id: string, name: string, enabled: boolean, priority: number, on: RuleTrigger, decision: RuleDecision, message: string | null, source: RuleSource, createdBy: string | null, createdAt: string, updatedAt: string, match: { tools: Array<string> | null, cwdUnder: Array<string> | null, labels: Array<string> | null, runtime: SessionRuntime | null, origin: SessionOrigin | null, token: string | null, input: Array<{ path: string, pattern: string }> | null } } };

export type CliDeletePermissionRuleMutationVariables = Exact<{
  id: string;
}>;


export type CliDeletePermissionRuleMutation = { deletePermissionRule: boolean };

export type CliScheduleFragment = { id: string, cron: string, timezone: string, text: string, sessionId: string | null, createSession: unknown, overlap: ScheduleOverlap, nextRunAt: string | null, lastRunAt: string | null, lastSessionId: string | null, lastError: string | null, createdAt: string, createdBy: string };

export type CliSchedulesQueryVariables = Exact<{ [key: string]: never; }>;


export type CliSchedulesQuery = { schedules: Array<{ id: string, cron: string, timezone: string, text: string, sessionId: string | null, createSession: unknown, overlap: ScheduleOverlap, nextRunAt: string | null, lastRunAt: string | null, lastSessionId: string | null, lastError: string | null, createdAt: string, createdBy: string }> };

export type CliSchedulePromptMutationVariables = Exact<{
  input: SchedulePromptInput;
}>;


export type CliSchedulePromptMutation = { schedulePrompt: { id: string, cron: string, timezone: string, text: string, sessionId: string | null, createSession: unknown, overlap: ScheduleOverlap, nextRunAt: string | null, lastRunAt: string | null, lastSessionId: string | null, lastError: string | null, createdAt: string, createdBy: string } };

export type CliDeleteScheduleMutationVariables = Exact<{
  id: string;
}>;


export type CliDeleteScheduleMutation = { deleteSchedule: boolean };

export const SessionStateFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}}]} as unknown as DocumentNode<SessionStateFieldsFragment, unknown>;
export const SessionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}}]} as unknown as DocumentNode<SessionFieldsFragment, unknown>;
export const PermissionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PermissionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}}]} as unknown as DocumentNode<PermissionFieldsFragment, unknown>;
export const AttentionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AttentionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttentionItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"budgetHold"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"usd"}},{"kind":"Field","name":{"kind":"Name","value":"spentUsd"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}}]}}]} as unknown as DocumentNode<AttentionFieldsFragment, unknown>;
export const HookInstallationFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HookInstallationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HookInstallation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"installed"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"current"}}]}}]} as unknown as DocumentNode<HookInstallationFieldsFragment, unknown>;
export const RuleFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RuleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<RuleFieldsFragment, unknown>;
export const CliAttentionItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliAttentionItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttentionItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"budgetHold"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"usd"}},{"kind":"Field","name":{"kind":"Name","value":"spentUsd"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}}]} as unknown as DocumentNode<CliAttentionItemFragment, unknown>;
export const CliUsageTotalFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliUsageTotal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UsageTotal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"turns"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheReadTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheWriteTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedTurns"}}]}}]} as unknown as DocumentNode<CliUsageTotalFragment, unknown>;
export const CliPermissionRuleFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliPermissionRule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<CliPermissionRuleFragment, unknown>;
export const CliScheduleFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliSchedule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Schedule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"createSession"}},{"kind":"Field","name":{"kind":"Name","value":"overlap"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSessionId"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}}]}}]} as unknown as DocumentNode<CliScheduleFragment, unknown>;
export const DashboardOverviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardOverview"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"EnumValue","value":"PENDING"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PermissionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PermissionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}}]} as unknown as DocumentNode<DashboardOverviewQuery, DashboardOverviewQueryVariables>;
export const DashboardAttentionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardAttention"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attention"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"onlyChanges"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"whole"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AttentionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"raised"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AttentionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cleared"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AttentionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttentionItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}},{"kind":"Field","name":{"kind":"Name","value":"dialog"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"budgetHold"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"usd"}},{"kind":"Field","name":{"kind":"Name","value":"spentUsd"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}}]}}]} as unknown as DocumentNode<DashboardAttentionSubscription, DashboardAttentionSubscriptionVariables>;
export const DashboardScreenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardScreen"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"screen"}}]}}]}}]} as unknown as DocumentNode<DashboardScreenQuery, DashboardScreenQueryVariables>;
export const DashboardSessionUpdatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardSessionUpdates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionUpdateBatches"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"everyMs"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}}]} as unknown as DocumentNode<DashboardSessionUpdatesSubscription, DashboardSessionUpdatesSubscriptionVariables>;
export const DashboardSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardSessionQuery, DashboardSessionQueryVariables>;
export const DashboardPermissionRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardPermissionRequests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"permissionRequests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PermissionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PermissionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}}]} as unknown as DocumentNode<DashboardPermissionRequestsSubscription, DashboardPermissionRequestsSubscriptionVariables>;
export const DashboardSessionEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardSessionEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"eventName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionStartEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserPromptSubmitEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prompt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequestEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HubPermissionResolvedEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HubStopRefusedEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionDeniedEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageDisplayEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageId"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"final"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StopEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StopFailureEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SubagentStopEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentType"}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionEndEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HubEventsMissedEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stepCount"}},{"kind":"Field","name":{"kind":"Name","value":"turnOver"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChannelMessageEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"channel"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"channelSeq"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StreamMessageEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","alias":{"kind":"Name","value":"line"},"name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardSessionEventsSubscription, DashboardSessionEventsSubscriptionVariables>;
export const DashboardSessionActionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardSessionActions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionActions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"phase"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}}]}}]} as unknown as DocumentNode<DashboardSessionActionsSubscription, DashboardSessionActionsSubscriptionVariables>;
export const DashboardTurnsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardTurns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"turns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"usage"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"costSource"}},{"kind":"Field","name":{"kind":"Name","value":"resume"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}}]}}]} as unknown as DocumentNode<DashboardTurnsSubscription, DashboardTurnsSubscriptionVariables>;
export const DashboardTurnChangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardTurnChanges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"turn"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"oldPath"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"diff"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"actions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"toolUseId"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"decidedAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<DashboardTurnChangesQuery, DashboardTurnChangesQueryVariables>;
export const DashboardSessionTerminalDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardSessionTerminal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionTerminal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"cols"}},{"kind":"Field","name":{"kind":"Name","value":"rows"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]} as unknown as DocumentNode<DashboardSessionTerminalSubscription, DashboardSessionTerminalSubscriptionVariables>;
export const DashboardCreateSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardCreateSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardCreateSessionMutation, DashboardCreateSessionMutationVariables>;
export const DashboardEnqueueMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardEnqueueMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enqueueMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]} as unknown as DocumentNode<DashboardEnqueueMessageMutation, DashboardEnqueueMessageMutationVariables>;
export const DashboardAskDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardAsk"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AskReply"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reply"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AskTimeout"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"waitedMs"}},{"kind":"Field","name":{"kind":"Name","value":"message"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AskFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]}}]} as unknown as DocumentNode<DashboardAskMutation, DashboardAskMutationVariables>;
export const DashboardDecidePermissionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardDecidePermission"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DecidePermissionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"decidePermission"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PermissionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PermissionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}}]} as unknown as DocumentNode<DashboardDecidePermissionMutation, DashboardDecidePermissionMutationVariables>;
export const DashboardStopSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardStopSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stopSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardStopSessionMutation, DashboardStopSessionMutationVariables>;
export const DashboardResumeSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardResumeSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resumeSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardResumeSessionMutation, DashboardResumeSessionMutationVariables>;
export const DashboardInterruptSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardInterruptSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interruptSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardInterruptSessionMutation, DashboardInterruptSessionMutationVariables>;
export const DashboardSendKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardSendKeys"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"keys"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendKeys"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"keys"},"value":{"kind":"Variable","name":{"kind":"Name","value":"keys"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}},{"kind":"Field","name":{"kind":"Name","value":"screen"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardSendKeysMutation, DashboardSendKeysMutationVariables>;
export const DashboardSendTerminalInputDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardSendTerminalInput"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"data"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"paste"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendTerminalInput"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"data"},"value":{"kind":"Variable","name":{"kind":"Name","value":"data"}}},{"kind":"Argument","name":{"kind":"Name","value":"paste"},"value":{"kind":"Variable","name":{"kind":"Name","value":"paste"}}}]}]}}]} as unknown as DocumentNode<DashboardSendTerminalInputMutation, DashboardSendTerminalInputMutationVariables>;
export const DashboardResizeTerminalDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardResizeTerminal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cols"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rows"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resizeTerminal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"cols"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cols"}}},{"kind":"Argument","name":{"kind":"Name","value":"rows"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rows"}}}]}]}}]} as unknown as DocumentNode<DashboardResizeTerminalMutation, DashboardResizeTerminalMutationVariables>;
export const DashboardFocusSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardFocusSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"focusSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionStateFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"permissionMode"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"restartCount"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"limitedUntil"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionStateFields"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DashboardFocusSessionMutation, DashboardFocusSessionMutationVariables>;
export const DashboardChannelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardChannels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"channels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"listeners"}},{"kind":"Field","name":{"kind":"Name","value":"lastMessageAt"}}]}}]}}]} as unknown as DocumentNode<DashboardChannelsQuery, DashboardChannelsQueryVariables>;
export const DashboardHookInstallationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardHookInstallation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hookInstallation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"EnumValue","value":"USER"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HookInstallationFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HookInstallationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HookInstallation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"installed"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"current"}}]}}]} as unknown as DocumentNode<DashboardHookInstallationQuery, DashboardHookInstallationQueryVariables>;
export const DashboardInstallHooksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardInstallHooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"installHooks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"EnumValue","value":"USER"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HookInstallationFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HookInstallationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HookInstallation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"installed"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"current"}}]}}]} as unknown as DocumentNode<DashboardInstallHooksMutation, DashboardInstallHooksMutationVariables>;
export const DashboardUninstallHooksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardUninstallHooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uninstallHooks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"EnumValue","value":"USER"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HookInstallationFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HookInstallationFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"HookInstallation"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"installed"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"current"}}]}}]} as unknown as DocumentNode<DashboardUninstallHooksMutation, DashboardUninstallHooksMutationVariables>;
export const DashboardUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageGroup"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"turns"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheReadTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheWriteTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedTurns"}}]}}]}}]} as unknown as DocumentNode<DashboardUsageQuery, DashboardUsageQueryVariables>;
export const DashboardSchedulesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardSchedules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"schedules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"createSession"}},{"kind":"Field","name":{"kind":"Name","value":"overlap"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSessionId"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}}]}}]}}]} as unknown as DocumentNode<DashboardSchedulesQuery, DashboardSchedulesQueryVariables>;
export const DashboardPermissionRulesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardPermissionRules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"permissionRules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RuleFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RuleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<DashboardPermissionRulesSubscription, DashboardPermissionRulesSubscriptionVariables>;
export const DashboardUpdatePermissionRuleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardUpdatePermissionRule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRuleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updatePermissionRule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RuleFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RuleFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<DashboardUpdatePermissionRuleMutation, DashboardUpdatePermissionRuleMutationVariables>;
export const DashboardPolicyDryRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardPolicyDryRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rules"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRuleInput"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"policyDryRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rules"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rules"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"calls"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"allowed"}},{"kind":"Field","name":{"kind":"Name","value":"denied"}},{"kind":"Field","name":{"kind":"Name","value":"asked"}},{"kind":"Field","name":{"kind":"Name","value":"changed"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"examples"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}},{"kind":"Field","name":{"kind":"Name","value":"then"}},{"kind":"Field","name":{"kind":"Name","value":"now"}},{"kind":"Field","name":{"kind":"Name","value":"thenDecidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardPolicyDryRunQuery, DashboardPolicyDryRunQueryVariables>;
export const RunTaskCreateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RunTaskCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<RunTaskCreateMutation, RunTaskCreateMutationVariables>;
export const RunTaskSendDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RunTaskSend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sendMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<RunTaskSendMutation, RunTaskSendMutationVariables>;
export const RunTaskRequestsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RunTaskRequests"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"permissionRequests"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"pending"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}}]}}]} as unknown as DocumentNode<RunTaskRequestsSubscription, RunTaskRequestsSubscriptionVariables>;
export const RunTaskDecideDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RunTaskDecide"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DecidePermissionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"decidePermission"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RunTaskDecideMutation, RunTaskDecideMutationVariables>;
export const RunTaskTurnsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RunTaskTurns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"turns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"answer"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"usage"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"resume"}},{"kind":"Field","name":{"kind":"Name","value":"actions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}}]}}]}}]}}]} as unknown as DocumentNode<RunTaskTurnsSubscription, RunTaskTurnsSubscriptionVariables>;
export const RunTaskStopDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RunTaskStop"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stopSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<RunTaskStopMutation, RunTaskStopMutationVariables>;
export const CliSessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliSessions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"label"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"label"},"value":{"kind":"Variable","name":{"kind":"Name","value":"label"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventAt"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"node"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}}]}}]}}]} as unknown as DocumentNode<CliSessionsQuery, CliSessionsQueryVariables>;
export const CliAttentionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliAttention"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attention"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliAttentionItem"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliAttentionItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttentionItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"budgetHold"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"usd"}},{"kind":"Field","name":{"kind":"Name","value":"spentUsd"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}}]} as unknown as DocumentNode<CliAttentionQuery, CliAttentionQueryVariables>;
export const CliAttentionUpdatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CliAttentionUpdates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attention"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliAttentionItem"}}]}},{"kind":"Field","name":{"kind":"Name","value":"raised"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliAttentionItem"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliAttentionItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AttentionItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"cwd"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"blockedReason"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"budgetHold"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"usd"}},{"kind":"Field","name":{"kind":"Name","value":"spentUsd"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"permissionRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}}]} as unknown as DocumentNode<CliAttentionUpdatesSubscription, CliAttentionUpdatesSubscriptionVariables>;
export const CliFocusSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliFocusSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"client"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"focusSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"client"},"value":{"kind":"Variable","name":{"kind":"Name","value":"client"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxSession"}},{"kind":"Field","name":{"kind":"Name","value":"tmuxPane"}}]}}]}}]} as unknown as DocumentNode<CliFocusSessionMutation, CliFocusSessionMutationVariables>;
export const CliInstallHooksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliInstallHooks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"HookScope"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"dir"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"installHooks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"dir"},"value":{"kind":"Variable","name":{"kind":"Name","value":"dir"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"backupPath"}}]}}]}}]} as unknown as DocumentNode<CliInstallHooksMutation, CliInstallHooksMutationVariables>;
export const CliCreateSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliCreateSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attachCommand"}},{"kind":"Field","name":{"kind":"Name","value":"worktree"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"branch"}}]}}]}}]}}]} as unknown as DocumentNode<CliCreateSessionMutation, CliCreateSessionMutationVariables>;
export const CliSetSessionLabelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliSetSessionLabels"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"labels"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setSessionLabels"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"labels"},"value":{"kind":"Variable","name":{"kind":"Name","value":"labels"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}}]}}]}}]} as unknown as DocumentNode<CliSetSessionLabelsMutation, CliSetSessionLabelsMutationVariables>;
export const CliEnqueueMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliEnqueueMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"channel"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enqueueMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"channel"},"value":{"kind":"Variable","name":{"kind":"Name","value":"channel"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<CliEnqueueMessageMutation, CliEnqueueMessageMutationVariables>;
export const CliChannelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliChannels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"channels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"listeners"}},{"kind":"Field","name":{"kind":"Name","value":"lastMessageAt"}}]}}]}}]} as unknown as DocumentNode<CliChannelsQuery, CliChannelsQueryVariables>;
export const CliChannelMessagesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CliChannelMessages"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"channel"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"description"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"channelMessages"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"channel"},"value":{"kind":"Variable","name":{"kind":"Name","value":"channel"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"description"},"value":{"kind":"Variable","name":{"kind":"Name","value":"description"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"channel"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<CliChannelMessagesSubscription, CliChannelMessagesSubscriptionVariables>;
export const CliAskDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliAsk"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutSeconds"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutSeconds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AskReply"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reply"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AskTimeout"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"waitedMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AskFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CliAskMutation, CliAskMutationVariables>;
export const CliStopSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliStopSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"removeWorktree"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stopSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"removeWorktree"},"value":{"kind":"Variable","name":{"kind":"Name","value":"removeWorktree"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"worktree"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CliStopSessionMutation, CliStopSessionMutationVariables>;
export const CliSessionDiffDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliSessionDiff"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"base"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"diff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"base"},"value":{"kind":"Variable","name":{"kind":"Name","value":"base"}}}]}]}}]}}]} as unknown as DocumentNode<CliSessionDiffQuery, CliSessionDiffQueryVariables>;
export const CliSessionTurnNumbersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliSessionTurnNumbers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"turns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}}]}}]}}]} as unknown as DocumentNode<CliSessionTurnNumbersQuery, CliSessionTurnNumbersQueryVariables>;
export const CliTurnChangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliTurnChanges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"turn"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"oldPath"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"diff"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"actions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"toolUseId"}},{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CliTurnChangesQuery, CliTurnChangesQueryVariables>;
export const CliCommitWorktreeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliCommitWorktree"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"message"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commitWorktree"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"message"},"value":{"kind":"Variable","name":{"kind":"Name","value":"message"}}}]}]}}]} as unknown as DocumentNode<CliCommitWorktreeMutation, CliCommitWorktreeMutationVariables>;
export const CliResumeSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliResumeSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resumeSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<CliResumeSessionMutation, CliResumeSessionMutationVariables>;
export const CliDecidePermissionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliDecidePermission"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DecidePermissionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"decidePermission"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"request"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CliDecidePermissionMutation, CliDecidePermissionMutationVariables>;
export const CliTailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CliTail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"eventName"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserPromptSubmitEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prompt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PreToolUseEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PostToolUseEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolResponse"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRequestEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StopEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastAssistantMessage"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SessionEndEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]} as unknown as DocumentNode<CliTailSubscription, CliTailSubscriptionVariables>;
export const CliActionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CliActions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionActions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"phase"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}}]}}]} as unknown as DocumentNode<CliActionsSubscription, CliActionsSubscriptionVariables>;
export const CliTurnsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CliTurns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"turns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"prompt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"answer"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"usage"}},{"kind":"Field","name":{"kind":"Name","value":"resume"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"actions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}}]}}]}}]}}]} as unknown as DocumentNode<CliTurnsSubscription, CliTurnsSubscriptionVariables>;
export const CliUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageGroup"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"groupBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliUsageTotal"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"bySession"},"name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"EnumValue","value":"SESSION"}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliUsageTotal"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliUsageTotal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UsageTotal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"turns"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheReadTokens"}},{"kind":"Field","name":{"kind":"Name","value":"cacheWriteTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costUsd"}},{"kind":"Field","name":{"kind":"Name","value":"unpricedTurns"}}]}}]} as unknown as DocumentNode<CliUsageQuery, CliUsageQueryVariables>;
export const CliPolicyDryRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliPolicyDryRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rules"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRuleInput"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"policyDryRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rules"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rules"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"calls"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"allowed"}},{"kind":"Field","name":{"kind":"Name","value":"denied"}},{"kind":"Field","name":{"kind":"Name","value":"asked"}},{"kind":"Field","name":{"kind":"Name","value":"changed"}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"examples"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"toolInput"}},{"kind":"Field","name":{"kind":"Name","value":"then"}},{"kind":"Field","name":{"kind":"Name","value":"now"}},{"kind":"Field","name":{"kind":"Name","value":"thenDecidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"explanation"}}]}}]}}]}}]} as unknown as DocumentNode<CliPolicyDryRunQuery, CliPolicyDryRunQueryVariables>;
export const CliPermissionRulesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliPermissionRules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"permissionRules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliPermissionRule"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliPermissionRule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<CliPermissionRulesQuery, CliPermissionRulesQueryVariables>;
export const CliCreatePermissionRuleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliCreatePermissionRule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRuleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createPermissionRule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliPermissionRule"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliPermissionRule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<CliCreatePermissionRuleMutation, CliCreatePermissionRuleMutationVariables>;
export const CliUpdatePermissionRuleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliUpdatePermissionRule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRuleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updatePermissionRule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliPermissionRule"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliPermissionRule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PermissionRule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"on"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"match"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tools"}},{"kind":"Field","name":{"kind":"Name","value":"input"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"pattern"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cwdUnder"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"token"}}]}}]}}]} as unknown as DocumentNode<CliUpdatePermissionRuleMutation, CliUpdatePermissionRuleMutationVariables>;
export const CliDeletePermissionRuleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliDeletePermissionRule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletePermissionRule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<CliDeletePermissionRuleMutation, CliDeletePermissionRuleMutationVariables>;
export const CliSchedulesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CliSchedules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"schedules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliSchedule"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliSchedule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Schedule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"createSession"}},{"kind":"Field","name":{"kind":"Name","value":"overlap"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSessionId"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}}]}}]} as unknown as DocumentNode<CliSchedulesQuery, CliSchedulesQueryVariables>;
export const CliSchedulePromptDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliSchedulePrompt"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SchedulePromptInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"schedulePrompt"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CliSchedule"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CliSchedule"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Schedule"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cron"}},{"kind":"Field","name":{"kind":"Name","value":"timezone"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"createSession"}},{"kind":"Field","name":{"kind":"Name","value":"overlap"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSessionId"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}}]}}]} as unknown as DocumentNode<CliSchedulePromptMutation, CliSchedulePromptMutationVariables>;
export const CliDeleteScheduleDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CliDeleteSchedule"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteSchedule"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<CliDeleteScheduleMutation, CliDeleteScheduleMutationVariables>;