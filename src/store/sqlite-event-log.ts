import type Database from 'better-sqlite3';
import type { EventLog, ReadOptions } from '../events/event-log.js';
import type { HookPayload, StoredEvent } from '../events/hook-event.js';

interface Row {
  seq: number;
  name: string;
  received_at: number;
  payload: string;
}

interface Pending {
  event: StoredEvent;
  resolve: (event: StoredEvent) => void;
  reject: (error: unknown) => void;
}

/**
 * The event log on SQLite. Events that arrive together are committed in one transaction
 * (group commit): each append waits at most one turn of the event loop for its batch.
 */
export class SqliteEventLog implements EventLog {
  readonly #db: Database.Database;
  readonly #lastSeq = new Map<string, number>();
  #pending: Pending[] = [];
  readonly #insert: Database.Statement;
  readonly #maxSeq: Database.Statement;
  readonly #clock: () => number;

  constructor(db: Database.Database, clock: () => number = Date.now) {
    this.#db = db;
    this.#clock = clock;
    this.#insert = db.prepare(
      'INSERT INTO events (session_id, seq, name, received_at, payload) VALUES (?, ?, ?, ?, ?)',
    );
    this.#maxSeq = db.prepare('SELECT MAX(seq) AS seq FROM events WHERE session_id = ?');
  }

  append(sessionId: string, raw: string, payload: HookPayload): Promise<StoredEvent> {
    const seq = this.lastSeq(sessionId) + 1;
    this.#lastSeq.set(sessionId, seq);
    const event: StoredEvent = {
      sessionId,
      seq,
      eventName: payload.hook_event_name,
      receivedAt: this.#clock(),
      raw,
      payload,
    };
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => this.#flush());
      this.#pending.push({ event, resolve, reject });
    });
  }

  async read(sessionId: string, options: ReadOptions = {}): Promise<StoredEvent[]> {
    const params: unknown[] = [sessionId, options.after ?? 0];
    let sql = 'SELECT seq, name, received_at, payload FROM events WHERE session_id = ? AND seq > ?';
    if (options.names) {
      sql += ` AND name IN (${options.names.map(() => '?').join(',') || 'NULL'})`;
      params.push(...options.names);
    }
    sql += ' ORDER BY seq';
    if (options.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(options.limit);
    }
    const rows = this.#db.prepare(sql).all(...params) as Row[];
    return rows.map((row) => ({
      sessionId,
      seq: row.seq,
      eventName: row.name,
      receivedAt: row.received_at,
      raw: row.payload,
      payload: JSON.parse(row.payload) as HookPayload,
    }));
  }

  lastSeq(sessionId: string): number {
    let seq = this.#lastSeq.get(sessionId);
    if (seq === undefined) {
      seq = (this.#maxSeq.get(sessionId) as { seq: number | null }).seq ?? 0;
      this.#lastSeq.set(sessionId, seq);
    }
    return seq;
  }

  #flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    try {
      this.#db.transaction(() => {
        for (const { event } of batch) {
          this.#insert.run(
            event.sessionId,
            event.seq,
            event.eventName,
            event.receivedAt,
            event.raw,
          );
        }
      })();
    } catch (error) {
      // The seqs of a failed batch are never reused, so readers see a gap rather than a lie.
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) item.resolve(item.event);
  }
}
