import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hookSession } from '../helpers/hook-session.js';
import { startHookHub } from '../helpers/hook-session.js';
import { type TestHub } from '../helpers/hub.js';
import { expectErrorLog } from '../helpers/unexpected-output.js';

/** SQLite's own bound on a database's pages: the default of `max_page_count`. */
const unbounded = 4294967294;

describe('GET /readyz on a full store', () => {
  let hub: TestHub;
  /** The hub's own connection: `max_page_count`, which makes SQLite full, holds per connection. */
  let db: Database.Database;

  const ready = async () => {
    const response = await fetch(`${hub.baseUrl}/readyz`);
    return {
      status: response.status,
      body: (await response.json()) as { status: string; checks: Record<string, boolean> },
    };
  };

  beforeAll(async () => {
    const opened: Database.Database[] = [];
    const pragma = Database.prototype.pragma;
    const spy = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (
      this: Database.Database,
      source,
      options,
    ) {
      if (source === 'journal_mode = WAL') opened.push(this);
      return pragma.call(this, source, options);
    });
    try {
      ({ hub } = await startHookHub([]));
    } finally {
      spy.mockRestore();
    }
    expect(opened).toHaveLength(1);
    db = opened[0]!;
  });

  it('is 503 with eventLog false after an append failed, until one commits again', async () => {
    const session = await hookSession(hub);
    expect(await ready()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { store: true, eventLog: true, records: true, tmux: expect.any(Boolean) },
      },
    });

    // Full: not one page more than the file has now.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    expectErrorLog('hook event could not be stored');
    const big = { message: 'x'.repeat(1e5) };
    expect(await session.post('Notification', big)).toBe(503);
    const full = await ready();
    expect(full.status).toBe(503);
    // The ready check's own write still commits: it replaces a row in a page the file has.
    expect(full.body).toMatchObject({
      status: 'not ready',
      checks: { store: true, eventLog: false },
    });
    // It stays so while nothing is appended, however often it is asked.
    expect((await ready()).body.checks.eventLog).toBe(false);

    db.pragma(`max_page_count = ${unbounded}`);
    expect(await session.post('Notification', big)).toBe(200);
    expect(await ready()).toMatchObject({
      status: 200,
      body: { checks: { store: true, eventLog: true, records: true } },
    });
  });

  it('is 503 with records false after a record could not be saved', async () => {
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    expectErrorLog(/could not be stored/);
    // A new session whose record, with its long cwd, needs pages the file has not got.
    const session = await hookSession(hub, { started: false });
    expect(await session.post('SessionStart', { cwd: `/tmp/${'x'.repeat(1e5)}` })).toBe(503);
    const full = await ready();
    expect(full.status).toBe(503);
    expect(full.body.checks).toMatchObject({ store: true, records: false });

    db.pragma(`max_page_count = ${unbounded}`);
    // Until a record is saved again: another new session's.
    await hookSession(hub);
    expect(await ready()).toMatchObject({
      status: 200,
      body: { checks: { eventLog: true, records: true } },
    });
  });
});
