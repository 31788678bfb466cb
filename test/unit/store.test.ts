import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { migrate, migrations } from '../../src/store/migrations.js';
import { RecordTable } from '../../src/store/record-table.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import type { MessageRecord } from '../../src/sessions/message.js';
import type { SessionRecord } from '../../src/sessions/session.js';
import type { PermissionRecord } from '../../src/permissions/permission-request.js';
import { message, session } from '../helpers/records.js';

const leftovers: string[] = [];
afterEach(() => {
  for (const dir of leftovers.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cch-store-'));
  leftovers.push(dir);
  return dir;
}

const version = (db: Database.Database) => db.pragma('user_version', { simple: true }) as number;

const tableSql = (db: Database.Database) =>
  Object.fromEntries(
    (
      db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
        sql: string;
      }[]
    ).map((row) => [row.name, row.sql]),
  );

function tables(db: Database.Database) {
  return {
    sessions: new RecordTable<SessionRecord>(db, 'sessions'),
    messages: new RecordTable<MessageRecord>(db, 'messages'),
    permissions: new RecordTable<PermissionRecord>(db, 'permissions'),
  };
}

describe('migrations', () => {
  it('bring a new database to the latest version, events in the rowid table', () => {
    const db = openDatabase(dataDir());
    expect(version(db)).toBe(migrations.length);
    const sql = tableSql(db);
    expect(Object.keys(sql).sort()).toEqual(
      [
        'audit',
        'budgets',
        'change_marks',
        'channel_messages',
        'events',
        'messages',
        'meta',
        'permissions',
        'rules',
        'schedules',
        'sessions',
        'sqlite_sequence',
        'turn_costs',
      ].sort(),
    );
    expect(sql.events).not.toMatch(/WITHOUT ROWID/i);
    db.close();
  });

  it('move an unversioned database of the keyed shape over, keeping its events and records', async () => {
    const dir = dataDir();
    // As an early hub left it: no user_version, events keyed, no audit or meta table yet.
    const old = new Database(path.join(dir, 'hub.db'));
    old.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, record TEXT NOT NULL);
      CREATE TABLE messages (id TEXT PRIMARY KEY, record TEXT NOT NULL);
      CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL,
        received_at INTEGER NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID`);
    new RecordTable<SessionRecord>(old, 'sessions').save(session('s', 'IDLE', 5000));
    new RecordTable<MessageRecord>(old, 'messages').save(message('m', 's', 6000));
    for (const seq of [2, 1]) {
      const payload = { session_id: 's', hook_event_name: 'Notification', message: `n${seq}` };
      old
        .prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?)')
        .run('s', seq, 'Notification', 1000 + seq, JSON.stringify(payload));
    }
    expect(version(old)).toBe(0);
    old.close();

    const db = openDatabase(dir);
    expect(version(db)).toBe(migrations.length);
    const sql = tableSql(db);
    expect(sql.events).not.toMatch(/WITHOUT ROWID/i);
    expect(sql).not.toHaveProperty('events_keyed');
    expect(sql).toHaveProperty('audit');
    expect(sql).toHaveProperty('permissions');
    const after = tables(db);
    expect(after.sessions.loadAll()).toEqual([session('s', 'IDLE', 5000)]);
    expect(after.messages.loadAll()).toEqual([message('m', 's', 6000)]);
    const log = new SqliteEventLog(db);
    expect((await log.read('s')).map((e) => [e.seq, e.receivedAt, e.payload.message])).toEqual([
      [1, 1001, 'n1'],
      [2, 1002, 'n2'],
    ]);
    db.close();
  });

  it('place an unversioned database of the rowid shape at version 2, then migrate it on, without moving its events', () => {
    const dir = dataDir();
    const made = openDatabase(dir);
    made
      .prepare(
        'INSERT INTO events (session_id, seq, name, received_at, payload) VALUES (?, ?, ?, ?, ?)',
      )
      .run('s', 1, 'Stop', 1, '{}');
    made.pragma('user_version = 0');
    const { rootpage } = made
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'events'")
      .get() as { rootpage: number };
    made.close();

    const db = openDatabase(dir);
    expect(version(db)).toBe(migrations.length);
    expect(db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'events'").get()).toEqual({
      rootpage,
    });
    expect(db.prepare('SELECT id, session_id, seq FROM events').all()).toEqual([
      { id: 1, session_id: 's', seq: 1 },
    ]);
    db.close();
  });

  it('refuse a database a newer hub migrated further, and leave it as it was', () => {
    const dir = dataDir();
    const newer = new Database(path.join(dir, 'hub.db'));
    newer.exec('CREATE TABLE sessions_v9 (id TEXT PRIMARY KEY)');
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close();

    expect(() => openDatabase(dir)).toThrow(
      `cannot use data dir ${dir}: hub.db has schema version ${migrations.length + 1}, and this hub knows versions up to ${migrations.length}: a newer claude-code-hub wrote it`,
    );
    const after = new Database(path.join(dir, 'hub.db'));
    expect(version(after)).toBe(migrations.length + 1);
    expect(Object.keys(tableSql(after))).toEqual(['sessions_v9']);
    after.close();
  });

  it('run each migration in its own transaction: one that fails leaves the version before it', () => {
    const db = new Database(':memory:');
    const failing = (target: Database.Database) => {
      target.exec('CREATE TABLE half_done (id INTEGER)');
      throw new Error('step 3 failed');
    };
    expect(() => migrate(db, [...migrations, failing])).toThrow('step 3 failed');
    expect(version(db)).toBe(migrations.length);
    expect(tableSql(db)).not.toHaveProperty('half_done');
    migrate(db);
    expect(version(db)).toBe(migrations.length);
    db.close();
  });
});
