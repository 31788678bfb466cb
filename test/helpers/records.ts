import type {
  PermissionRecord,
  PermissionStatus,
} from '../../src/permissions/permission-request.js';
import type { MessageRecord, MessageStatus } from '../../src/sessions/message.js';
import type { SessionRecord, SessionStatus } from '../../src/sessions/session.js';

/** Records as the store holds them, for tests that start from a store with history. */
export function session(id: string, status: SessionStatus, statusSince: number): SessionRecord {
  return {
    id,
    name: null,
    cwd: '/tmp',
    runtime: 'TMUX',
    origin: 'MANAGED',
    pane: null,
    pid: null,
    model: null,
    permissionMode: null,
    tmuxSession: `hub-${id}`,
    settingsPath: `/tmp/${id}.json`,
    hookUrl: null,
    hookSecretHash: `hash-${id}`,
    claudeSessionId: id,
    transcriptPath: null,
    status,
    statusSince,
    blockedReason: null,
    error: null,
    ended: status === 'STOPPED',
    restartCount: 0,
    restartTimes: [],
    createdAt: statusSince - 1000,
    lastEventAt: null,
    lastAssistantMessage: null,
    labels: [],
    createdBy: 'local',
    worktree: null,
    budgetUsd: null,
    budgetHold: null,
    account: null,
    usageLimit: null,
    parentId: null,
    orchestration: null,
  };
}

export function message(
  id: string,
  sessionId: string,
  queuedAt: number,
  status: MessageStatus = 'DELIVERED',
): MessageRecord {
  return {
    id,
    sessionId,
    text: `text of ${id}`,
    status,
    queuedAt,
    sentAt: null,
    deliveredAt: null,
    promptSeq: null,
    error: null,
  };
}

export function permission(
  id: string,
  sessionId: string,
  requestedAt: number,
  status: PermissionStatus = 'ALLOWED',
): PermissionRecord {
  return {
    id,
    sessionId,
    eventSeq: requestedAt,
    toolName: 'Bash',
    toolInput: { command: id },
    suggestions: null,
    requestedAt,
    status,
    decidedAt: null,
    message: null,
  };
}
