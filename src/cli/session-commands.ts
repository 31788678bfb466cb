import type { CliSessionsQuery } from '../gql/graphql.js';
import { afterOption, repeatedOption, textArgument, type Command } from './command.js';
import { ExitCode, UsageError } from './command-io.js';
import { age, describeAction, describeEvent, describeTurn, painter, table } from './format.js';
import {
  ActionsSubscription,
  AskMutation,
  CreateSessionMutation,
  EnqueueMessageMutation,
  ResumeSessionMutation,
  SessionsQuery,
  SetSessionLabelsMutation,
  StopSessionMutation,
  TailSubscription,
  TurnsSubscription,
} from './operations.js';

type ListedSession = CliSessionsQuery['sessions'][number];

/** More than the 32 labels the hub keeps (duplicates dropped); it says what is wrong with more. */
const maxLabelArguments = 64;

/** How a person reaches the session: its attach command, an EXTERNAL session's own pane, or none. */
function terminalOf(session: ListedSession): string {
  if (session.origin === 'EXTERNAL') {
    return `EXTERNAL ${session.tmuxPane ? `pane ${session.tmuxPane}` : '(not in tmux)'}`;
  }
  return session.attachCommand ?? '(headless)';
}

/** The commands on one session: list, start, label, message, follow, stop and resume. */
export const sessionCommands: Record<string, Command> = {
  ls: {
    args: '[--label L] [--json]',
    summary:
      "List the sessions: id, status, time since the last event, cwd, attach command or an EXTERNAL session's pane (and labels, when any has some, and node, in a cluster).",
    positionals: 0,
    options: { label: { type: 'string' }, json: { type: 'boolean' } },
    optionHelp: ['--label L  only the sessions carrying the label L'],
    async run(client, values, _positionals, io) {
      const label = typeof values.label === 'string' ? values.label : null;
      const { sessions } = await client.request(SessionsQuery, { label });
      if (values.json) {
        for (const session of sessions) io.out(JSON.stringify(session));
        return ExitCode.Ok;
      }
      if (sessions.length === 0) return ExitCode.Ok;
      const clustered = sessions.some((s) => s.node !== null);
      const labelled = sessions.some((s) => s.labels.length > 0);
      const rows = sessions.map((s) => [
        s.id,
        s.status,
        age(s.lastEventAt),
        s.cwd,
        terminalOf(s),
        ...(labelled ? [s.labels.join(',')] : []),
        ...(clustered ? [s.node ?? ''] : []),
      ]);
      const head = [
        ...['ID', 'STATUS', 'LAST', 'CWD', 'ATTACH'],
        ...(labelled ? ['LABELS'] : []),
        ...(clustered ? ['NODE'] : []),
      ];
      io.out(table([head, ...rows]));
      return ExitCode.Ok;
    },
  },
  new: {
    args: '--cwd DIR [--prompt TEXT|-] [--model M] [--permission-mode MODE] [--name N] [--label L]... [--trust] [--node NODE] [--headless] [--worktree [--branch B] [--base C]]',
    summary: 'Start a session; prints its id once claude is ready.',
    positionals: 0,
    options: {
      cwd: { type: 'string' },
      prompt: { type: 'string' },
      model: { type: 'string' },
      'permission-mode': { type: 'string' },
      name: { type: 'string' },
      label: { type: 'string', multiple: true },
      trust: { type: 'boolean' },
      node: { type: 'string' },
      headless: { type: 'boolean' },
      worktree: { type: 'boolean' },
      branch: { type: 'string' },
      base: { type: 'string' },
    },
    optionHelp: [
      '--permission-mode  DEFAULT, ACCEPT_EDITS, PLAN, AUTO, DONT_ASK or BYPASS_PERMISSIONS',
      '--label L          a label of the session (repeatable): letters, digits and ._:/=-',
      '--trust            answer the workspace-trust dialog with yes',
      '--node             the cluster node to run it on',
      '--headless         run claude headless (claude -p over stream-json), not in tmux',
      '--worktree         run claude in a new git worktree of the repository, on a branch of its own',
      '--branch, --base   that branch (default claude/<name or id>) and the commit it starts at',
      '                   (default: the one checked out in --cwd); either implies --worktree',
    ],
    async run(client, values, _positionals, io) {
      if (typeof values.cwd !== 'string') throw new UsageError('--cwd is required');
      const prompt =
        typeof values.prompt === 'string' ? await textArgument(values.prompt, io) : undefined;
      const branch = values.branch as string | undefined;
      const base = values.base as string | undefined;
      const worktree =
        values.worktree === true || branch !== undefined || base !== undefined
          ? { branch, base }
          : undefined;
      const { createSession } = await client.request(CreateSessionMutation, {
        input: {
          cwd: values.cwd,
          prompt,
          model: values.model as string | undefined,
          name: values.name as string | undefined,
          labels: values.label === undefined ? undefined : repeatedOption(values.label),
          permissionMode: values['permission-mode'] as never,
          trustWorkspace: values.trust === true ? true : undefined,
          node: values.node as string | undefined,
          runtime: values.headless === true ? ('HEADLESS' as const) : undefined,
          worktree,
        },
      });
      io.out(createSession.id);
      if (createSession.worktree) {
        io.err(`worktree ${createSession.worktree.path} on ${createSession.worktree.branch}`);
      }
      io.err(
        createSession.attachCommand
          ? `${createSession.status}; watch it with: ${createSession.attachCommand}`
          : `${createSession.status}; headless: follow it with claude-code-hub tail ${createSession.id}`,
      );
      return ExitCode.Ok;
    },
  },
  label: {
    args: `<session-id> [<label>...]`,
    summary:
      "Set a session's labels to those given (none: remove them all); prints its id and labels.",
    positionals: 1,
    optionalPositionals: maxLabelArguments,
    async run(client, _values, [id, ...labels], io) {
      const { setSessionLabels } = await client.request(SetSessionLabelsMutation, {
        sessionId: id!,
        labels,
      });
      io.out([setSessionLabels.id, ...setSessionLabels.labels].join(' '));
      return ExitCode.Ok;
    },
  },
  send: {
    args: '<session-id> <text|->',
    summary: 'Queue a message; it is typed once the session is idle. - reads standard input.',
    positionals: 2,
    async run(client, _values, [id, text], io) {
      const { enqueueMessage } = await client.request(EnqueueMessageMutation, {
        sessionId: id!,
        text: await textArgument(text!, io),
      });
      io.out(`${enqueueMessage.id} ${enqueueMessage.status}`);
      return ExitCode.Ok;
    },
  },
  ask: {
    args: '<session-id> <text|-> [--timeout SECONDS]',
    summary: `Send a message and print the reply. Exit ${ExitCode.AskTimeout} on timeout, ${ExitCode.AskFailed} when it failed.`,
    positionals: 2,
    options: { timeout: { type: 'string' } },
    async run(client, values, [id, text], io) {
      const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
      if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0)) {
        throw new UsageError('--timeout must be a whole number of seconds');
      }
      const { ask } = await client.request(AskMutation, {
        sessionId: id!,
        text: await textArgument(text!, io),
        timeoutSeconds: timeout,
      });
      switch (ask.__typename) {
        case 'AskReply':
          io.out(ask.reply ?? '');
          return ExitCode.Ok;
        case 'AskTimeout':
          io.err(`no reply within ${Math.round(ask.waitedMs / 1000)} s; the message goes on`);
          return ExitCode.AskTimeout;
        default:
          io.err(`failed: ${ask.message.error ?? 'unknown reason'}`);
          return ExitCode.AskFailed;
      }
    },
  },
  tail: {
    args: '<session-id> [--actions] [--after N] [--json]',
    summary:
      'Print the events (or with --actions, each phase of each action) of a session as they come: readable, or one JSON object a line.',
    positionals: 1,
    options: {
      actions: { type: 'boolean' },
      after: { type: 'string' },
      json: { type: 'boolean' },
    },
    optionHelp: [
      '--actions  the tool calls as actions, started and completed (replayed from the start)',
      '--after N  replay the stored events after seq N first (0: all)',
    ],
    async run(client, values, [id], io) {
      const after = afterOption(values.after);
      const paint = painter(io.colour);
      if (values.actions) {
        for await (const { sessionActions: action } of client.subscribe(ActionsSubscription, {
          id: id!,
          after,
        })) {
          io.out(values.json ? JSON.stringify(action) : describeAction(action, paint));
        }
        return ExitCode.Ok;
      }
      for await (const { sessionEvents: event } of client.subscribe(TailSubscription, {
        id: id!,
        after,
      })) {
        io.out(
          values.json
            ? JSON.stringify({
                seq: event.seq,
                eventName: event.eventName,
                receivedAt: event.receivedAt,
                payload: event.payload,
              })
            : describeEvent(event, paint),
        );
      }
      return ExitCode.Ok;
    },
  },
  turns: {
    args: '[<session-id>] [--after TIME] [--json]',
    summary:
      'Follow the turns of one session, or of all, as they complete: readable, or one JSON object a line.',
    positionals: 0,
    optionalPositionals: 1,
    options: { after: { type: 'string' }, json: { type: 'boolean' } },
    optionHelp: ['--after TIME  the turns completed since TIME (ISO 8601) first'],
    async run(client, values, [id], io) {
      if (values.after !== undefined && Number.isNaN(Date.parse(String(values.after)))) {
        throw new UsageError('--after must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z');
      }
      const paint = painter(io.colour);
      const variables = {
        sessionId: id ?? null,
        after: values.after === undefined ? null : new Date(String(values.after)).toISOString(),
      };
      for await (const { turns: turn } of client.subscribe(TurnsSubscription, variables)) {
        io.out(values.json ? JSON.stringify(turn) : describeTurn(turn, paint));
      }
      return ExitCode.Ok;
    },
  },
  stop: {
    args: '<session-id> [--remove-worktree]',
    summary: 'End claude (its SessionEnd is still delivered), then its tmux session.',
    positionals: 1,
    options: { 'remove-worktree': { type: 'boolean' } },
    optionHelp: [
      "--remove-worktree  also remove the session's worktree; its branch goes only when merged or empty",
    ],
    async run(client, values, [id], io) {
      const { stopSession } = await client.request(StopSessionMutation, {
        id: id!,
        removeWorktree: values['remove-worktree'] === true ? true : undefined,
      });
      io.out(`${stopSession.id} ${stopSession.status}`);
      const removal = stopSession.worktree?.removal;
      if (removal) io.err(`worktree removed; ${removal.note}`);
      return ExitCode.Ok;
    },
  },
  resume: {
    args: '<session-id>',
    summary: 'Continue a stopped or crashed session with claude --resume.',
    positionals: 1,
    async run(client, _values, [id], io) {
      const { resumeSession } = await client.request(ResumeSessionMutation, { id: id! });
      io.out(`${resumeSession.id} ${resumeSession.status}`);
      return ExitCode.Ok;
    },
  },
};
