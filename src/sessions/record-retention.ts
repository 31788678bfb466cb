import type { RecordRetention } from '../store/retention.js';
import { isRunning, type SessionRecord } from './session.js';

/** What a pass of retention deleted. */
export interface PrunedRecords {
  sessions: number;
  messages: number;
  permissions: number;
}

/**
 * When a session ended: the latest of its status change, its last event and its creation (a
 * record stored before statusSince existed reads it as 0).
 */
export function endedAt(record: SessionRecord): number {
  return Math.max(record.statusSince ?? 0, record.lastEventAt ?? 0, record.createdAt);
}

/** True when the session ended longer ago than retention keeps it. Pure. */
export function expired(record: SessionRecord, retention: RecordRetention, now: number): boolean {
  return (
    retention.maxAgeMs > 0 &&
    !isRunning(record.status) &&
    endedAt(record) < now - retention.maxAgeMs
  );
}
