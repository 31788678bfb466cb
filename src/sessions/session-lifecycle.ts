import { isRunning, SessionStatus, type SessionRecord } from './session.js';

/**
 * The moves between a session's states. Every status change is one of these, made by `enter`;
 * the table below says from where each may be made, where it goes and what it does to the
 * session's error. AWAITING_PERMISSION (a pending request), UNREACHABLE (another node's lease
 * lapsed) and LIMITED (a usage limit) are never stored: clients see them derived from the
 * stored status.
 */
export const Move = {
  /** The hub starts its claude: created, resumed, restarted after a crash, or relaunched. */
  Launch: 'LAUNCH',
  /** claude's SessionStart of a session the hub knew stopped: `claude --resume` by hand. */
  ResumedByHand: 'RESUMED_BY_HAND',
  /** claude's SessionStart: it waits for input. */
  Started: 'STARTED',
  /** claude's UserPromptSubmit: a turn runs. */
  PromptSubmitted: 'PROMPT_SUBMITTED',
  /** claude's Stop or StopFailure: the turn is over. */
  TurnEnded: 'TURN_ENDED',
  /** The transcript showed, after the hub heard nothing for a while, the turn over. */
  CaughtUpIdle: 'CAUGHT_UP_IDLE',
  /** The transcript showed, after the hub heard nothing for a while, a turn going on. */
  CaughtUpBusy: 'CAUGHT_UP_BUSY',
  /** The turn stopped without a Stop (interruptSession, or Esc on a dialog). */
  TurnInterrupted: 'TURN_INTERRUPTED',
  /** The screen of a starting claude shows a dialog (blockedReason says which). */
  StartupBlocked: 'STARTUP_BLOCKED',
  /** The screen of a quiet turn shows a dialog (blockedReason DIALOG, its text the error). */
  DialogShown: 'DIALOG_SHOWN',
  /** The dialog of a turn is gone, or a hook event came: the turn goes on. */
  DialogAnswered: 'DIALOG_ANSWERED',
  /** After a restart, its hooks post to an address this hub cannot listen on. */
  Disconnected: 'DISCONNECTED',
  /** Ended on purpose: stopSession, or claude exited after a SessionEnd that ends it. */
  Stopped: 'STOPPED',
  /** claude exited otherwise, or could not start. */
  Crashed: 'CRASHED',
} as const;
export type Move = (typeof Move)[keyof typeof Move];

/** Which states a move may start from: any, the running ones (not STOPPED nor CRASHED), or these. */
export type From = 'any' | 'running' | readonly SessionStatus[];

export interface MoveRule {
  /** When the move is made, for docs/sessions.md. */
  readonly when: string;
  readonly from: From;
  readonly to: SessionStatus;
  /** What the move does to the session's error: clears it, sets it (to the detail), or keeps it. */
  readonly error: 'clear' | 'set' | 'keep';
  /** Whether the session is live again (its `ended` mark cleared). */
  readonly revives?: true;
}

const { Starting, Idle, Busy, Blocked, Disconnected, Stopped, Crashed } = SessionStatus;

/** What each state means, for docs/sessions.md (the derived ones included). */
export const stateMeaning: Readonly<Record<SessionStatus, string>> = {
  STARTING: 'claude runs; its SessionStart has not come yet',
  IDLE: 'the turn is over; claude waits for input',
  BUSY: 'a prompt was submitted and the turn runs',
  AWAITING_PERMISSION: 'derived: a running session with a permission request pending',
  BLOCKED: 'claude waits on a dialog no hook reports (`blockedReason` says which)',
  STOPPED: 'ended on purpose',
  CRASHED: 'claude exited unexpectedly or failed to start (`error` holds the screen)',
  DISCONNECTED: 'claude runs, but its hooks post where this hub cannot listen',
  UNREACHABLE: 'derived: it runs on another node of the cluster, whose lease lapsed',
  LIMITED:
    "derived: an IDLE session whose account's usage limit holds its messages until the reset",
};

