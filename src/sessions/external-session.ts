import { stringField, type HookPayload } from '../events/hook-event.js';
import { RuntimeKind, SessionOrigin } from '../runtime/session-runtime.js';
import type { PaneAddress } from '../runtime/tmux-pane.js';
import { freshLifecycle, SessionStatus, type SessionRecord } from './session.js';

export function isExternal(record: Pick<SessionRecord, 'origin'>): boolean {
  return record.origin === SessionOrigin.External;
}

/** Events after which claude waits for input; any other first event is heard mid-turn. */
const idleAfter = new Set(['SessionStart', 'Stop', 'StopFailure', 'SessionEnd']);

/**
 * The record of a claude a person started, first heard of through `payload` (or found running
 * at start, when `busy` says what its session file said): keyed by its Claude session id, as a
 * session the hub starts is. Pure.
 */
export function externalRecord(options: {
  readonly payload: HookPayload;
  readonly pid: number | null;
  readonly pane: PaneAddress | null;
  readonly busy: boolean | null;
  readonly now: number;
}): SessionRecord {
  const { payload, now } = options;
  const busy = options.busy ?? !idleAfter.has(payload.hook_event_name);
  return {
    id: payload.session_id,
    name: null,
    cwd: stringField(payload, 'cwd') ?? '',
    model: null,
    permissionMode: stringField(payload, 'permission_mode') ?? null,
    runtime: RuntimeKind.Tmux,
    origin: SessionOrigin.External,
    pane: options.pane,
    pid: options.pid,
    tmuxSession: '',
    settingsPath: '',
    claudeSessionId: payload.session_id,
    transcriptPath: stringField(payload, 'transcript_path') ?? null,
    status: busy ? SessionStatus.Busy : SessionStatus.Idle,
    labels: [],
    createdBy: null,
    worktree: null,
    budgetUsd: null,
    budgetHold: null,
    account: null,
    usageLimit: null,
    parentId: null,
    orchestration: null,
    ...freshLifecycle(now),
  };
}
