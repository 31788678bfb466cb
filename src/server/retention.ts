import type { WorkTreeMarks } from '../changes/work-tree-marks.js';
import type { UsageLedger } from '../costs/usage-ledger.js';
import type { Channels } from '../channels/channels.js';
import type { HubMetrics } from '../metrics.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { SqliteEventLog } from '../store/sqlite-event-log.js';
import type { StartContext } from './parts.js';

/**
 * Deletes what is past retention now, then every `intervalMs` (timed as `retention`): events,
 * channel messages, and records with their sessions (and their work tree snapshots), from memory
 * and disk alike. The timer
 * keeps no process alive.
 */
export function startRetention(
  { options, log, parts }: StartContext,
  kept: {
    eventLog: SqliteEventLog;
    channels: Channels;
    sessions: SessionManager;
    changes: { marks: Pick<WorkTreeMarks, 'prune'> };
    costs: { ledger: Pick<UsageLedger, 'prune'> };
  },
  metrics: HubMetrics,
): void {
  const { retention } = options;
  const prune = () => {
    kept.eventLog.prune();
    kept.channels.prune();
    const pruned = kept.sessions.pruneRecords(retention);
    if (pruned.sessions + pruned.messages + pruned.permissions > 0)
      log.info(pruned, 'records past retention deleted');
    // Costs outlive their sessions (usage by label or token), as long as events do.
    if (retention.maxAgeMs > 0) kept.costs.ledger.prune(Date.now() - retention.maxAgeMs);
    const sessions = new Set(kept.sessions.list().map((record) => record.id));
    kept.changes.marks.prune(sessions).catch((error: unknown) => {
      log.warn({ err: error }, 'work tree snapshots of forgotten sessions could not be deleted');
    });
  };
  prune();
  parts.pruner = setInterval(() => void metrics.timed('retention', prune), retention.intervalMs);
  parts.pruner.unref();
}
