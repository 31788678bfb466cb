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
   * Whether reads still return this stored event of the session: retention (by count or by age)
   * has not dropped it. Retention drops the oldest first, so while the oldest event a reader saw
   * is kept, so is every later one.
   */
  keeps(sessionId: string, event: Pick<StoredEvent, 'seq' | 'receivedAt'>): boolean;
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
    keeps: (sessionId, event) => log.keeps(sessionId, event),
  };
}
