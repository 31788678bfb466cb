import type { Logger } from '../log.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { EventIntake } from './event-intake.js';
import type { SessionChanges } from './session-changes.js';
import type { SessionIndex } from './session-index.js';

/**
 * What a permission request's changes mean for its session. The broker holds the request; what
 * clients see of the session is the sessions' to say, so it is said here.
 */
export class PermissionOutcomes {
  readonly #index: Pick<SessionIndex, 'get' | 'require'>;
  readonly #changes: Pick<SessionChanges, 'updates'>;
  readonly #intake: Pick<EventIntake, 'appendHub'>;
  readonly #log: Logger;

  constructor(deps: {
    index: Pick<SessionIndex, 'get' | 'require'>;
    changes: Pick<SessionChanges, 'updates'>;
    intake: Pick<EventIntake, 'appendHub'>;
    log: Logger;
  }) {
    this.#index = deps.index;
    this.#changes = deps.changes;
    this.#intake = deps.intake;
    this.#log = deps.log;
  }

  /**
   * A request was made or settled: its session is published again, though its record did not
   * change, since the status clients see is AWAITING_PERMISSION while a request waits
   * (SessionManager.statusOf). Nothing is saved: the status is derived, never stored.
   */
  changed(request: PermissionRecord): void {
    const record = this.#index.get(request.sessionId);
    if (record) this.#changes.updates.publish(record);
  }

  /**
   * A request was settled: HubPermissionResolved enters the session's stream, so that a replay
   * shows how it was settled. The broker does not wait on it, so a failure is logged here.
   */
  async resolved(request: PermissionRecord): Promise<void> {
    try {
      await this.#intake.appendHub(
        this.#index.require(request.sessionId),
        'HubPermissionResolved',
        {
          request_id: request.id,
          tool_name: request.toolName,
          status: request.status,
          message: request.message,
          decided_by: request.decidedBy ?? null,
          explanation: request.explanation ?? null,
        },
      );
    } catch (error) {
      this.#log.error(
        { sessionId: request.sessionId, requestId: request.id, err: error },
        'permission resolution could not be stored',
      );
    }
  }
}
