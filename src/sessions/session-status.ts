import { stringField, type StoredEvent } from '../events/hook-event.js';
import { SessionStatus, type SessionRecord } from './session.js';
import { enter, Move } from './session-lifecycle.js';

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
 * truth for status; the pane's process (see moveOnExit) is the second.
 * Returns whether anything but lastEventAt changed.
 */
export function applyEvent(
  record: SessionRecord,
  event: StoredEvent,
  /** A Stop a rule refused: claude works on, so the turn does not end. */
  turnGoesOn = false,
): boolean {
  const before = visible.map((field) => record[field]);
  const { payload } = event;
  const make = (move: Move) => enter(record, move, { at: event.receivedAt });
  record.lastEventAt = event.receivedAt;
  switch (event.eventName) {
    case 'SessionStart':
      // After /clear the same process goes on under a new Claude session id.
      record.claudeSessionId = payload.session_id;
      record.ended = false;
      make(Move.Started);
      break;
    case 'UserPromptSubmit':
      make(Move.PromptSubmitted);
      break;
    case 'Stop':
    case 'StopFailure':
      if (!turnGoesOn) make(Move.TurnEnded);
      record.lastAssistantMessage =
        stringField(payload, 'last_assistant_message') ?? record.lastAssistantMessage;
      break;
    case 'HubEventsMissed':
      // What the transcript showed while the hub was down: the turn is over or goes on.
      make(payload.turn_over === true ? Move.CaughtUpIdle : Move.CaughtUpBusy);
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
 * The move of a session whose claude process has exited: STOPPED after a SessionEnd that ends
 * it; otherwise CRASHED (a process that dies before its SessionStart failed to start).
 */
export function moveOnExit(record: SessionRecord): typeof Move.Stopped | typeof Move.Crashed {
  return record.ended && record.status !== SessionStatus.Starting ? Move.Stopped : Move.Crashed;
}
