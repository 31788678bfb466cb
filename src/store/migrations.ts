import type Database from 'better-sqlite3';

/** One step of the schema. It runs in the transaction that also records it in user_version. */
export type Migration = (db: Database.Database) => void;

/**
 * 1: the tables as the first hubs made them, events keyed by (session_id, seq) WITHOUT ROWID.
 * IF NOT EXISTS, because an unversioned database of an early hub lacks only some of them.
 */
function createTables(db: Database.Database): void {
  db.exec(`
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
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);
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
`);
}

/**
 * 2: events move to a rowid table, appended at its end, with a small unique index by session
 * and seq. Keyed WITHOUT ROWID, the payloads (50 KB tool outputs among them) sat in the key's
 * own b-tree: writes cost twice as much, and reading a session's events up to twice as long.
 */
function moveEventsToRowidTable(db: Database.Database): void {
  db.exec(`
ALTER TABLE events RENAME TO events_keyed;
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  payload TEXT NOT NULL
);
CREATE UNIQUE INDEX events_by_session ON events (session_id, seq);
INSERT INTO events (session_id, seq, name, received_at, payload)
  SELECT session_id, seq, name, received_at, payload FROM events_keyed ORDER BY session_id, seq;
DROP TABLE events_keyed;
`);
}

/** 3: what sessions sent to channels, kept per channel in order. */
function createChannelMessages(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS channel_messages (
  channel TEXT NOT NULL,
  seq INTEGER NOT NULL,
  session_id TEXT NOT NULL,
  text TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (channel, seq)
);
`);
}

/** 4: the permission rules made through the API, one JSON record per id. */
function createRules(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS rules (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL
);
`);
}

/**
 * 5: snapshots of a session's work tree as git trees, taken at its hook events (the seq of the
 * event each was taken at), from which its turns' file changes are read.
 */
function createChangeMarks(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS change_marks (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  tree TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
);
`);
}

/**
 * 6: what each completed turn cost, with its tokens per model, and the session's labels and
 * creating token then: what Query.usage groups.
 */
function createTurnCosts(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS turn_costs (
  turn_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  completed_at INTEGER NOT NULL,
  cost_usd REAL,
  cost_source TEXT NOT NULL,
  models TEXT NOT NULL,
  labels TEXT NOT NULL,
  created_by TEXT
);
CREATE INDEX IF NOT EXISTS turn_costs_by_time ON turn_costs (completed_at);
CREATE INDEX IF NOT EXISTS turn_costs_by_session ON turn_costs (session_id);
`);
}

/** 7: budgets of labels and tokens, set through the API. */
function createBudgets(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS budgets (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  usd REAL NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
`);
}

/** 8: scheduled prompts, one JSON record per id, so that they survive restarts. */
function createSchedules(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS schedules (
  id TEXT PRIMARY KEY,
  record TEXT NOT NULL
);
`);
}

/**
 * The schema's history, oldest first: a database at user_version N has had the first N. A
 * migration that has shipped is never edited or reordered; a change of schema is a new one at
 * the end.
 */
export const migrations: readonly Migration[] = [
  createTables,
  moveEventsToRowidTable,
  createChannelMessages,
  createRules,
  createChangeMarks,
  createTurnCosts,
  createBudgets,
  createSchedules,
];

/**
 * Hubs before schema versions left user_version at 0, as a new file has it. Such a database is
 * placed by its shape, once: with its events in the rowid table it has the tables of version 2;
 * otherwise it starts from the beginning, and createTables keeps the tables it has.
 */
function placeUnversioned(db: Database.Database): number {
  const events = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'")
    .get() as { sql: string } | undefined;
  if (!events || /WITHOUT ROWID/i.test(events.sql)) return 0;
  return migrations.indexOf(moveEventsToRowidTable) + 1;
}

/**
 * Runs the migrations the database has not had yet, each in its own transaction, and refuses a
 * database that a newer hub migrated further than `steps` go (its tables are not ours to read).
 */
export function migrate(db: Database.Database, steps: readonly Migration[] = migrations): void {
  let version = db.pragma('user_version', { simple: true }) as number;
  if (version > steps.length) {
    throw new Error(
      `hub.db has schema version ${version}, and this hub knows versions up to ${steps.length}: a newer claude-code-hub wrote it`,
    );
  }
  if (version === 0) {
    version = placeUnversioned(db);
    if (version > 0) db.pragma(`user_version = ${version}`);
  }
  for (const [index, step] of steps.entries()) {
    if (index < version) continue;
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${index + 1}`);
    })();
  }
}
