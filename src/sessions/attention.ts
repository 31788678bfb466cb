import type { PermissionRecord } from '../permissions/permission-request.js';
import { heldByDialog } from './dialog-watch.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';

/** Why a session needs a person. */
export const AttentionReason = {
  /** A permission request waits for a decision. */
  Permission: 'PERMISSION',
  /** The turn is over and claude waits for input. */
  Idle: 'IDLE',
  /** claude sits on a startup dialog, or its turn waits on a dialog (see DialogWatch). */
  Blocked: 'BLOCKED',
  /**
   * Its hooks cannot reach the hub until it is relaunched: a dialog in its terminal would go
   * unseen by the API.
   */
  Disconnected: 'DISCONNECTED',
  /** claude exited unexpectedly or failed to start. */
  Crashed: 'CRASHED',
  /** Its turn is over and its spending reached a budget: its queued messages wait for a raise. */
  BudgetReached: 'BUDGET_REACHED',
} as const;
export type AttentionReason = (typeof AttentionReason)[keyof typeof AttentionReason];

export interface AttentionItem {
  readonly session: SessionRecord;
  readonly reason: AttentionReason;
  /** Since when it has waited. */
  readonly since: number;
  /** The oldest pending request, for PERMISSION. */
  readonly permissionRequest: PermissionRecord | null;
  /** The text of the dialog a BLOCKED turn waits on; null for anything else. */
  readonly dialog: string | null;
}

/** Most urgent first: a pending request stalls a running turn; an idle session only waits. */
const urgency: Record<AttentionReason, number> = {
  PERMISSION: 0,
  BLOCKED: 1,
  DISCONNECTED: 2,
  CRASHED: 3,
  BUDGET_REACHED: 4,
  IDLE: 5,
};

/** Why one session needs a person now, or null when it does not. Pure. */
export function attentionItemOf(
  session: SessionRecord,
  pendingOf: (sessionId: string) => readonly PermissionRecord[],
): AttentionItem | null {
  const oldest = isRunning(session.status) ? pendingOf(session.id)[0] : undefined;
  if (oldest) {
    return {
      session,
      reason: AttentionReason.Permission,
      since: oldest.requestedAt,
      permissionRequest: oldest,
      dialog: null,
    };
  }
  const reason =
    session.status === SessionStatus.Idle
      ? session.budgetHold
        ? AttentionReason.BudgetReached
        : AttentionReason.Idle
      : session.status === SessionStatus.Blocked
        ? AttentionReason.Blocked
        : session.status === SessionStatus.Disconnected
          ? AttentionReason.Disconnected
          : session.status === SessionStatus.Crashed
            ? AttentionReason.Crashed
            : null;
  if (!reason) return null;
  return {
    session,
    reason,
    since: session.statusSince,
    permissionRequest: null,
    dialog: heldByDialog(session) ? session.error : null,
  };
}

/** The queue's order: most urgent reason first, then the longest-waiting. */
export const byUrgency = (a: AttentionItem, b: AttentionItem) =>
  urgency[a.reason] - urgency[b.reason] || a.since - b.since;

/** The sessions that need a person: most urgent reason first, then the longest-waiting. Pure. */
export function attentionItems(
  sessions: readonly SessionRecord[],
  pendingOf: (sessionId: string) => readonly PermissionRecord[],
): AttentionItem[] {
  const items: AttentionItem[] = [];
  for (const session of sessions) {
    const item = attentionItemOf(session, pendingOf);
    if (item) items.push(item);
  }
  return items.sort(byUrgency);
}

/** What makes an item the same item: a session, why, and since when (a new turn's IDLE is new). */
export function attentionKey(item: AttentionItem): string {
  return `${item.session.id} ${item.reason} ${item.permissionRequest?.id ?? item.since}`;
}

/** The items of `after` that `before` did not have: a session that has just started to wait. */
export function raisedItems(
  before: readonly AttentionItem[],
  after: readonly AttentionItem[],
): AttentionItem[] {
  const known = new Set(before.map(attentionKey));
  return after.filter((item) => !known.has(attentionKey(item)));
}
