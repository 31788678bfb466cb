import { parseArgs } from 'node:util';
import { attentionCommands } from './attention-commands.js';
import { channelCommands } from './channel-commands.js';
import { ClientError, HubClient } from './client.js';
import type { Command, Options, Values } from './command.js';
import { ExitCode, UsageError, type Io } from './command-io.js';
import { ruleCommands } from './rule-commands.js';
import { ruleDryRunCommands } from './rule-dry-run.js';
import { scheduleCommands } from './schedule-commands.js';
import { sessionCommands } from './session-commands.js';
import { setupCommands } from './setup-commands.js';
import { usageCommands } from './usage-command.js';
import { worktreeCommands } from './worktree-commands.js';

export { ExitCode, type Io } from './command-io.js';

const globalOptions: Options = {
  url: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const globalHelp = [
  '--url URL      the hub [CLAUDE_HUB_URL, default http://127.0.0.1:4000/graphql]',
  '--token TOKEN  a token, for a hub with tokens [CLAUDE_HUB_TOKEN]',
];

export const commands: Record<string, Command> = {
  ...sessionCommands,
  ...worktreeCommands,
  ...attentionCommands,
  ...channelCommands,
  ...ruleCommands,
  ...ruleDryRunCommands,
  ...setupCommands,
  ...usageCommands,
  ...scheduleCommands,
};

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
