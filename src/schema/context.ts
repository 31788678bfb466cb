import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/tokens.js';
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
  readonly audit: AuditLog;
  /** Who is calling, and from which address. */
  readonly principal: Principal;
  readonly address: string;
}

/** The part of the context that is the same for every request. */
export type SharedContext = Omit<HubContext, 'principal' | 'address'>;
