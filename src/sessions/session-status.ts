import { stringField, type StoredEvent } from '../events/hook-event.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';

/** Sets the status, noting since when; the one way status changes. */
export function setStatus(record: SessionRecord, status: SessionStatus, at: number): void {
  if (record.status === status) return;
  record.status = status;
  record.statusSince = at;
  if (status !== SessionStatus.Blocked) record.blockedReason = null;
}

/** The fields an event can change that are worth a write and a notice (lastEventAt is not). */
const visible = [
  'status',
  'lastAssistantMessage',
  'claudeSessionId',
  'ended',
  'transcriptPath',
] as const satisfies readonly (keyof SessionRecord)[];

/**
 * Applies what a hook event says to a session record. Hook events are the first source of
 * truth for status; the pane's process (see statusOnExit) is the second.
 * Returns whether anything but lastEventAt changed.
 */
export function applyEvent(record: SessionRecord, event: StoredEvent): boolean {
  const before = visible.map((field) => record[field]);
  const { payload } = event;
  const set = (status: SessionStatus) => setStatus(record, status, event.receivedAt);
  record.lastEventAt = event.receivedAt;
  switch (event.eventName) {
    case 'SessionStart':
      // After /clear the same process goes on under a new Claude session id.
      record.claudeSessionId = payload.session_id;
      record.ended = false;
      if (isRunning(record.status)) set(SessionStatus.Idle);
      break;
    case 'UserPromptSubmit':
      if (isRunning(record.status)) set(SessionStatus.Busy);
      break;
    case 'Stop':
    case 'StopFailure':
      if (isRunning(record.status)) set(SessionStatus.Idle);
      record.lastAssistantMessage =
        stringField(payload, 'last_assistant_message') ?? record.lastAssistantMessage;
      break;
    case 'HubEventsMissed':
      // What the transcript showed while the hub was down: the turn is over or goes on.
      if (isRunning(record.status))
        set(payload.turn_over === true ? SessionStatus.Idle : SessionStatus.Busy);
      record.lastAssistantMessage =
        stringField(payload, 'last_assistant_message') ?? record.lastAssistantMessage;
      break;
    case 'SessionEnd':
      // `/clear` ends a Claude session id, not the hub session: a SessionStart follows.
      if (stringField(payload, 'reason') !== 'clear') record.ended = true;
      break;
  }
  return visible.some((field, i) => record[field] !== before[i]);
}

/**
 * The status of a session whose claude process has exited: STOPPED when asked to, or after a
 * SessionEnd that ends it; a process that dies before its SessionStart failed to start.
 */
export function statusOnExit(record: SessionRecord, stopRequested: boolean): SessionStatus {
  if (stopRequested) return SessionStatus.Stopped;
  return record.ended && record.status !== SessionStatus.Starting
    ? SessionStatus.Stopped
    : SessionStatus.Crashed;
}
