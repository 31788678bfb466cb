import { findCommand, runCommand, type Io } from '../../src/cli/commands.js';

/** What a client command printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs a client command of the bin in this process against the hub at `url` (with `token`, when
 * given), as the bin does: `argv` starts with the command's words (`rules ls`, `diff <id>`).
 */
export async function runCli(url: string, token: string | null, argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    readStdin: async () => '',
    colour: false,
    interrupted: () => new AbortController().signal,
  };
  const found = findCommand(argv);
  if (!found) throw new Error(`no command in ${JSON.stringify(argv)}`);
  const env = { CLAUDE_HUB_URL: url, ...(token === null ? {} : { CLAUDE_HUB_TOKEN: token }) };
  const code = await runCommand(found.name, found.rest, env, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
