import type { StoredEvent } from '../events/hook-event.js';
import type { EventLog } from '../events/event-log.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { SessionRecord } from '../sessions/session.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { PermissionRecord } from '../permissions/permission-request.js';

/** What every resolver gets. */
export interface HubContext {
  readonly sessions: SessionManager;
  readonly log: EventLog;
  readonly sessionEvents: (sessionId: string, after: number | null) => AsyncGenerator<StoredEvent>;
  readonly permissions: PermissionBroker;
  readonly sessionUpdates: () => AsyncGenerator<SessionRecord>;
  readonly permissionChanges: () => AsyncGenerator<PermissionRecord>;
}
