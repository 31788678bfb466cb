import type { EventLog } from '../events/event-log.js';
import { stringField, type HookPayload, type StoredEvent } from '../events/hook-event.js';
import type { HubEventName } from '../events/registry.js';
import type { Logger } from '../log.js';
import { fieldOf, type StreamLine } from '../runtime/headless-runtime.js';
import type { DialogWatch } from './dialog-watch.js';
import { inTurn } from './dialog-watch.js';
import type { SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';
import { applyEvent } from './session-status.js';
import { readTranscriptSince } from './transcript.js';

/** Why the hub ended a turn claude never ended with a Stop (see HubTurnEnded). */
export type TurnEndReason = 'interrupted' | 'stopped' | 'crashed';

/**
 * The only way an event enters a session's log: hook events, headless output and the hub's own
 * events are stored, applied to the session, then published, in that order.
 */
export class EventIntake {
  readonly #log: EventLog;
  readonly #changes: SessionChanges;
  readonly #dialogs: Pick<DialogWatch, 'eventCame'>;
  readonly #logger: Logger;

  constructor(deps: {
    log: EventLog;
    changes: SessionChanges;
    dialogs: Pick<DialogWatch, 'eventCame'>;
    logger: Logger;
  }) {
    this.#log = deps.log;
    this.#changes = deps.changes;
    this.#dialogs = deps.dialogs;
    this.#logger = deps.logger;
  }

  /**
   * Stores an event, applies it to the session, then publishes it. With `turnGoesOn`, a Stop
   * that a rule refused (claude works on) does not end the turn.
   */
  async append(
    record: SessionRecord,
    raw: string,
    payload: HookPayload,
    options: { readonly turnGoesOn?: boolean } = {},
  ): Promise<StoredEvent> {
    const event = await this.#log.append(record.id, raw, payload);
    const transcriptPath = stringField(payload, 'transcript_path');
    const resumed = this.#dialogs.eventCame(record, event);
    const changed =
      applyEvent(record, event, options.turnGoesOn) ||
      resumed ||
      (transcriptPath !== undefined && transcriptPath !== record.transcriptPath);
    if (transcriptPath) record.transcriptPath = transcriptPath;
    // lastEventAt alone is not written per event: re-adoption reads it back from the log.
    this.#changes.commit(record, { event, changed });
    return event;
  }

  /** Puts an event the hub itself makes (see hubEvents) into a session's stream. */
  appendHub(
    record: SessionRecord,
    name: HubEventName,
    fields: Record<string, unknown>,
  ): Promise<StoredEvent> {
    const payload: HookPayload = {
      session_id: record.claudeSessionId,
      hook_event_name: name,
      cwd: record.cwd,
      ...(record.transcriptPath ? { transcript_path: record.transcriptPath } : {}),
      ...fields,
    };
    return this.append(record, JSON.stringify(payload), payload);
  }

  /**
   * Keeps a line a headless claude printed, as a StreamMessage event: every line, so nothing is
   * lost; one that is not JSON is kept as text, with a warning.
   */
  async appendStreamLine(
    record: SessionRecord,
    { text, message, interrupted }: StreamLine,
  ): Promise<void> {
    if (message === undefined) {
      this.#logger.warn(
        { sessionId: record.id, line: text.slice(0, 200) },
        'claude printed a line that is not JSON',
      );
    }
    await this.appendHub(
      record,
      'StreamMessage',
      message === undefined
        ? { type: 'not_json', subtype: null, message: text }
        : {
            type: fieldOf(message, 'type'),
            subtype: fieldOf(message, 'subtype'),
            message,
            ...(interrupted ? { interrupted } : {}),
          },
    );
  }

  /**
   * Hook events of a time the hub did not hear the session are lost; when the transcript shows
   * the session went on, one HubEventsMissed event says what happened, and the status follows it.
   */
  async recordMissed(record: SessionRecord): Promise<void> {
    if (!record.transcriptPath || record.lastEventAt === null) return;
    const summary = await readTranscriptSince(record.transcriptPath, record.lastEventAt);
    if (summary.count === 0) return;
    await this.appendHub(record, 'HubEventsMissed', {
      since: new Date(record.lastEventAt).toISOString(),
      until: new Date().toISOString(),
      step_count: summary.count,
      steps: summary.steps,
      turn_over: summary.turnOver,
      last_assistant_message: summary.lastAssistantMessage,
    });
    this.#logger.info(
      { sessionId: record.id, steps: summary.count },
      'transcript steps happened while the hub was down',
    );
  }

  /**
   * Marks the end of a turn that claude never ended with a Stop (see HubTurnEnded); nothing
   * when no turn runs. Called before the status leaves BUSY.
   */
  async endTurn(record: SessionRecord, reason: TurnEndReason, error: string | null): Promise<void> {
    if (!inTurn(record)) return;
    await this.appendHub(record, 'HubTurnEnded', { reason, error }).catch((err: unknown) =>
      this.#logger.error({ sessionId: record.id, err }, 'turn end could not be stored'),
    );
  }

  /** The time of the last event of a session's log, if any. */
  async lastEventAt(id: string): Promise<number | null> {
    const [last] = await this.#log.read(id, { after: this.#log.lastSeq(id) - 1, limit: 1 });
    return last ? last.receivedAt : null;
  }
}
