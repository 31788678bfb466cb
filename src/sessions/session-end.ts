import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import { heldByDialog, type DialogWatch } from './dialog-watch.js';
import type { EventIntake } from './event-intake.js';
import type { HookUrls } from './hook-urls.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';
import { enter, Move } from './session-lifecycle.js';

/** How a session ends: on purpose, or not. */
export type EndMove = typeof Move.Stopped | typeof Move.Crashed;

export interface SessionEndingDeps {
  readonly runtime: Pick<SessionRuntime, 'stop'>;
  /** How long a stop waits for claude's SessionEnd before giving up on it. */
  readonly stopTimeoutMs: number;
  readonly intake: Pick<EventIntake, 'endTurn'>;
  readonly changes: SessionChanges;
  readonly dialogs: Pick<DialogWatch, 'forget'>;
  readonly permissions: Pick<PermissionBroker, 'sessionGone'>;
  readonly hookUrls: Pick<HookUrls, 'releaseUnused'>;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * Ends a session: a crash ends its running turn, its pending permission requests go, its
 * stream ends when it stopped for good, and hook addresses no session needs are let go.
 */
export class SessionEnding {
  readonly #deps: SessionEndingDeps;
  /** Sessions being stopped now: their exit is the stop's to handle, not the poll tick's. */
  readonly #stopping = new Set<string>();

  constructor(deps: SessionEndingDeps) {
    this.#deps = deps;
  }

  finish(record: SessionRecord, move: EndMove, error: string | null): void {
    const { intake, changes, dialogs, permissions, hookUrls, clock, log } = this.#deps;
    log.info({ sessionId: record.id, status: move }, 'session ended');
    dialogs.forget(record.id);
    if (move === Move.Crashed) void intake.endTurn(record, 'crashed', error);
    enter(record, move, { at: clock.now(), error });
    permissions.sessionGone(record.id);
    changes.commit(record, { ended: move === Move.Stopped });
    void hookUrls.releaseUnused();
  }

  isStopping(id: string): boolean {
    return this.#stopping.has(id);
  }

  /** Ends claude (its SessionEnd is still delivered), then its runtime's session; STOPPED. */
  async stop(record: SessionRecord): Promise<void> {
    const { runtime, changes, intake, stopTimeoutMs } = this.#deps;
    const { id } = record;
    if (!isRunning(record.status)) return;
    if (this.#stopping.has(id)) {
      await changes.waitFor(id, () => !isRunning(record.status), stopTimeoutMs * 2);
      return;
    }
    this.#stopping.add(id);
    try {
      // A claude that never started (no SessionStart) fires no SessionEnd either.
      // Nor can a DISCONNECTED one's reach the hub.
      const started =
        record.status !== SessionStatus.Starting &&
        (record.status !== SessionStatus.Blocked || heldByDialog(record)) &&
        record.status !== SessionStatus.Disconnected;
      await runtime.stop(record);
      if (started) await changes.waitFor(id, () => record.ended, stopTimeoutMs);
      // Its SessionEnd, when it came, ended a running turn already.
      if (!record.ended) await intake.endTurn(record, 'stopped', null);
      this.finish(record, Move.Stopped, null);
    } finally {
      this.#stopping.delete(id);
    }
  }
}
