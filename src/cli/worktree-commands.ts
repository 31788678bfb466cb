import { ClientError, type HubClient } from './client.js';
import type { Command, Values } from './command.js';
import { ExitCode, UsageError, type Io } from './command-io.js';
import {
  CommitWorktreeMutation,
  SessionDiffQuery,
  SessionTurnNumbersQuery,
  TurnChangesQuery,
} from './operations.js';
import type { CliTurnChangesQuery } from '../gql/graphql.js';

/** The commands on what a session changed: its diff, a commit of its worktree. */
export const worktreeCommands: Record<string, Command> = {
  diff: {
    args: '<session-id> [--base REV | --turn N]',
    summary:
      "Print the session's whole change as a unified diff: its worktree (commits, changes, new files) against the commit it started at, or its checkout against HEAD. With --turn, what one turn changed: each file with the calls that changed it and how each was allowed, then its diff.",
    positionals: 1,
    options: { base: { type: 'string' }, turn: { type: 'string' } },
    optionHelp: [
      '--base REV  diff against REV (a branch, tag or commit) instead',
      "--turn N    only the files turn N changed (1 is the session's first), each under a",
      '            line: # path KIND  tool call-id allowed by ...',
    ],
    async run(client, values, [id], io) {
      const turn = turnOption(values.turn);
      if (turn !== null) {
        if (values.base !== undefined) {
          throw new UsageError(
            '--turn and --base do not go together: --turn prints what one turn changed, --base the whole change against REV',
          );
        }
        return printTurnChanges(client, id!, turn, io);
      }
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

/** A turn number of 1 or more from `--turn`; null when not given. */
function turnOption(value: Values[string]): number | null {
  if (value === undefined) return null;
  const turn = Number(value);
  if (typeof value !== 'string' || !/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(turn)) {
    throw new UsageError(`--turn must be a turn number (1 or more), got ${JSON.stringify(value)}`);
  }
  return turn;
}

/**
 * The turns read in the first request: the one asked for is most often among the last ones.
 * Each turn read (id and number) costs 3 against the hub's --max-query-cost; its changes are
 * asked of that one turn alone (Query.turn), as each turn's are computed apart.
 */
const recentTurns = 50;

/** The id of the session's turn `number`; an error naming the turns it has when it has no such. */
async function turnId(client: HubClient, sessionId: string, number: number): Promise<string> {
  const read = async (last: number) => {
    const { session } = await client.request(SessionTurnNumbersQuery, { id: sessionId, last });
    if (!session) throw new ClientError(`no session has id ${sessionId}`, 'SESSION_NOT_FOUND');
    return session.turns;
  };
  let turns = await read(recentTurns);
  const latest = turns.at(-1)?.number ?? 0;
  // Older than those read: read back to it, and as many again for turns begun in between.
  if (number < (turns[0]?.number ?? 1)) turns = await read(latest - number + 1 + recentTurns);
  const found = turns.find((turn) => turn.number === number);
  if (found) return found.id;
  const has =
    latest === 0
      ? 'has no turns yet'
      : latest === 1
        ? 'has turn 1 only'
        : `has turns 1 to ${latest}`;
  throw new ClientError(`session ${sessionId} ${has}, no turn ${number}`, 'TURN_NOT_FOUND');
}

type FileChange = NonNullable<CliTurnChangesQuery['turn']>['changes'][number];
type Approval = FileChange['approvedBy'][number];

/** How one call was allowed, in words. */
function allowed(approval: Approval | undefined): string {
  switch (approval?.kind) {
    case 'PERSON':
      return approval.token === null ? 'allowed by a person' : `allowed by token ${approval.token}`;
    case 'RULE':
      return `allowed by rule ${approval.rule ?? '(unnamed)'}`;
    case 'TERMINAL':
      return 'allowed in the terminal';
    case 'MODE':
      return `allowed by the mode ${approval.mode ?? '(unknown)'}`;
    case 'NO_PROMPT':
      return 'no prompt needed';
    default:
      return 'allowed by what is not known';
  }
}

/** `# path KIND  tool call-id allowed by ...; ...`: the file and each call that changed it. */
function header(change: FileChange): string {
  const file =
    change.kind === 'RENAME' && change.oldPath
      ? `${change.oldPath} -> ${change.path}`
      : change.path;
  const calls = change.actions.map((action, i) => {
    const approval =
      change.approvedBy.find((source) => source.toolUseId === action.id) ?? change.approvedBy[i];
    return `${action.toolName ?? action.title} ${action.id} ${allowed(approval)}`;
  });
  return `# ${file} ${change.kind}${calls.length > 0 ? `  ${calls.join('; ')}` : ''}`;
}

/** Prints each file turn `number` changed: its header line, then its diff. */
async function printTurnChanges(
  client: HubClient,
  sessionId: string,
  number: number,
  io: Io,
): Promise<number> {
  const id = await turnId(client, sessionId, number);
  const { turn } = await client.request(TurnChangesQuery, { id });
  if (!turn)
    throw new ClientError(`session ${sessionId} has no turn ${number} now`, 'TURN_NOT_FOUND');
  if (turn.changes.length === 0) {
    io.out(`# turn ${number} changed no file`);
    return ExitCode.Ok;
  }
  for (const change of turn.changes) {
    io.out(header(change));
    if (change.diff !== null && change.diff !== '') io.out(change.diff.replace(/\n$/, ''));
    if (change.diff === null) {
      io.out(
        change.truncated
          ? '# (no diff: the bound on one answer came before it)'
          : '# (no diff: no tool said the content)',
      );
    } else if (change.truncated) {
      io.out('# (the diff was cut here: it is longer than the bound on one file)');
    }
  }
  return ExitCode.Ok;
}
