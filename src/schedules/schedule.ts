import type { CreateInput } from '../hub/hub.js';

/** What a tick does when the schedule's previous run is still busy. */
export const ScheduleOverlap = {
  /** Queue the text anyway: the session's queue delivers it once the turn before has ended. */
  Wait: 'WAIT',
  /** Send nothing this tick; lastError says so. */
  Skip: 'SKIP',
} as const;
export type ScheduleOverlap = (typeof ScheduleOverlap)[keyof typeof ScheduleOverlap];

/** lastError of a tick that SKIP left out. */
export const skippedBusy = 'skipped: previous run still busy';

/** A prompt sent at the times of a cron line: into a session, or as the prompt of a new one. */
export interface ScheduleRecord {
  readonly id: string;
  readonly cron: string;
  readonly timezone: string;
  readonly text: string;
  /** The session each tick sends to; null with createSession. */
  readonly sessionId: string | null;
  /** What each tick creates a session from, the text as its prompt; null with sessionId. */
  readonly createSession: CreateInput | null;
  readonly overlap: ScheduleOverlap;
  /** The next tick; null when the cron line names no later time. */
  nextRunAt: number | null;
  lastRunAt: number | null;
  /** The session the last run sent to (or created). */
  lastSessionId: string | null;
  /** The message the last run queued, to tell whether it is still on its way. */
  lastMessageId: string | null;
  /** Why the last run sent nothing (skipped, or failed); null after one that sent. */
  lastError: string | null;
  readonly createdAt: number;
  /** The name of the token that made it. */
  readonly createdBy: string;
}