/** The lifecycle: every move, where from, where to. docs/sessions.md is generated from it. */
export const lifecycle: Readonly<Record<Move, MoveRule>> = {
  [Move.Launch]: {
    when: 'createSession, resumeSession, a restart after a crash, a relaunch of a DISCONNECTED one',
    from: 'any',
    to: Starting,
    error: 'clear',
    revives: true,
  },
  [Move.ResumedByHand]: {
    when: 'a SessionStart of a session started by hand that had ended: `claude --resume` by hand',
    from: [Stopped, Crashed],
    to: Starting,
    error: 'clear',
    revives: true,
  },
  [Move.Started]: { when: 'SessionStart', from: 'running', to: Idle, error: 'keep' },
  [Move.PromptSubmitted]: { when: 'UserPromptSubmit', from: 'running', to: Busy, error: 'keep' },
  [Move.TurnEnded]: { when: 'Stop, StopFailure', from: 'running', to: Idle, error: 'keep' },
  [Move.CaughtUpIdle]: {
    when: 'HubEventsMissed: the transcript shows the turn over',
    from: 'running',
    to: Idle,
    error: 'keep',
  },
  [Move.CaughtUpBusy]: {
    when: 'HubEventsMissed: the transcript shows a turn going on',
    from: 'running',
    to: Busy,
    error: 'keep',
  },
  [Move.TurnInterrupted]: {
    when: 'interruptSession, or Esc on a dialog ended the turn (HubTurnEnded)',
    from: [Busy, Blocked],
    to: Idle,
    error: 'clear',
  },
  [Move.StartupBlocked]: {
    when: 'the screen of a starting claude shows a dialog (WORKSPACE_TRUST, API_KEY, UNKNOWN_SCREEN)',
    from: [Starting],
    to: Blocked,
    error: 'keep',
  },
  [Move.DialogShown]: {
    when: 'the screen of a quiet turn shows a dialog (blockedReason DIALOG, its text the error)',
    from: [Busy],
    to: Blocked,
    error: 'set',
  },
  [Move.DialogAnswered]: {
    when: "the turn's dialog is gone, or a hook event came",
    from: [Blocked],
    to: Busy,
    error: 'clear',
  },
  [Move.Disconnected]: {
    when: 'a restart on another address whose old hook port cannot be had',
    from: 'running',
    to: Disconnected,
    error: 'set',
  },
  [Move.Stopped]: {
    when: 'stopSession, or claude exited after a SessionEnd that ends it',
    from: 'any',
    to: Stopped,
    error: 'set',
  },
  [Move.Crashed]: {
    when: 'claude exited otherwise, or could not start',
    from: 'any',
    to: Crashed,
    error: 'set',
  },
};

/** The part of a session the lifecycle reads and writes. */
export type LifecycleState = Pick<
  SessionRecord,
  'status' | 'statusSince' | 'blockedReason' | 'error' | 'ended'
>;

export interface MoveDetail {
  /** When the move happened: statusSince when the status changes. */
  readonly at: number;
  /** BLOCKED's reason (a startup dialog's name, or DIALOG). */
  readonly reason?: string;
  /** The error a move that sets one leaves (null clears it). */
  readonly error?: string | null;
}

/** Whether `move` may be made from `status`. */
export function allowed(move: Move, status: SessionStatus): boolean {
  const { from } = lifecycle[move];
  if (from === 'any') return true;
  if (from === 'running') return isRunning(status);
  return from.includes(status);
}

/**
 * The state after `move`, or null when the move may not be made from the state's status
 * (nothing changes then). Pure: the table decides.
 */
export function next(state: LifecycleState, move: Move, detail: MoveDetail): LifecycleState | null {
  if (!allowed(move, state.status)) return null;
  const rule = lifecycle[move];
  const moved = rule.to !== state.status;
  return {
    status: rule.to,
    statusSince: moved ? detail.at : state.statusSince,
    blockedReason:
      rule.to !== Blocked ? null : moved ? (detail.reason ?? null) : state.blockedReason,
    error:
      rule.error === 'clear' ? null : rule.error === 'set' ? (detail.error ?? null) : state.error,
    ended: rule.revives ? false : state.ended,
  };
}

/** Makes a move on a session record; returns whether it was made. */
export function enter(record: SessionRecord, move: Move, detail: MoveDetail): boolean {
  const state = next(record, move, detail);
  if (state === null) return false;
  Object.assign(record, state);
  return true;
}
