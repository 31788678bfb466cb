import type Database from 'better-sqlite3';
import type { EventLog, ReadOptions } from '../events/event-log.js';
import type { HookPayload, StoredEvent } from '../events/hook-event.js';
import { GroupCommit } from './group-commit.js';

interface Row {
  seq: number;
  name: string;
  received_at: number;
}

/**
 * The events of one page read. Their payloads, which may be megabytes of tool output, are read
 * only when a reader asks for one, and then for the rest of the page at once: a replay that
 * selects `seq` reads no payload, one that selects `payload` one range per page. A page of some
 * events' names reads only theirs: the tool output of the PostToolUse events between a page of
 * PreToolUse events stays unread.
 */
class ReadPage {
  readonly #payloads: Database.Statement;
  readonly #names: readonly string[];
  readonly #events: ReadEvent[] = [];

  constructor(payloads: Database.Statement, names: readonly string[]) {
    this.#payloads = payloads;
    this.#names = names;
  }

  add(event: ReadEvent): void {
    this.#events.push(event);
  }

  /** Reads the payloads of the events from `index` to the end of the page. */
  load(index: number): void {
    const events = this.#events;
    const first = events[index]!;
    const rows = this.#payloads.all(
      first.sessionId,
      first.seq,
      events.at(-1)!.seq,
      ...this.#names,
    ) as {
      seq: number;
      payload: string;
    }[];
    let row = 0;
    for (let i = index; i < events.length; i++) {
      const event = events[i]!;
      while (row < rows.length && rows[row]!.seq < event.seq) row += 1;
      // An event pruned by retention since the page was read has no payload left.
      event.fill(rows[row]?.seq === event.seq ? rows[row]!.payload : '{}');
    }
  }
}

/** A stored event read back; its payload is read and parsed only when a reader asks for it. */
class ReadEvent implements StoredEvent {
  readonly sessionId: string;
  readonly seq: number;
  readonly eventName: string;
  readonly receivedAt: number;
  readonly #page: ReadPage;
  readonly #index: number;
  #raw: string | undefined;
  #payload: HookPayload | undefined;

  constructor(sessionId: string, row: Row, page: ReadPage, index: number) {
    this.sessionId = sessionId;
    this.seq = row.seq;
    this.eventName = row.name;
    this.receivedAt = row.received_at;
    this.#page = page;
    this.#index = index;
  }

  fill(raw: string): void {
    this.#raw ??= raw;
  }

