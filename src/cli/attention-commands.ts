import type { CliFocusSessionMutation } from '../gql/graphql.js';
import type { HubClient } from './client.js';
import type { Command } from './command.js';
import { ExitCode, UsageError, type Env, type Io } from './command-io.js';
import { age, describeRaised, painter, table, type AttentionEntry } from './format.js';
import {
  AttentionQuery,
  AttentionSubscription,
  DecidePermissionMutation,
  FocusSessionMutation,
} from './operations.js';

type FocusedSession = CliFocusSessionMutation['focusSession'];

/** The commands of a person's attention: the queue, going to a session's pane, deciding a request. */
export const attentionCommands: Record<string, Command> = {
  approve: decide('ALLOW'),
  deny: decide('DENY'),
  attention: {
    args: '[--json] [--go] [--watch]',
    summary: 'The sessions that need a person, most urgent first.',
    positionals: 0,
    options: { json: { type: 'boolean' }, go: { type: 'boolean' }, watch: { type: 'boolean' } },
    optionHelp: [
      '--go     go to the pane of the first (most urgent, longest waiting) instead; exit 1 when none',
      '--watch  then print each session that starts to need a person as it comes (a permission',
      '         request, a blocked start, a crash, a finished turn); SIGINT or SIGTERM ends it',
    ],
    async run(client, values, _positionals, io, env) {
      if (values.go && (values.json || values.watch)) {
        throw new UsageError('--go goes with neither --json nor --watch');
      }
      if (values.watch) return watchAttention(client, values.json === true, io);
      const { attention } = await client.request(AttentionQuery, {});
      if (values.go) {
        const first = attention[0];
        if (!first) {
          io.err('nobody needs attention');
          return ExitCode.Failed;
        }
        io.out(`${await goTo(client, first.session.id, env)} (${first.reason})`);
        return ExitCode.Ok;
      }
      printAttention(attention, values.json === true, io);
      return ExitCode.Ok;
    },
  },
  go: {
    args: '<session-id>',
    summary:
      "Take a terminal to the session's tmux pane: this one when run inside tmux, else the tmux client active last.",
    positionals: 1,
    async run(client, _values, [id], io, env) {
      io.out(await goTo(client, id!, env));
      return ExitCode.Ok;
    },
  },
};

/**
 * Moves this terminal's tmux client when the command runs inside tmux, else the client active
 * last, to the session's pane; says where it went.
 */
async function goTo(client: HubClient, id: string, env: Env): Promise<string> {
  const { ownTmuxClient } = await import('./tmux-client.js');
  const { focusSession: session } = await client.request(FocusSessionMutation, {
    id,
    client: await ownTmuxClient(env),
  });
  return `went to ${session.id}${session.name ? ` (${session.name})` : ''}, ${wherePaneIs(session)}`;
}

function wherePaneIs(session: FocusedSession): string {
  return session.origin === 'EXTERNAL'
    ? `pane ${session.tmuxPane ?? '?'} of the person's tmux`
    : `tmux session ${session.tmuxSession}`;
}

/** The attention queue as a table, or one JSON object a line. */
function printAttention(items: readonly AttentionEntry[], json: boolean, io: Io): void {
  if (json) {
    for (const item of items) io.out(JSON.stringify(item));
    return;
  }
  if (items.length === 0) return;
  const rows = items.map((item) => [
    item.reason,
    age(item.since),
    item.session.id,
    item.permissionRequest
      ? `${item.permissionRequest.id} ${item.permissionRequest.toolName}`
      : item.session.cwd,
  ]);
  io.out(table([['REASON', 'WAITING', 'SESSION', 'WHAT'], ...rows]));
}

/** `attention --watch`: the queue now, then each item raised, until interrupted. */
async function watchAttention(client: HubClient, json: boolean, io: Io): Promise<number> {
  const paint = painter(io.colour);
  let first = true;
  for await (const { attention } of client.subscribe(AttentionSubscription, {}, io.interrupted())) {
    if (first) {
      printAttention(attention.items, json, io);
      io.err('watching: each session that starts to need a person is printed as it comes');
    }
    first = false;
    for (const item of attention.raised) {
      io.out(json ? JSON.stringify(item) : describeRaised(item, paint));
    }
  }
  return ExitCode.Ok;
}

function decide(behavior: 'ALLOW' | 'DENY'): Command {
  return {
    args: behavior === 'ALLOW' ? '<request-id>' : '<request-id> [--message TEXT]',
    summary:
      behavior === 'ALLOW'
        ? 'Allow a pending permission request.'
        : 'Deny a pending permission request; the message reaches claude.',
    positionals: 1,
    options: behavior === 'DENY' ? { message: { type: 'string' } } : {},
    async run(client, values, [requestId], io) {
      const { decidePermission } = await client.request(DecidePermissionMutation, {
        input: {
          requestId: requestId!,
          behavior,
          message: values.message as string | undefined,
        },
      });
      if (decidePermission.error) {
        io.err(`${decidePermission.error.code}: ${decidePermission.error.message}`);
        return ExitCode.Failed;
      }
      const request = decidePermission.request!;
      io.out(`${request.id} ${request.status} ${request.toolName}`);
      return ExitCode.Ok;
    },
  };
}
