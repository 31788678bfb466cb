import type Database from 'better-sqlite3';

/** The tables that hold one JSON record per id (see database.ts). */
export type RecordTableName = 'sessions' | 'permissions' | 'messages' | 'rules' | 'schedules';

/**
 * Keeps records of one kind (sessions, permission requests, messages, rules, schedules) as JSON by id, so they
 * survive restarts. Writes are synchronous and small; reads happen once, at start.
 */
export class RecordTable<T extends { readonly id: string }> {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement;
  readonly #all: Database.Statement;
  readonly #delete: Database.Statement;
  readonly #saved: (record: T) => void;
  #lastSaveCommitted = true;

  /** `saved` hears of every record written (a cluster node shares them). */
  constructor(
    db: Database.Database,
    table: RecordTableName,
    saved: (record: T) => void = () => undefined,
  ) {
    this.#db = db;
    this.#saved = saved;
    this.#upsert = db.prepare(
      `INSERT INTO ${table} (id, record) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record`,
    );
    this.#all = db.prepare(`SELECT record FROM ${table}`);
    this.#delete = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  }

  /** Once the hub has closed its store on the way out, work still in flight saves nothing. */
  save(record: T): void {
    if (!this.#db.open) return;
    try {
      this.#upsert.run(record.id, JSON.stringify(record));
    } catch (error) {
      this.#lastSaveCommitted = false;
      throw error;
    }
    this.#lastSaveCommitted = true;
    this.#saved(record);
  }

  /** Whether the last save committed: false from a failed one until one commits again. */
  get lastSaveCommitted(): boolean {
    return this.#lastSaveCommitted;
  }

  /** Deletes records by id, in one transaction. */
  delete(ids: readonly string[]): void {
    if (!this.#db.open || ids.length === 0) return;
    this.#db.transaction(() => {
      for (const id of ids) this.#delete.run(id);
    })();
  }

  loadAll(): T[] {
    return (this.#all.all() as { record: string }[]).map((row) => JSON.parse(row.record) as T);
  }
}
