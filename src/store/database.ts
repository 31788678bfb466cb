import { mkdirSync, accessSync, constants } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkpointOffThread } from './wal-checkpointer.js';

/**
 * Events live in a rowid table, appended at its end, with a small index by session and seq.
 * Keyed by (session_id, seq) WITHOUT ROWID, as databases made before were, the payloads
 * (50 KB tool outputs among them) sat in the key's own b-tree: writes cost twice as much, and
 * reading a session's events up to twice as long.
 */
const schema = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS permissions (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  payload TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_by_session ON events (session_id, seq);
CREATE TABLE IF NOT EXISTS audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  address TEXT NOT NULL,
  action TEXT NOT NULL,
  session_id TEXT,
  target TEXT,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_session ON audit (session_id, id);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/**
 * Opens (creating if needed) the hub's SQLite file in WAL mode. With synchronous=NORMAL a
 * committed transaction survives the hub being killed; only a power cut could lose the last one.
 * Checkpoints run on their own thread (see wal-checkpointer.ts), stopped by db.close().
 */
export function openDatabase(dataDir: string): Database.Database {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK);
    const file = path.join(dataDir, 'hub.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // A WAL file that grew while checkpoints lagged is cut back to this size once reset.
    db.pragma('journal_size_limit = 67108864');
    moveEventsToRowidTable(db);
    db.exec(schema);
    db.pragma('wal_autocheckpoint = 0');
    const stopCheckpoints = checkpointOffThread(file, (checkpoint) => {
      if (db.open) db.pragma(`wal_autocheckpoint = ${checkpoint ? 1000 : 0}`);
    });
    const close = db.close.bind(db);
    db.close = () => {
      void stopCheckpoints();
      return close();
    };
    return db;
  } catch (error) {
    throw new Error(`cannot use data dir ${dataDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** A database made before keeps its events: they move to the rowid table, in one transaction. */
function moveEventsToRowidTable(db: Database.Database): void {
  const table = db.prepare(
    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'",
  );
  const { sql } = (table.get() as { sql: string } | undefined) ?? { sql: '' };
  if (!/WITHOUT ROWID/i.test(sql)) return;
  db.transaction(() => {
    db.exec('ALTER TABLE events RENAME TO events_keyed');
    db.exec(schema);
    db.exec(`INSERT INTO events (session_id, seq, name, received_at, payload)
      SELECT session_id, seq, name, received_at, payload FROM events_keyed ORDER BY session_id, seq`);
    db.exec('DROP TABLE events_keyed');
  })();
}

/** True when a write commits: what GET /readyz calls "store writable". */
export function storeWritable(db: Database.Database): boolean {
  try {
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('ready_check', ?)").run(
      new Date().toISOString(),
    );
    return true;
  } catch {
    return false;
  }
}
