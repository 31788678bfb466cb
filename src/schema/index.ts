import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import './events.js';
import './worktrees.js';
import './sessions.js';
import './permissions.js';
import './rules.js';
import './policy-dry-run.js';
import './policy-file.js';
import './messages.js';
import './dialogs.js';
import './audit.js';
import './runs.js';
import './hooks.js';
import './channels.js';
import './claude.js';
import './terminal.js';
import './worktree-changes.js';
import './file-changes.js';
import './costs.js';
import './budgets.js';
import './usage-limits.js';
import './orchestration.js';
import './schedules.js';

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql, sorted so that it diffs well. */
export function printSortedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
