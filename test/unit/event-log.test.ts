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

  it('checkpoints the WAL on its own thread, so the database file fills without the writer', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cch-log-'));
    const db = openDatabase(dir);
    const log = new SqliteEventLog(db);
    const filler = 'x'.repeat(4096);
    for (let i = 0; i < 500; i++) void append(log, 's', filler);
    await append(log, 's', 'last');
    const fileSize = () => statSync(path.join(dir, 'hub.db')).size;
    const deadline = Date.now() + 10_000;
    while (fileSize() < 2_000_000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(fileSize()).toBeGreaterThan(2_000_000);
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
});
