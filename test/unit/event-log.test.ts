import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import type { HookPayload } from '../../src/events/hook-event.js';

function append(log: SqliteEventLog, sessionId: string, message: string) {
  const payload: HookPayload = { session_id: sessionId, hook_event_name: 'Notification', message };
  return log.append(sessionId, JSON.stringify(payload), payload);
}

describe('SqliteEventLog', () => {
  it('assigns seqs per session and commits events arriving together in one batch', async () => {
    const log = new SqliteEventLog(
      new Database(':memory:').exec(
        `CREATE TABLE events (session_id TEXT, seq INTEGER, name TEXT, received_at INTEGER, payload TEXT, PRIMARY KEY (session_id, seq))`,
      ),
    );
    const stored = await Promise.all([
      append(log, 'a', '1'),
      append(log, 'b', '2'),
      append(log, 'a', '3'),
    ]);
    expect(stored.map((e) => [e.sessionId, e.seq])).toEqual([
      ['a', 1],
      ['b', 1],
      ['a', 2],
    ]);
    expect((await log.read('a')).map((e) => e.payload.message)).toEqual(['1', '3']);
    expect(log.lastSeq('a')).toBe(2);
    expect(log.lastSeq('none')).toBe(0);
  });

  it('reads payloads verbatim when asked for; one pruned after the page was read reads as {}', async () => {
    const db = new Database(':memory:').exec(
      `CREATE TABLE events (session_id TEXT, seq INTEGER, name TEXT, received_at INTEGER, payload TEXT, PRIMARY KEY (session_id, seq))`,
    );
    const log = new SqliteEventLog(db);
    const raws = [
      '{"session_id":"s","hook_event_name":"Stop", "spaced" : 1}',
      '{"session_id":"s","hook_event_name":"Notification"}',
      '{"session_id":"s","hook_event_name":"SessionEnd"}',
    ];
    for (const raw of raws) await log.append('s', raw, JSON.parse(raw) as HookPayload);
    const page = await log.read('s');
    db.prepare('DELETE FROM events WHERE seq = 2').run();
    expect(page.map((event) => event.raw)).toEqual([raws[0], '{}', raws[2]]);
    expect(page[0]!.payload.spaced).toBe(1);
    expect(page.map((event) => event.eventName)).toEqual(['Stop', 'Notification', 'SessionEnd']);
  });

  it('reads the payloads of a page of some names among the others', async () => {
    const db = new Database(':memory:').exec(
      `CREATE TABLE events (session_id TEXT, seq INTEGER, name TEXT, received_at INTEGER, payload TEXT, PRIMARY KEY (session_id, seq))`,
    );
    const log = new SqliteEventLog(db);
    const raw = (name: string, n: number) =>
      `{"session_id":"s","hook_event_name":"${name}","n":${n}}`;
    const raws = [1, 2, 3, 4].flatMap((n) => [raw('PreToolUse', n), raw('PostToolUse', n)]);
    for (const line of raws) await log.append('s', line, JSON.parse(line) as HookPayload);
    const page = await log.read('s', { after: 1, names: ['PreToolUse'] });
    db.prepare('DELETE FROM events WHERE seq = 5').run();
    expect(page.map((event) => [event.seq, event.raw])).toEqual([
      [3, raws[2]],
      [5, '{}'],
      [7, raws[6]],
    ]);
  });

  it('checkpoints the WAL on its own thread, so the database file fills without the writer', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cch-log-'));
    const db = openDatabase(dir);
    const log = new SqliteEventLog(db);
    const filler = 'x'.repeat(4096);
    for (let i = 0; i < 500; i++) void append(log, 's', filler);
    await append(log, 's', 'last');
    const fileSize = () => statSync(path.join(dir, 'hub.db')).size;
    await expect.poll(fileSize, { timeout: 10_000, interval: 50 }).toBeGreaterThan(2_000_000);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps events by age when told to, judged by its clock', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cch-log-'));
    let now = 1_000_000;
    const db = openDatabase(dir);
    const log = new SqliteEventLog(db, { events: 0, maxAgeMs: 60_000 }, () => now);
    await append(log, 's', 'old');
    now += 45_000;
    await append(log, 's', 'new');
    now += 30_000;
    expect((await log.read('s')).map((e) => e.payload.message)).toEqual(['new']);
    log.prune();
    expect((db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n).toBe(1);
    expect(log.lastSeq('s')).toBe(2);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes rows past the count bound as it goes, so the file stays bounded', async () => {
    const db = openDatabase(mkdtempSync(path.join(tmpdir(), 'cch-log-')));
    const log = new SqliteEventLog(db, { events: 100, maxAgeMs: 0 });
    for (let i = 0; i < 1000; i++) await append(log, 's', String(i));
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
    expect(rows).toBeLessThanOrEqual(100 + 256);
    expect((await log.read('s', { limit: 1000 })).map((e) => e.seq)).toEqual(
      Array.from({ length: 100 }, (_, i) => 901 + i),
    );
    db.close();
  });

  it('moves the events of a database made with the keyed table, and goes on from them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cch-log-'));
    const old = new Database(path.join(dir, 'hub.db'));
    old.exec(`CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL,
      name TEXT NOT NULL, received_at INTEGER NOT NULL, payload TEXT NOT NULL,
      PRIMARY KEY (session_id, seq)) WITHOUT ROWID`);
    const insert = old.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?)');
    for (const [sessionId, seq, message] of [
      ['b', 1, 'b1'],
      ['a', 2, 'a2'],
      ['a', 1, 'a1'],
    ] as const) {
      const payload = { session_id: sessionId, hook_event_name: 'Notification', message };
      insert.run(sessionId, seq, 'Notification', 1000 + seq, JSON.stringify(payload));
    }
    old.close();

    const db = openDatabase(dir);
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all();
    expect(tables.map((t: any) => t.name)).not.toContain('events_keyed');
    expect(JSON.stringify(tables)).not.toMatch(/WITHOUT ROWID/i);
    const log = new SqliteEventLog(db);
    const a = await log.read('a');
    expect(a.map((e) => [e.seq, e.receivedAt, e.payload.message])).toEqual([
      [1, 1001, 'a1'],
      [2, 1002, 'a2'],
    ]);
    expect((await append(log, 'a', 'a3')).seq).toBe(3);
    expect((await log.read('b')).map((e) => e.payload.message)).toEqual(['b1']);
    // The seq of a session stays unique.
    const again = db.prepare(
      'INSERT INTO events (session_id, seq, name, received_at, payload) VALUES (?, ?, ?, ?, ?)',
    );
    expect(() => again.run('a', 1, 'Notification', 0, '{}')).toThrow(/UNIQUE/);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
