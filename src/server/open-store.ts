import { chmodSync, writeFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { PermissionRule } from '../permissions/rule.js';
import type { ScheduleRecord } from '../schedules/schedule.js';
import type { MessageRecord } from '../sessions/message.js';
import type { SessionRecord } from '../sessions/session.js';
import { openDatabase } from '../store/database.js';
import { GroupCommit } from '../store/group-commit.js';
import { RecordTable, type RecordTableName } from '../store/record-table.js';
import { SqliteEventLog } from '../store/sqlite-event-log.js';
import type { StartContext } from './parts.js';

/** What the hub keeps in its data dir: the database, its event log and its record tables. */
export interface Store {
  readonly db: Database.Database;
  /** The writes of one turn of the event loop, committed together: the events' and others'. */
  readonly commits: GroupCommit;
  readonly eventLog: SqliteEventLog;
  readonly records: {
    readonly sessions: RecordTable<SessionRecord>;
    readonly messages: RecordTable<MessageRecord>;
    readonly permissions: RecordTable<PermissionRecord>;
    /** Rules are the cluster's, not a node's: the cluster shares them on its own. */
    readonly rules: RecordTable<PermissionRule>;
    readonly schedules: RecordTable<ScheduleRecord>;
  };
}

/**
 * Opens the data dir: the database (migrated, or a DataDirRefusal that names the dir), tmux's
 * config file (0600, as the database: it is made at every start), the event log, and the record
 * tables, each saved record shared with the cluster once this node has joined it.
 */
export function openStore({ options, parts, log }: StartContext): Store {
  const db = (parts.db = openDatabase(options.dataDir, log));
  writeFileSync(options.tmux.configFile, options.tmux.configText);
  chmodSync(options.tmux.configFile, 0o600);
  const commits = new GroupCommit(db);
  const eventLog = (parts.eventLog = new SqliteEventLog(db, options.eventLog, Date.now, commits));
  const table = <T extends { readonly id: string }>(
    name: Exclude<RecordTableName, 'rules' | 'schedules'>,
  ) => new RecordTable<T>(db, name, (record) => parts.cluster?.localChanged(name, record));
  return {
    db,
    commits,
    eventLog,
    records: {
      sessions: table<SessionRecord>('sessions'),
      messages: table<MessageRecord>('messages'),
      permissions: table<PermissionRecord>('permissions'),
      rules: new RecordTable<PermissionRule>(db, 'rules'),
      schedules: new RecordTable<ScheduleRecord>(db, 'schedules'),
    },
  };
}
