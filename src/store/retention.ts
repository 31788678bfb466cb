/** How long records are kept: as for events, by age and by count. */
export interface RecordRetention {
  /**
   * Milliseconds a session is kept once it ended (STOPPED or CRASHED), and with it its messages
   * and permission requests; 0 keeps them whatever their age.
   */
  readonly maxAgeMs: number;
  /** Messages, and permission requests, kept per session (the latest); 0 keeps all. */
  readonly perSession: number;
}

/**
 * The records to delete among many sessions' messages (or permission requests): all those of a
 * session in `forget`, and per session the settled ones beyond the latest `keep` (0 keeps all);
 * open ones (still to be delivered or decided) stay. Pure.
 */
export function beyondRetention<T extends { readonly sessionId: string }>(
  records: Iterable<T>,
  options: {
    readonly keep: number;
    readonly forget: ReadonlySet<string>;
    readonly time: (record: T) => number;
    readonly open: (record: T) => boolean;
  },
): T[] {
  const bySession = new Map<string, T[]>();
  const drop: T[] = [];
  for (const record of records) {
    if (options.forget.has(record.sessionId)) drop.push(record);
    else if (options.keep > 0) {
      const mine = bySession.get(record.sessionId);
      if (mine) mine.push(record);
      else bySession.set(record.sessionId, [record]);
    }
  }
  for (const mine of bySession.values()) {
    if (mine.length <= options.keep) continue;
    mine.sort((a, b) => options.time(b) - options.time(a));
    drop.push(...mine.slice(options.keep).filter((record) => !options.open(record)));
  }
  return drop;
}
