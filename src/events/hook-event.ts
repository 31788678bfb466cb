/** One hook event as the hub stores and delivers it. */
export interface StoredEvent {
  /** Hub session the event belongs to (its first Claude session id). */
  readonly sessionId: string;
  /** 1, 2, 3, ... per session, assigned on receipt. */
  readonly seq: number;
  readonly eventName: string;
  /** Milliseconds since the epoch. */
  readonly receivedAt: number;
  /** The body exactly as Claude Code posted it. */
  readonly raw: string;
  /** `raw`, parsed once. */
  readonly payload: HookPayload;
}

/** The fields every hook payload carries; the rest depend on the event. */
export interface HookPayload {
  readonly session_id: string;
  readonly hook_event_name: string;
  readonly [key: string]: unknown;
}

export type ParsedHookBody =
  | { readonly ok: true; readonly payload: HookPayload }
  | { readonly ok: false; readonly error: string };

/** Parses a POSTed hook body; pure, so the endpoint's validation is unit-testable. */
export function parseHookBody(text: string): ParsedHookBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `body is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'body must be a JSON object' };
  }
  const record = value as Record<string, unknown>;
  for (const key of ['session_id', 'hook_event_name'] as const) {
    const field = record[key];
    if (typeof field !== 'string' || field.length === 0 || field.length > 200) {
      return { ok: false, error: `"${key}" must be a non-empty string of at most 200 characters` };
    }
  }
  if (nestingExceeds(record, maxNesting)) {
    return { ok: false, error: `body nests objects or arrays deeper than ${maxNesting} levels` };
  }
  return { ok: true, payload: record as HookPayload };
}

/**
 * Deeper payloads are refused: they parse, but could not be serialised again for subscribers.
 * Claude Code's own payloads nest a few levels.
 */
export const maxNesting = 256;

/**
 * Walks containers only (strings are leaves), stopping as soon as the limit is passed. It runs
 * on every hook event, so it visits keys in place instead of copying them out.
 */
export function nestingExceeds(value: object, limit: number): boolean {
  if (limit === 0) return true;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const child = record[key];
    if (typeof child === 'object' && child !== null && nestingExceeds(child, limit - 1)) {
      return true;
    }
  }
  return false;
}

/** Reads a payload field as a string, or undefined when absent or of another type. */
export function stringField(payload: HookPayload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value : undefined;
}
