import { accessSync, chmodSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '../log.js';
import { migrate } from './migrations.js';
import { checkpointOffThread } from './wal-checkpointer.js';

/**
 * A data dir the hub will not start on as it is (a truncated hub.db): `serve` prints its message
 * and exits 2, as for a bad option, since a person must look at it first.
 */
export class DataDirRefusal extends Error {}

/**
 * Refuses a hub.db of 0 bytes: SQLite would take it for a new, empty database, and the hub would
 * start with no sessions over a file that something truncated (a full disk, a bad copy).
 */
function refuseEmptyFile(file: string): void {
  if (statSync(file, { throwIfNoEntry: false })?.size !== 0) return;
  throw new DataDirRefusal(
    `${file} is empty (0 bytes), so something truncated it: restore it from a backup, or delete it to start with an empty store`,
  );
}

/**
 * Makes the database file 0600, and its -wal and -shm files when a hub left them. SQLite gives a
 * -wal or -shm it creates the database file's mode, so they follow. Modes are set on the files,
 * not through the process's umask, which the tmux server and claude would inherit: files claude
 * writes in a project keep the person's umask.
 */
function makePrivate(file: string): void {
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(each)) chmodSync(each, 0o600);
  }
}

/**
 * Opens (creating if needed) the hub's SQLite file in WAL mode, readable by its owner only. With
 * synchronous=NORMAL a committed transaction survives the hub being killed; only a power cut
 * could lose the last one. Checkpoints run on their own thread (see wal-checkpointer.ts), stopped
 * by db.close(). The schema is brought up to date by the migrations (see migrations.ts). Throws
 * DataDirRefusal for a hub.db of 0 bytes; warns in `log` of a data dir open to other users.
 */
export function openDatabase(dataDir: string, log?: Logger): Database.Database {
  const file = path.join(dataDir, 'hub.db');
  let opened: Database.Database | undefined;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK);
    if (log) warnIfExposed(dataDir, log);
    refuseEmptyFile(file);
    const db = (opened = new Database(file));
    makePrivate(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // A WAL file that grew while checkpoints lagged is cut back to this size once reset.
    db.pragma('journal_size_limit = 67108864');
    migrate(db);
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
    opened?.close();
    if (error instanceof DataDirRefusal) throw error;
    throw new Error(`cannot use data dir ${dataDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Warns when users other than the data dir's owner may read or write it: its hook token,
 * settings files and database hold secrets and every event. The folder is the person's to
 * change; the files in it the hub makes 0600 whatever the folder's mode.
 */
function warnIfExposed(dataDir: string, log: Logger): void {
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o066) === 0) return;
  log.warn(
    { dataDir, mode: mode.toString(8).padStart(4, '0') },
    'the data dir is open to other users (it holds the hook token and every event): chmod 700 it',
  );
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

/** The writes GET /readyz reports on, besides its own. */
export interface StoreWriters {
  readonly eventLog: { readonly lastAppendCommitted: boolean };
  readonly records: readonly { readonly lastSaveCommitted: boolean }[];
}

/**
 * The store's checks of GET /readyz: `store`, a write of its own commits; `eventLog` and
 * `records`, the last append of events and the last save of each kind of record committed. A
 * full disk can take the ready check's write (it replaces a row in a page it has) while
 * appends, which need new pages, fail: the latter two say so until a write of theirs commits.
 */
export function storeChecks(db: Database.Database, writers: StoreWriters): Record<string, boolean> {
  return {
    store: storeWritable(db),
    eventLog: writers.eventLog.lastAppendCommitted,
    records: writers.records.every((table) => table.lastSaveCommitted),
  };
}
