import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliFocusSessionMutation, CliSessionsQuery } from '../gql/graphql.js';
import { ClientError, HubClient } from './client.js';
import { ExitCode, UsageError, type Env, type Io } from './command-io.js';
import {
  age,
  describeAction,
  describeRaised,
  describeChannelMessage,
  describeEvent,
  describeTurn,
  painter,
  table,
  type AttentionEntry,
} from './format.js';
import { runHooksAction } from './hooks-command.js';
import {
  ActionsSubscription,
  AskMutation,
  AttentionQuery,
  AttentionSubscription,
  ChannelMessagesSubscription,
  ChannelsQuery,
  CreateSessionMutation,
  DecidePermissionMutation,
  EnqueueMessageMutation,
  FocusSessionMutation,
  ResumeSessionMutation,
  SessionsQuery,
  StopSessionMutation,
  TailSubscription,
  TurnsSubscription,
} from './operations.js';

export { ExitCode, type Io } from './command-io.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  readonly args: string;
  readonly summary: string;
  readonly positionals: number;
  /** Arguments that may follow the required ones. */
  readonly optionalPositionals?: number;
  readonly options?: Options;
  readonly optionHelp?: readonly string[];
  run(client: HubClient, values: Values, positionals: string[], io: Io, env: Env): Promise<number>;
}

