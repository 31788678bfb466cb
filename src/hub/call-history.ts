import type { StoredEvent } from '../events/hook-event.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import {
  PolicyReplay,
  tieRequests,
  type DryRunResult,
  type PastCall,
} from '../permissions/policy-dry-run.js';
import type { PermissionRule } from '../permissions/rule.js';
import { ruleSession } from '../sessions/policy-gate.js';
import type { SessionRecord } from '../sessions/session.js';
import type { Hub } from './hub.js';

/** How much of the stored history one dry run reads; past a bound it stops and says so. */
export interface DryRunBounds {
  /** Tool calls replayed, over every session. */
  readonly maxCalls: number;
  /** Sessions read, the most recently active first. */
  readonly maxSessions: number;
  /** PreToolUse events read from the log at once, and calls replayed at once; the event loop
   * is yielded after each. */
  readonly pageSize: number;
}

export const dryRunBounds: DryRunBounds = { maxCalls: 50_000, maxSessions: 1_000, pageSize: 500 };

/** Which calls a dry run replays: those received at or after `since`, of one session or all. */
export interface DryRunScope {
  /** Milliseconds since the epoch; null: the whole stored history. */
  readonly since: number | null;
  /** Null: every session the hub lists (every node's, in a cluster). */
  readonly sessionId: string | null;
}

/**
 * Replays the stored tool calls of `scope` against `rules` (see PolicyReplay). The log is read
 * in pages of PreToolUse events, and the event loop yielded after each page and each session,
 * so that a long history delays hook events and other requests by one page's read at most.
 * SESSION_NOT_FOUND for an unknown `sessionId`.
 */
export async function replayCallHistory(
  hub: Pick<Hub, 'list' | 'require' | 'permissionRequests' | 'log'>,
  rules: readonly PermissionRule[],
  scope: DryRunScope,
  bounds: DryRunBounds = dryRunBounds,
): Promise<DryRunResult> {
  const { since } = scope;
  let sessions = scope.sessionId === null ? hub.list() : [hub.require(scope.sessionId)];
  sessions = sessions
    .filter(
      (record) => since === null || record.lastEventAt === null || record.lastEventAt >= since,
    )
    .sort((a, b) => lastActive(b) - lastActive(a));
  let truncated = sessions.length > bounds.maxSessions;
  sessions = sessions.slice(0, bounds.maxSessions);
  const records = requestsBySession(hub.permissionRequests(), sessions);
  const replay = new PolicyReplay(rules);
  let left = bounds.maxCalls;
  let read = 0;
  for (const record of sessions) {
    const { calls, more } = await sessionCalls(hub, record.id, since, left, bounds.pageSize);
    read += 1;
    const session = ruleSession(record);
    const tied = tieRequests(calls, records.get(record.id) ?? []);
    for (let i = 0; i < calls.length; i++) {
      replay.replayCall(session, calls[i]!, tied[i] ?? null);
      if ((i + 1) % bounds.pageSize === 0) await nextTurn();
    }
    left -= calls.length;
    if (more) {
      truncated = true;
      break;
    }
    await nextTurn();
  }
  return replay.result({ sessions: read, truncated });
}

/**
 * A session's calls received at or after `since`, in seq order, at most `most`; `more` when
 * the log holds another after them.
 */
async function sessionCalls(
  hub: Pick<Hub, 'log'>,
  sessionId: string,
  since: number | null,
  most: number,
  pageSize: number,
): Promise<{ calls: PastCall[]; more: boolean }> {
  const calls: PastCall[] = [];
  let after = 0;
  for (;;) {
    const page = await hub.log.read(sessionId, { after, limit: pageSize, names: ['PreToolUse'] });
    for (const event of page) {
      // Only the time is read here: a call before `since` leaves its payload unread.
      if (since !== null && event.receivedAt < since) continue;
      if (calls.length === most) return { calls, more: true };
      calls.push(pastCall(event));
    }
    if (page.length < pageSize) return { calls, more: false };
    after = page.at(-1)!.seq;
    await nextTurn();
  }
}

function pastCall(event: StoredEvent): PastCall {
  const { payload } = event;
  return {
    sessionId: event.sessionId,
    seq: event.seq,
    at: event.receivedAt,
    toolName: typeof payload.tool_name === 'string' ? payload.tool_name : '',
    toolInput: payload.tool_input ?? {},
    toolUseId: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : null,
  };
}

function requestsBySession(
  all: readonly PermissionRecord[],
  sessions: readonly SessionRecord[],
): Map<string, PermissionRecord[]> {
  const wanted = new Set(sessions.map((record) => record.id));
  const by = new Map<string, PermissionRecord[]>();
  for (const request of all) {
    if (!wanted.has(request.sessionId)) continue;
    const list = by.get(request.sessionId);
    if (list) list.push(request);
    else by.set(request.sessionId, [request]);
  }
  return by;
}

const lastActive = (record: SessionRecord) => record.lastEventAt ?? record.createdAt;

/** Lets the hook events and requests that arrived meanwhile run first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
