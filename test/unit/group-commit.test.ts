import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/store/group-commit.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import type { HookPayload } from '../../src/events/hook-event.js';

function database() {
  return new Database(':memory:').exec(`
    CREATE TABLE events (session_id TEXT, seq INTEGER, name TEXT, received_at INTEGER, payload TEXT, PRIMARY KEY (session_id, seq));
    CREATE TABLE rows (id TEXT PRIMARY KEY);
  `);
}

const ids = (db: Database.Database) =>
  (db.prepare('SELECT id FROM rows ORDER BY id').all() as { id: string }[]).map(({ id }) => id);

describe('the group commit', () => {
  it("commits a turn's writes together, after the turn, and settles each with its result", async () => {
    const db = database();
    const commits = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (id) VALUES (?)');
    const seen: string[][] = [];
    const writes = ['a', 'b', 'c'].map((id) =>
      commits.add(() => {
        expect(db.inTransaction).toBe(true);
        insert.run(id);
        seen.push(ids(db));
        return `${id} kept`;
      }),
    );
    // Nothing is written within the turn that asked.
    expect(ids(db)).toEqual([]);
    expect(await Promise.all(writes)).toEqual(['a kept', 'b kept', 'c kept']);
    // One transaction: each write saw those before it.
    expect(seen).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c']]);
    expect(commits.lastCommitted).toBe(true);
  });

  it("fails every write of a batch that fails, keeps none of it, and commits the next turn's", async () => {
    const db = database();
    const commits = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (id) VALUES (?)');
    const batch = [
      commits.add(() => insert.run('a')),
      commits.add(() => insert.run('a')), // the primary key refuses it
    ];
    const results = await Promise.allSettled(batch);
    expect(results.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    expect(ids(db)).toEqual([]);
    expect(commits.lastCommitted).toBe(false);

    await commits.add(() => insert.run('b'));
    expect(ids(db)).toEqual(['b']);
    expect(commits.lastCommitted).toBe(true);
  });

  it("takes an event log's appends and other writes of the same turn into one commit", async () => {
    const db = database();
    const commits = new GroupCommit(db);
    const log = new SqliteEventLog(db, undefined, undefined, commits);
    const payload: HookPayload = { session_id: 's', hook_event_name: 'Stop' };
    const insert = db.prepare('INSERT INTO rows (id) VALUES (?)');
    const both = Promise.allSettled([
      log.append('s', JSON.stringify(payload), payload),
      commits.add(() => insert.run('x')),
      commits.add(() => insert.run('x')),
    ]);
    expect((await both).map(({ status }) => status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await log.read('s')).toEqual([]);
    expect(log.lastAppendCommitted).toBe(false);

    const event = await log.append('s', JSON.stringify(payload), payload);
    expect(event.seq).toBe(2); // a failed batch's seq is not reused
    expect((await log.read('s')).map(({ seq }) => seq)).toEqual([2]);
    expect(log.lastAppendCommitted).toBe(true);
  });
});