const globalOptions: Options = {
  url: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const globalHelp = [
  '--url URL      the hub [CLAUDE_HUB_URL, default http://127.0.0.1:4000/graphql]',
  '--token TOKEN  a token, for a hub with tokens [CLAUDE_HUB_TOKEN]',
];

/** A whole number of 0 or more from `--after`; null when not given. */
function afterOption(value: string | boolean | undefined): number | null {
  if (value === undefined) return null;
  const after = Number(value);
  if (!(typeof value === 'string' && Number.isInteger(after) && after >= 0)) {
    throw new UsageError(
      `--after must be a whole number (0 or more), got ${JSON.stringify(value)}`,
    );
  }
  return after;
}

/** `-` means standard input; anything else is the text itself. */
async function textArgument(value: string, io: Io): Promise<string> {
  return value === '-' ? io.readStdin() : value;
}

type ListedSession = CliSessionsQuery['sessions'][number];
type FocusedSession = CliFocusSessionMutation['focusSession'];

/** How a person reaches the session: its attach command, an EXTERNAL session's own pane, or none. */
function terminalOf(session: ListedSession): string {
  if (session.origin === 'EXTERNAL') {
    return `EXTERNAL ${session.tmuxPane ? `pane ${session.tmuxPane}` : '(not in tmux)'}`;
  }
  return session.attachCommand ?? '(headless)';
}

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

export const commands: Record<string, Command> = {
  ls: {
    args: '[--json]',
    summary:
      "List the sessions: id, status, time since the last event, cwd, attach command or an EXTERNAL session's pane (and node, in a cluster).",
    positionals: 0,
    options: { json: { type: 'boolean' } },
    async run(client, values, _positionals, io) {
      const { sessions } = await client.request(SessionsQuery, {});
      if (values.json) {
        for (const session of sessions) io.out(JSON.stringify(session));
        return ExitCode.Ok;
      }
      if (sessions.length === 0) return ExitCode.Ok;
      const clustered = sessions.some((s) => s.node !== null);
      const rows = sessions.map((s) => [
        s.id,
        s.status,
        age(s.lastEventAt),
        s.cwd,
        terminalOf(s),
        ...(clustered ? [s.node ?? ''] : []),
      ]);
      const head = ['ID', 'STATUS', 'LAST', 'CWD', 'ATTACH', ...(clustered ? ['NODE'] : [])];
      io.out(table([head, ...rows]));
      return ExitCode.Ok;
    },
  },
  new: {
    args: '--cwd DIR [--prompt TEXT|-] [--model M] [--permission-mode MODE] [--name N] [--trust] [--node NODE] [--headless]',
    summary: 'Start a session; prints its id once claude is ready.',
    positionals: 0,
    options: {
      cwd: { type: 'string' },
      prompt: { type: 'string' },
      model: { type: 'string' },
      'permission-mode': { type: 'string' },
      name: { type: 'string' },
      trust: { type: 'boolean' },
      node: { type: 'string' },
      headless: { type: 'boolean' },
    },
    optionHelp: [
      '--permission-mode  DEFAULT, ACCEPT_EDITS, PLAN, AUTO, DONT_ASK or BYPASS_PERMISSIONS',
      '--trust            answer the workspace-trust dialog with yes',
      '--node             the cluster node to run it on',
      '--headless         run claude headless (claude -p over stream-json), not in tmux',
    ],
    async run(client, values, _positionals, io) {
      if (typeof values.cwd !== 'string') throw new UsageError('--cwd is required');
      const prompt =
        typeof values.prompt === 'string' ? await textArgument(values.prompt, io) : undefined;
      const { createSession } = await client.request(CreateSessionMutation, {
        input: {
          cwd: values.cwd,
          prompt,
          model: values.model as string | undefined,
          name: values.name as string | undefined,
          permissionMode: values['permission-mode'] as never,
          trustWorkspace: values.trust === true ? true : undefined,
          node: values.node as string | undefined,
          runtime: values.headless === true ? ('HEADLESS' as const) : undefined,
        },
      });
      io.out(createSession.id);
      io.err(
        createSession.attachCommand
          ? `${createSession.status}; watch it with: ${createSession.attachCommand}`
          : `${createSession.status}; headless: follow it with claude-code-hub tail ${createSession.id}`,
      );
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
    args: '<session-id>',
    summary: 'End claude (its SessionEnd is still delivered), then its tmux session.',
    positionals: 1,
    async run(client, _values, [id], io) {
      const { stopSession } = await client.request(StopSessionMutation, { id: id! });
      io.out(`${stopSession.id} ${stopSession.status}`);
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
  'channel listen': {
    args: '<name> [--after N] [--description TEXT] [--json]',
    summary:
      'Print what sessions send to the channel as it comes: readable (seq, time, session, text), or one JSON object a line. The channel is open while this runs; SIGINT or SIGTERM ends it.',
    positionals: 1,
    options: {
      after: { type: 'string' },
      description: { type: 'string' },
      json: { type: 'boolean' },
    },
    optionHelp: [
      '--after N           replay the stored messages after seq N first (0: all), to resume',
      "--description TEXT  what the channel is, for list_channels (the first listener's is kept)",
      '--json              one JSON object a line: seq, channel, sessionId, text, at',
    ],
    async run(client, values, [channel], io) {
      const after = afterOption(values.after);
      const description = typeof values.description === 'string' ? values.description : null;
      const paint = painter(io.colour);
      const messages = client.subscribe(
        ChannelMessagesSubscription,
        { channel: channel!, after, description },
        io.interrupted(),
      );
      for await (const { channelMessages: message } of messages) {
        io.out(values.json ? JSON.stringify(message) : describeChannelMessage(message, paint));
      }
      return ExitCode.Ok;
    },
  },
  'channel send': {
    args: '<session-id> <name> <text|->',
    summary:
      'Queue a message from the channel: it is typed below a line naming the channel, so claude answers there. - reads standard input.',
    positionals: 3,
    async run(client, _values, [id, channel, text], io) {
      const { enqueueMessage } = await client.request(EnqueueMessageMutation, {
        sessionId: id!,
        text: await textArgument(text!, io),
        channel: channel!,
      });
      io.out(`${enqueueMessage.id} ${enqueueMessage.status}`);
      return ExitCode.Ok;
    },
  },
  'channel ls': listChannels(),
  channels: listChannels(),
  hooks: {
    args: '<install|uninstall|status> [--scope user|project]',
    summary:
      "The hub's global hooks, which make every claude started by hand report to the hub. install goes through the hub; uninstall and status read the file here and work without it. status exits 1 unless the hooks are in and their hub answers.",
    positionals: 1,
    options: { scope: { type: 'string' } },
    optionHelp: [
      '--scope user     (the default) settings.json in CLAUDE_CONFIG_DIR, else ~/.claude',
      '--scope project  .claude/settings.local.json of the current directory',
    ],
    run: (client, values, [action], io, env) =>
      runHooksAction(client, action!, values.scope, io, env),
  },
  doctor: {
    args: '[--claude-bin BIN] [--data-dir DIR]',
    summary:
      'Check what the hub needs here, one line each with its fix: tmux, curl, claude (its version and login), the data dir, tokens, the hub at --url (health and readiness), the global hooks, Node. Exits 1 when something blocks use (a ✗ line), 0 with warnings (!) alone.',
    positionals: 0,
    options: { 'claude-bin': { type: 'string' }, 'data-dir': { type: 'string' } },
    optionHelp: [
      '--claude-bin BIN  the claude the hub runs [CLAUDE_HUB_CLAUDE_BIN, default claude on PATH]',
      "--data-dir DIR    the hub's data dir [CLAUDE_HUB_DATA_DIR, default ~/.local/share/claude-code-hub]",
    ],
    async run(client, values, _positionals, io, env) {
      const { runDoctor } = await import('./doctor-probe.js');
      const source = typeof values.token === 'string' ? '--token' : 'CLAUDE_HUB_TOKEN';
      return runDoctor(
        {
          env,
          hubUrl: client.url,
          token: client.token ? { value: client.token, source } : null,
          claudeBin: values['claude-bin'] as string | undefined,
          dataDir: values['data-dir'] as string | undefined,
        },
        io,
      );
    },
  },
};

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

/** `channel ls`, also spelt `channels`. */
function listChannels(): Command {
  return {
    args: '[--json]',
    summary: 'List the open channels: name, listeners, time since the last message, description.',
    positionals: 0,
    options: { json: { type: 'boolean' } },
    async run(client, values, _positionals, io) {
      const { channels } = await client.request(ChannelsQuery, {});
      if (values.json) {
        for (const channel of channels) io.out(JSON.stringify(channel));
        return ExitCode.Ok;
      }
      if (channels.length === 0) return ExitCode.Ok;
      const rows = channels.map((c) => [
        c.name,
        String(c.listeners),
        age(c.lastMessageAt),
        c.description ?? '',
      ]);
      io.out(table([['NAME', 'LISTENERS', 'LAST', 'DESCRIPTION'], ...rows]));
      return ExitCode.Ok;
    },
  };
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

export function commandUsage(name: string): string {
  const command = commands[name]!;
  const lines = [...(command.optionHelp ?? []), ...globalHelp].map((line) => `  ${line}`);
  return `Usage: claude-code-hub ${name} ${command.args}\n\n${command.summary}\n\nOptions:\n${lines.join('\n')}\n`;
}

/**
 * The command `argv` starts with and the arguments after it: two words (`channel listen`)
 * before one; null when it names none.
 */
export function findCommand(
  argv: readonly string[],
): { readonly name: string; readonly rest: string[] } | null {
  const [first = '', second = ''] = argv;
  const two = `${first} ${second}`;
  if (Object.hasOwn(commands, two)) return { name: two, rest: argv.slice(2) };
  if (Object.hasOwn(commands, first)) return { name: first, rest: argv.slice(1) };
  return null;
}

/** Why `argv` names no command: an unknown word, or a group word without a known second. */
export function unknownCommand(argv: readonly string[]): string {
  const [first = '', second] = argv;
  const seconds = Object.keys(commands)
    .filter((name) => name.startsWith(`${first} `))
    .map((name) => name.slice(first.length + 1));
  if (seconds.length === 0) return `claude-code-hub: unknown command ${JSON.stringify(first)}`;
  const expected = `expected ${seconds.slice(0, -1).join(', ')} or ${seconds.at(-1)}`;
  return second === undefined
    ? `claude-code-hub ${first}: ${expected}`
    : `claude-code-hub ${first}: unknown ${first} command ${JSON.stringify(second)}: ${expected}`;
}

/** Runs one client command; resolves with its exit code. */
export async function runCommand(
  name: string,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Io,
): Promise<number> {
  const command = commands[name]!;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...globalOptions, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.values.help) {
      io.out(commandUsage(name).trimEnd());
      return ExitCode.Ok;
    }
    const count = parsed.positionals.length;
    const most = command.positionals + (command.optionalPositionals ?? 0);
    if (count < command.positionals || count > most) {
      const expected =
        most === command.positionals
          ? `${command.positionals || 'no'} argument${command.positionals === 1 ? '' : 's'}`
          : `${command.positionals} to ${most} arguments`;
      throw new UsageError(`expected ${expected}, got ${count}`);
    }
  } catch (error) {
    io.err(
      `claude-code-hub ${name}: ${(error as Error).message}\n\n${commandUsage(name)}`.trimEnd(),
    );
    return ExitCode.Usage;
  }
  const values = parsed.values as Values;
  const client = new HubClient(
    (values.url as string | undefined) ?? env.CLAUDE_HUB_URL ?? 'http://127.0.0.1:4000/graphql',
    (values.token as string | undefined) ?? env.CLAUDE_HUB_TOKEN,
  );
  try {
    return await command.run(client, values, parsed.positionals, io, env);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`claude-code-hub ${name}: ${error.message}\n\n${commandUsage(name)}`.trimEnd());
      return ExitCode.Usage;
    }
    const code = error instanceof ClientError ? `${error.code}: ` : '';
    io.err(`claude-code-hub ${name}: ${code}${(error as Error).message}`);
    return ExitCode.Failed;
  }
}
