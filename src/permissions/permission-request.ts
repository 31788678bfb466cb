/** Where a permission request is; only PENDING ones hold claude's hook request open. */
export const PermissionStatus = {
  Pending: 'PENDING',
  Allowed: 'ALLOWED',
  Denied: 'DENIED',
  /** Nobody decided within the hold, or the hub restarted while holding it. */
  Expired: 'EXPIRED',
  /** The person at the terminal answered claude's own dialog first. */
  AnsweredInTerminal: 'ANSWERED_IN_TERMINAL',
} as const;
export type PermissionStatus = (typeof PermissionStatus)[keyof typeof PermissionStatus];

export interface PermissionRecord {
  readonly id: string;
  readonly sessionId: string;
  /** seq of the hook event it answers: a PermissionRequest, or a PreToolUse a rule decided. */
  readonly eventSeq: number;
  /** The tool call's id, when a rule decided at its PreToolUse (a PermissionRequest has none). */
  readonly toolUseId?: string | null;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly suggestions: unknown;
  readonly requestedAt: number;
  status: PermissionStatus;
  decidedAt: number | null;
  /** The deny message, or why the request ended without a decision. */
  message: string | null;
  /**
   * Who decided: `rule <name>`, `token <name>`, `terminal` (claude's own dialog), `expiry` (the
   * hold ran out); null while pending, or when the session or the hub ended first. Records
   * stored before rules lack it.
   */
  decidedBy?: string | null;
  /** For a rule's decision (or a rule that asked a person): which part matched what. */
  explanation?: string | null;
}

export interface Decision {
  readonly requestId: string;
  readonly behavior: 'ALLOW' | 'DENY';
  readonly message?: string | null | undefined;
  readonly updatedInput?: unknown;
  readonly interrupt?: boolean | null | undefined;
  /** Who decides, as PermissionRecord.decidedBy says it: `token <name>`. */
  readonly decidedBy?: string | null | undefined;
}

/** Expected failures of a decision, returned in the payload rather than thrown. */
export const DecisionErrorCode = {
  NotFound: 'NOT_FOUND',
  AlreadyDecided: 'ALREADY_DECIDED',
  Expired: 'EXPIRED',
  AnsweredInTerminal: 'ANSWERED_IN_TERMINAL',
} as const;
export type DecisionErrorCode = (typeof DecisionErrorCode)[keyof typeof DecisionErrorCode];

export type DecisionResult =
  | { readonly request: PermissionRecord; readonly error: null }
  | {
      readonly request: PermissionRecord | null;
      readonly error: { code: DecisionErrorCode; message: string };
    };

/** The hook answer Claude Code reads from a PermissionRequest hook (see the facts file). */
export function hookAnswer(decision: Decision): Record<string, unknown> {
  const body =
    decision.behavior === 'ALLOW'
      ? {
          behavior: 'allow',
          ...(decision.updatedInput != null ? { updatedInput: decision.updatedInput } : {}),
        }
      : {
          behavior: 'deny',
          ...(decision.message ? { message: decision.message } : {}),
          ...(decision.interrupt ? { interrupt: true } : {}),
        };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: body } };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether an event shows that a pending request was answered elsewhere: its tool ran or was
 * refused, or the turn moved on. Pure.
 */
export function settledBy(
  request: PermissionRecord,
  eventName: string,
  payload: Record<string, unknown>,
): boolean {
  switch (eventName) {
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionDenied':
      return (
        payload.tool_name === request.toolName && sameJson(payload.tool_input, request.toolInput)
      );
    case 'Stop':
    case 'StopFailure':
    case 'UserPromptSubmit':
    case 'SessionEnd':
      return true;
    default:
      return false;
  }
}
