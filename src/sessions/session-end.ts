import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { DialogWatch } from './dialog-watch.js';
import type { EventIntake } from './event-intake.js';
import type { HookUrls } from './hook-urls.js';
import type { SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';
import { enter, Move } from './session-lifecycle.js';

/** How a session ends: on purpose, or not. */
export type EndMove = typeof Move.Stopped | typeof Move.Crashed;

export interface SessionEndingDeps {
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
}
