import type { StoredEvent } from '../events/hook-event.js';
import type { EventLog } from '../events/event-log.js';
import type { SessionManager } from '../sessions/session-manager.js';

/** What every resolver gets. */
export interface HubContext {
  readonly sessions: SessionManager;
  readonly log: EventLog;
  readonly sessionEvents: (sessionId: string, after: number | null) => AsyncGenerator<StoredEvent>;
}
