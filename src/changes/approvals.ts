import { PermissionStatus, type PermissionRecord } from '../permissions/permission-request.js';
import { fileTools, type Action } from '../runs/action.js';

/** How a tool call came to be allowed. */
export const ApprovalKind = {
  /** A person, through the API, with the token named. */
  Person: 'PERSON',
  /** A permission rule of the hub's. */
  Rule: 'RULE',
  /** A person at the terminal, in claude's own dialog. */
  Terminal: 'TERMINAL',
  /** The session's permission mode let it through unasked (acceptEdits, bypassPermissions, auto). */
  Mode: 'MODE',
  /** Nobody was asked: claude's settings allow it, or it needs no permission. */
  NoPrompt: 'NO_PROMPT',
} as const;
export type ApprovalKind = (typeof ApprovalKind)[keyof typeof ApprovalKind];

/** How one tool call was allowed. */
export interface PermissionDecisionSource {
  readonly kind: ApprovalKind;
  /** The tool call. */
  readonly toolUseId: string;
  /** PERSON: the token's name. */
  readonly token: string | null;
  /** RULE: the rule's name. */
  readonly rule: string | null;
  /** The permission mode claude was in at the call. */
  readonly mode: string | null;
  /** The permission request that decided it, when one did. */
  readonly requestId: string | null;
  readonly decidedAt: number | null;
}

/** Modes that let a call through unasked: all calls, or (acceptEdits) the edits. */
function modeAllows(mode: string | null, toolName: string | null): boolean {
  if (mode === 'bypassPermissions' || mode === 'auto') return true;
  return mode === 'acceptEdits' && fileTools.has(toolName ?? '');
}

const inputOf = (action: Action) => action.detail?.input;

/**
 * The permission request that decided a call: the one a rule decided at its PreToolUse (by the
 * call's id), else a PermissionRequest for the same tool and input made while it ran. Pure.
 */
export function requestOf(
  action: Action,
  records: readonly PermissionRecord[],
): PermissionRecord | null {
  const byId = records.find((record) => record.toolUseId === action.id);
  if (byId) return byId;
  const input = JSON.stringify(inputOf(action) ?? null);
  const end = action.completedAt ?? Infinity;
  return (
    records.find(
      (record) =>
        !record.toolUseId &&
        record.toolName === action.toolName &&
        record.requestedAt >= action.startedAt &&
        record.requestedAt <= end &&
        JSON.stringify(record.toolInput ?? null) === input,
    ) ?? null
  );
}

/** How a call that ran was allowed, from its permission request and claude's mode then. Pure. */
export function approvalOf(
  action: Action,
  mode: string | null,
  records: readonly PermissionRecord[],
): PermissionDecisionSource {
  const request = requestOf(action, records);
  const base = { toolUseId: action.id, token: null, rule: null, mode };
  const ran =
    request?.status !== PermissionStatus.Denied && request?.status !== PermissionStatus.Pending;
  if (request && ran) {
    const decided = { ...base, requestId: request.id, decidedAt: request.decidedAt };
    const [by, ...rest] = (request.decidedBy ?? '').split(' ');
    const name = rest.join(' ');
    // Not ALLOWED, yet it ran: claude's dialog answered (the hold ran out, or the terminal was first).
    if (request.status !== PermissionStatus.Allowed || by === 'terminal')
      return { ...decided, kind: ApprovalKind.Terminal };
    if (by === 'rule') return { ...decided, kind: ApprovalKind.Rule, rule: name };
    // A record from before decisions named their maker says no token.
    return { ...decided, kind: ApprovalKind.Person, token: by === 'token' ? name : null };
  }
  const kind = modeAllows(mode, action.toolName) ? ApprovalKind.Mode : ApprovalKind.NoPrompt;
  return { ...base, kind, requestId: null, decidedAt: null };
}