  get raw(): string {
    if (this.#raw === undefined) this.#page.load(this.#index);
    return this.#raw!;
  }

  get payload(): HookPayload {
    return (this.#payload ??= JSON.parse(this.raw) as HookPayload);
  }
}

export interface Retention {
  /** Events kept per session; 0 keeps all. */
  readonly events: number;
  /** Milliseconds an event is kept; 0 keeps events whatever their age. */
  readonly maxAgeMs: number;
}

/**
 * The event log on SQLite. Events that arrive together are committed in one transaction, with
 * the other writes of that turn given to the same GroupCommit: each append waits at most one
 * turn of the event loop for its batch.
 * Retention is exact for readers (reads skip what is past the bound) and amortised on disk
 * (rows are deleted every `pruneEvery` appends of a session and by prune()).
 */
export class SqliteEventLog implements EventLog {
  readonly #db: Database.Database;
  readonly #lastSeq = new Map<string, number>();
  readonly #appendsSincePrune = new Map<string, number>();
  readonly #commits: GroupCommit;
  readonly #insert: Database.Statement;
  readonly #maxSeq: Database.Statement;
  readonly #payloads: Database.Statement;
  readonly #deleteUpTo: Database.Statement;
  readonly #deleteOlder: Database.Statement;
  readonly #retention: Retention;
  readonly #clock: () => number;
  readonly #pruneEvery = 256;
  /** Prepared reads by their SQL (one per shape of filter). */
  readonly #reads = new Map<string, Database.Statement>();

  constructor(
    db: Database.Database,
    retention: Retention = { events: 0, maxAgeMs: 0 },
    clock: () => number = Date.now,
    /** Where its inserts are committed, with the other writes of the same turn. */
    commits: GroupCommit = new GroupCommit(db),
  ) {
    this.#db = db;
    this.#commits = commits;
    this.#retention = retention;
    this.#clock = clock;
    this.#deleteUpTo = db.prepare('DELETE FROM events WHERE session_id = ? AND seq <= ?');
    this.#deleteOlder = db.prepare('DELETE FROM events WHERE received_at < ?');
    this.#insert = db.prepare(
      'INSERT INTO events (session_id, seq, name, received_at, payload) VALUES (?, ?, ?, ?, ?)',
    );
    this.#maxSeq = db.prepare('SELECT MAX(seq) AS seq FROM events WHERE session_id = ?');
    this.#payloads = db.prepare(
      'SELECT seq, payload FROM events WHERE session_id = ? AND seq >= ? AND seq <= ? ORDER BY seq',
    );
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
    // The seqs of a failed batch are never reused, so readers see a gap rather than a lie.
    return this.#commits.add(() => {
      this.#insert.run(event.sessionId, event.seq, event.eventName, event.receivedAt, event.raw);
      this.#countTowardsPrune(event);
      return event;
    });
  }

  async read(sessionId: string, options: ReadOptions = {}): Promise<StoredEvent[]> {
    const params: unknown[] = [
      sessionId,
      Math.max(options.after ?? 0, this.#countBound(sessionId)),
    ];
    let sql = 'SELECT seq, name, received_at FROM events WHERE session_id = ? AND seq > ?';
    if (this.#retention.maxAgeMs > 0) {
      sql += ' AND received_at >= ?';
      params.push(this.#clock() - this.#retention.maxAgeMs);
    }
    if (options.names) {
      sql += ` AND name IN (${options.names.map(() => '?').join(',') || 'NULL'})`;
      params.push(...options.names);
    }
    sql += ' ORDER BY seq';
    if (options.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(options.limit);
    }
    let statement = this.#reads.get(sql);
    if (!statement) this.#reads.set(sql, (statement = this.#db.prepare(sql)));
    const rows = statement.all(...params) as Row[];
    const page = options.names
      ? new ReadPage(this.#namedPayloads(options.names.length), options.names)
      : new ReadPage(this.#payloads, []);
    return rows.map((row, index) => {
      const event = new ReadEvent(sessionId, row, page, index);
      page.add(event);
      return event;
    });
  }

  /** The payloads of a range's events of `count` names. */
  #namedPayloads(count: number): Database.Statement {
    const sql = `SELECT seq, payload FROM events WHERE session_id = ? AND seq >= ? AND seq <= ? AND name IN (${Array(count).fill('?').join(',') || 'NULL'}) ORDER BY seq`;
    let statement = this.#reads.get(sql);
    if (!statement) this.#reads.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }

  #countTowardsPrune(event: StoredEvent): void {
    if (this.#retention.events === 0) return;
    const count = (this.#appendsSincePrune.get(event.sessionId) ?? 0) + 1;
    if (count < this.#pruneEvery) {
      this.#appendsSincePrune.set(event.sessionId, count);
      return;
    }
    this.#appendsSincePrune.set(event.sessionId, 0);
    this.#deleteUpTo.run(event.sessionId, event.seq - this.#retention.events);
  }

  keeps(sessionId: string, event: Pick<StoredEvent, 'seq' | 'receivedAt'>): boolean {
    const { maxAgeMs } = this.#retention;
    return (
      event.seq > this.#countBound(sessionId) &&
      (maxAgeMs === 0 || event.receivedAt >= this.#clock() - maxAgeMs)
    );
  }

  /** The seq at or below which reads skip the session's events, as retention by count keeps. */
  #countBound(sessionId: string): number {
    return this.#retention.events > 0
      ? Math.max(0, this.lastSeq(sessionId) - this.#retention.events)
      : 0;
  }

  lastSeq(sessionId: string): number {
    let seq = this.#lastSeq.get(sessionId);
    if (seq === undefined) {
      seq = (this.#maxSeq.get(sessionId) as { seq: number | null }).seq ?? 0;
      this.#lastSeq.set(sessionId, seq);
    }
    return seq;
  }

  /** Deletes every event past the retention bounds. */
  prune(): void {
    if (this.#retention.maxAgeMs > 0)
      this.#deleteOlder.run(this.#clock() - this.#retention.maxAgeMs);
    if (this.#retention.events > 0) {
      for (const [sessionId, seq] of this.#lastSeq)
        this.#deleteUpTo.run(sessionId, seq - this.#retention.events);
    }
  }

  /**
   * Whether the last batch of appends committed: false from a failed one (a full disk) until
   * one commits again. GET /readyz reports it, since a write that needs no new page (its own
   * check) can still commit on a full disk.
   */
  get lastAppendCommitted(): boolean {
    return this.#commits.lastCommitted;
  }

  /** Commits the events waiting for their batch now (it runs by itself; and before a close). */
  flush(): void {
    this.#commits.flush();
  }
}
