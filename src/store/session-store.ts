import type Database from 'better-sqlite3';
import type { SessionRecord } from '../sessions/session.js';

/** Keeps session records so they can be found, re-adopted and resumed after a restart. */
export class SessionStore {
  readonly #upsert: Database.Statement;
  readonly #all: Database.Statement;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      'INSERT INTO sessions (id, record) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record',
    );
    this.#all = db.prepare('SELECT record FROM sessions');
  }

  save(record: SessionRecord): void {
    this.#upsert.run(record.id, JSON.stringify(record));
  }

  loadAll(): SessionRecord[] {
    return (this.#all.all() as { record: string }[]).map(
      (row) =>
        ({ transcriptPath: null, restartTimes: [], ...JSON.parse(row.record) }) as SessionRecord,
    );
  }
}
