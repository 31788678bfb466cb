import type Database from 'better-sqlite3';
import type { PermissionRecord } from '../permissions/permission-request.js';

/** Keeps permission requests and their resolutions across restarts. */
export class PermissionStore {
  readonly #upsert: Database.Statement;
  readonly #all: Database.Statement;

  constructor(db: Database.Database) {
    this.#upsert = db.prepare(
      'INSERT INTO permissions (id, record) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record',
    );
    this.#all = db.prepare('SELECT record FROM permissions');
  }

  save(record: PermissionRecord): void {
    this.#upsert.run(record.id, JSON.stringify(record));
  }

  loadAll(): PermissionRecord[] {
    return (this.#all.all() as { record: string }[]).map(
      (row) => JSON.parse(row.record) as PermissionRecord,
    );
  }
}
