import { ClientError } from './client.js';
import type { Command } from './command.js';
import { ExitCode, UsageError } from './command-io.js';
import { CommitWorktreeMutation, SessionDiffQuery } from './operations.js';

/** The commands on what a session changed: its diff, a commit of its worktree. */
export const worktreeCommands: Record<string, Command> = {
  diff: {
    args: '<session-id> [--base REV]',
    summary:
      "Print the session's whole change as a unified diff: its worktree (commits, changes, new files) against the commit it started at, or its checkout against HEAD.",
    positionals: 1,
    options: { base: { type: 'string' } },
    optionHelp: ['--base REV  diff against REV (a branch, tag or commit) instead'],
    async run(client, values, [id], io) {
      const base = typeof values.base === 'string' ? values.base : null;
      const { session } = await client.request(SessionDiffQuery, { id: id!, base });
      if (!session) throw new ClientError(`no session has id ${id}`, 'SESSION_NOT_FOUND');
      // The diff ends with its own line break, when it is not empty.
      if (session.diff !== '') io.out(session.diff.replace(/\n$/, ''));
      return ExitCode.Ok;
    },
  },
  commit: {
    args: '<session-id> -m MESSAGE',
    summary:
      "Commit everything changed in the session's worktree on its branch; prints the commit id.",
    positionals: 1,
    options: { message: { type: 'string', short: 'm' } },
    optionHelp: ['-m, --message MESSAGE  the commit message'],
    async run(client, values, [id], io) {
      if (typeof values.message !== 'string') throw new UsageError('-m MESSAGE is required');
      const { commitWorktree } = await client.request(CommitWorktreeMutation, {
        id: id!,
        message: values.message,
      });
      io.out(commitWorktree);
      return ExitCode.Ok;
    },
  },
};
