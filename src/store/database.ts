import { mkdirSync, accessSync, constants } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';
import { checkpointOffThread } from './wal-checkpointer.js';

/**
 * Opens (creating if needed) the hub's SQLite file in WAL mode. With synchronous=NORMAL a
 * committed transaction survives the hub being killed; only a power cut could lose the last one.
 * Checkpoints run on their own thread (see wal-checkpointer.ts), stopped by db.close(). The
 * schema is brought up to date by the migrations (see migrations.ts).
 */
export function openDatabase(dataDir: string): Database.Database {
  let opened: Database.Database | undefined;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK);
    const file = path.join(dataDir, 'hub.db');
    const db = (opened = new Database(file));
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
    throw new Error(`cannot use data dir ${dataDir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
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
