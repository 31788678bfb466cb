import type { HookPayload, StoredEvent } from './hook-event.js';

export interface ReadOptions {
  /** Only events with a greater seq. */
  readonly after?: number;
  /** At most this many events. */
  readonly limit?: number;
  /** Only events with one of these names. */
  readonly names?: readonly string[];
}

/**
 * The ordered, durable per-session log of hook events. The hook endpoint appends, subscriptions
 * and queries read. Kept small so that another engine can back it.
 */
export interface EventLog {
  /** Assigns the next seq and resolves once the event is durable. */
  append(sessionId: string, raw: string, payload: HookPayload): Promise<StoredEvent>;
  /** Events in seq order. */
  read(sessionId: string, options?: ReadOptions): Promise<StoredEvent[]>;
  /** The highest seq stored for the session, 0 when none. */
  lastSeq(sessionId: string): number;
  /**
   * The seq at or below which reads skip the session's events (retention by count), 0 when
   * they skip none: while it stays, no event a reader saw was dropped. Null where events also
   * expire with age, so that only a read tells.
   */
  keptAfter(sessionId: string): number | null;
}

/** The same log, telling `appended` of each session that stored an event. */
export function appendObserved(log: EventLog, appended: (sessionId: string) => void): EventLog {
  return {
    append: async (sessionId, raw, payload) => {
      const event = await log.append(sessionId, raw, payload);
      appended(sessionId);
      return event;
    },
    read: (sessionId, options) => log.read(sessionId, options),
    lastSeq: (sessionId) => log.lastSeq(sessionId),
    keptAfter: (sessionId) => log.keptAfter(sessionId),
  };
}
