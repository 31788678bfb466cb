import type Database from 'better-sqlite3';

/** A snapshot of a session's work tree, taken at one of its hook events. */
export interface ChangeMark {
  /** The seq of the event it was taken at. */
  readonly seq: number;
  /** The git tree id of the work tree then. */
  readonly tree: string;
  readonly at: number;
}

/** The marks of every session, durable in the hub's SQLite file (table change_marks). */
export class ChangeMarks {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #between: Database.Statement;
  readonly #atOrBefore: Database.Statement;
  readonly #atOrBeforeTime: Database.Statement;
  readonly #first: Database.Statement;
  readonly #sessions: Database.Statement;
  readonly #forget: Database.Statement;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#insert = db.prepare(
      'INSERT OR REPLACE INTO change_marks (session_id, seq, tree, at) VALUES (?, ?, ?, ?)',
    );
    this.#between = db.prepare(
      'SELECT seq, tree, at FROM change_marks WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq',
    );
    this.#atOrBefore = db.prepare(
      'SELECT seq, tree, at FROM change_marks WHERE session_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1',
    );
    this.#atOrBeforeTime = db.prepare(
      'SELECT seq, tree, at FROM change_marks WHERE session_id = ? AND at <= ? ORDER BY seq DESC LIMIT 1',
    );
    this.#first = db.prepare(
      'SELECT seq, tree, at FROM change_marks WHERE session_id = ? ORDER BY seq LIMIT 1',
    );
    this.#sessions = db.prepare('SELECT DISTINCT session_id AS id FROM change_marks');
    this.#forget = db.prepare('DELETE FROM change_marks WHERE session_id = ?');
  }

  add(sessionId: string, mark: ChangeMark): void {
    if (this.#db.open) this.#insert.run(sessionId, mark.seq, mark.tree, mark.at);
  }

  /** The session's marks with seq in (after, upTo], oldest first. */
  between(sessionId: string, after: number, upTo: number): ChangeMark[] {
    return this.#between.all(sessionId, after, upTo) as ChangeMark[];
  }

  /** The session's last mark taken at or before the event `seq`. */
  atOrBefore(sessionId: string, seq: number): ChangeMark | null {
    return (this.#atOrBefore.get(sessionId, seq) as ChangeMark | undefined) ?? null;
  }

  /** The session's last mark taken at or before the time `at`. */
  atOrBeforeTime(sessionId: string, at: number): ChangeMark | null {
    return (this.#atOrBeforeTime.get(sessionId, at) as ChangeMark | undefined) ?? null;
  }

  /** The session's first mark. */
  first(sessionId: string): ChangeMark | null {
    return (this.#first.get(sessionId) as ChangeMark | undefined) ?? null;
  }

  /** The sessions that have marks. */
  sessions(): string[] {
    return (this.#sessions.all() as { id: string }[]).map((row) => row.id);
  }

  forget(ids: Iterable<string>): void {
    if (!this.#db.open) return;
    this.#db.transaction(() => {
      for (const id of ids) this.#forget.run(id);
    })();
  }
}
