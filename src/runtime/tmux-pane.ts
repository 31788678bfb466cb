import { execa } from 'execa';
import { ErrorCode, HubError } from '../errors.js';
import { timedSpawn } from '../spawn-time.js';
import { hexKeys } from './hex-keys.js';
import { assertPasteable } from './terminal-text.js';

/** claude turns a paste of more than this many characters into a `[Pasted text #N]` placeholder. */
export const maxPasteChars = 800;
/** ... and likewise a paste with more than this many line breaks. */
export const maxPasteLineBreaks = 2;

/** Splits text into pastes claude keeps verbatim; never inside a code point or a CRLF. */
export function pasteChunks(text: string): string[] {
  const chunks: string[] = [];
  let chunk = '';
  let breaks = 0;
  for (const char of text.match(/\r\n|[\s\S]/gu) ?? []) {
    const isBreak = char === '\n' || char === '\r' || char === '\r\n';
    if (chunk.length + char.length > maxPasteChars || (isBreak && breaks === maxPasteLineBreaks)) {
      chunks.push(chunk);
      chunk = '';
      breaks = 0;
    }
    chunk += char;
    if (isBreak) breaks += 1;
  }
  if (chunk) chunks.push(chunk);
  return chunks;
}

export interface TmuxRunOptions {
  readonly input?: string;
  readonly reject?: boolean;
  readonly env?: Record<string, string>;
  /** The tmux client's working directory: a new session's, without a `-c` tmux would expand. */
  readonly cwd?: string;
}

/** Runs one tmux command line (argv, never a shell) against one tmux server. */
export type TmuxRun = (
  args: string[],
  options?: TmuxRunOptions,
) => Promise<{ exitCode?: number | undefined; stdout: string; stderr: string }>;

/**
 * A tmux argument taken literally: tmux reads an argument that ends in `;` as the end of a
 * command (and `\\;` as a literal `;`), wherever it stands, so a value ending in `;` would start
 * a tmux command of its own.
 */
export function literalArg(value: string): string {
  return value.endsWith(';') ? `${value.slice(0, -1)}\\;` : value;
}

/**
 * A tmux server: the hub's own (`-L name -f config`) or a person's, by its socket path. With
 * `baseEnv`, tmux gets that environment and nothing else of the hub's (a server it starts keeps
 * its client's environment for every session after).
 */
export function tmuxServer(
  serverArgs: readonly string[],
  baseEnv?: Readonly<Record<string, string>>,
): TmuxRun {
  return (args, options = {}) =>
    timedSpawn(() =>
      execa('tmux', [...serverArgs, ...args], {
        reject: options.reject ?? true,
        ...(baseEnv
          ? { env: { ...baseEnv, ...options.env }, extendEnv: false }
          : options.env && { env: options.env }),
        ...(options.cwd && { cwd: options.cwd }),
        ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
        timeout: 10_000,
      }),
    );
}

/** What the hub does to the pane claude draws in, whichever tmux server holds it. */
export interface Pane {
  /** The arguments that reach its tmux server (`-L name -f config`, or `-S socket`). */
  readonly server: readonly string[];
  /** The pane as a tmux target: `=session:` (its active pane) or a pane id (`%3`). */
  readonly target: string;
  /** The pane's text without escape codes; `history` adds the scrollback (for dead panes). */
  capture(history?: boolean): Promise<string>;
  /**
   * Types text as bracketed pastes, so newlines do not submit early. Each paste is small
   * enough (see pasteChunks) that claude inserts it as text instead of a placeholder, unless
   * `whole` asks for one paste. Refuses text with a control character other than tab and line
   * breaks: a terminal would take it as a key.
   */
  paste(text: string, whole?: boolean): Promise<void>;
  /**
   * Pastes text so that it never reaches an empty input box: a space is pasted and the cursor put
   * before it, the text pasted (as paste does), and the space deleted. One tmux call when the
   * text is one paste.
   */
  pastePrompt(text: string): Promise<void>;
  sendKeys(keys: readonly string[]): Promise<void>;
  /**
   * Writes bytes to the pane's program exactly as given, as a terminal would (`send-keys -H`);
   * with `paste`, as one paste that is bracketed when the program asked for bracketed pastes,
   * line breaks as Enter, as a terminal pastes.
   */
  input(data: string, paste: boolean): Promise<void>;
  /**
   * Takes a client attached to the pane's server there: its session, window and pane. The
   * client is named (`client_name` or its tty) or, when absent, the one active last; the name of
   * the client moved, or NO_TMUX_CLIENT when none is attached. Clients whose process is in
   * `ignored` (the hub's own) are no person's.
   */
  focus(client: string | null, ignored?: ReadonlySet<number>): Promise<string>;
  /**
   * When a person last pressed a key in a client attached to the pane's session, in ms since the
   * epoch; null when none is attached or none typed since attaching. Read from tmux's own
   * `client_activity`, which the hub's send-keys and paste-buffer leave alone; tmux keeps it in
   * seconds, so this is the end of that second (a grace measured from it is never cut short).
   */
  lastTyped(): Promise<number | null>;
}

/** A client attached to a tmux server, as list-clients shows it; times in seconds. */
interface TmuxClient {
  readonly activity: number;
  readonly created: number;
  readonly control: boolean;
  readonly name: string;
  readonly tty: string;
  readonly pid: number;
}

/** The clients attached to the server (`-t`: to that session only); none when tmux fails. */
async function listClients(run: TmuxRun, session: readonly string[] = []): Promise<TmuxClient[]> {
  const format =
    '#{client_activity}\t#{client_created}\t#{client_control_mode}\t#{client_name}\t#{client_tty}\t#{client_pid}';
  const listed = await run(['list-clients', ...session, '-F', format], { reject: false });
  if (listed.exitCode !== 0) return [];
  return listed.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [activity = '0', created = '0', control = '0', name = '', tty = '', pid = '0'] =
        line.split('\t');
      return {
        activity: Number(activity),
        created: Number(created),
        control: control === '1',
        name,
        tty,
        pid: Number(pid),
      };
    });
}

/** Bytes per send-keys -H call: each byte is three characters of its command line. */
const inputChunkBytes = 4096;

/** The pane at `target` on the tmux server `server` reaches; `buffer` names its paste buffer. */
export function paneOn(
  server: readonly string[],
  target: string,
  buffer: string,
  env?: Readonly<Record<string, string>>,
): Pane {
  const run = tmuxServer(server, env);
  return {
    server,
    target,
    async capture(history = false) {
      const args = ['capture-pane', '-p', '-J', '-t', target];
      if (history) args.push('-S', '-200');
      const result = await run(args, { reject: false });
      return result.exitCode === 0 ? result.stdout.replace(/\s+$/, '') : '';
    },
    async paste(text, whole = false) {
      // A control character inside a bracketed paste could end it (ESC [ 2 0 1 ~) and be typed.
      assertPasteable(text);
      for (const chunk of whole ? [text] : pasteChunks(text)) {
        await run(['load-buffer', '-b', buffer, '-'], { input: chunk });
        await run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', target]);
      }
    },
    async pastePrompt(text) {
      assertPasteable(text);
      const [first = '', ...rest] = pasteChunks(text);
      const space = `${buffer}-space`;
      const deleteSpace = [';', 'send-keys', '-t', target, 'DC'];
      await run(
        [
          ...['set-buffer', '-b', space, ' ', ';'],
          ...['paste-buffer', '-p', '-d', '-b', space, '-t', target, ';'],
          ...['send-keys', '-t', target, 'Left', ';'],
          ...['load-buffer', '-b', buffer, '-', ';'],
          ...['paste-buffer', '-p', '-d', '-b', buffer, '-t', target],
          ...(rest.length === 0 ? deleteSpace : []),
        ],
        { input: first },
      );
      if (rest.length === 0) return;
      await this.paste(rest.join(''));
      await run(deleteSpace.slice(1));
    },
    async sendKeys(keys) {
      await run(['send-keys', '-t', target, ...keys]);
    },
    async input(data, paste) {
      if (paste) {
        await run(['load-buffer', '-b', buffer, '-'], { input: data });
        await run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', target]);
        return;
      }
      const bytes = Buffer.from(data, 'utf8');
      for (let at = 0; at < bytes.length; at += inputChunkBytes) {
        await run([
          'send-keys',
          '-t',
          target,
          '-H',
          ...hexKeys(bytes.subarray(at, at + inputChunkBytes)),
        ]);
      }
    },
    async focus(client, ignored = new Set()) {
      const clients = (await listClients(run))
        .filter((found) => !ignored.has(found.pid))
        .sort((a, b) => b.activity - a.activity);
      const chosen =
        client === null
          ? clients[0]
          : clients.find((found) => found.name === client || found.tty === client);
      if (!chosen) {
        const known = clients.map((found) => found.name).join(', ');
        throw new HubError(
          ErrorCode.NoTmuxClient,
          client === null
            ? 'no tmux client is attached to the tmux server that holds the session'
            : `no tmux client ${JSON.stringify(client)} is attached there${known ? `; attached: ${known}` : ''}`,
        );
      }
      await run([
        'select-window',
        '-t',
        target,
        ';',
        'select-pane',
        '-t',
        target,
        ';',
        'switch-client',
        '-c',
        chosen.name,
        '-t',
        target,
      ]);
      return chosen.name;
    },
    async lastTyped() {
      let latest: number | null = null;
      for (const { activity, created, control } of await listClients(run, ['-t', target])) {
        // A control-mode client is a program; activity at attach time is no key at all.
        if (control || activity <= created) continue;
        latest = Math.max(latest ?? 0, (activity + 1) * 1000);
      }
      return latest;
    },
  };
}

/** Where a claude outside the hub's tmux server runs: the server's socket and the pane id. */
export interface PaneAddress {
  readonly socket: string;
  readonly pane: string;
}

/**
 * The pane of a claude, from the TMUX (`<socket path>,<server pid>,<session index>`) and
 * TMUX_PANE (`%<n>`) of its environment; null outside tmux or for values that are neither.
 */
export function paneAddress(
  tmux: string | null | undefined,
  pane: string | null | undefined,
): PaneAddress | null {
  const socket = /^(\/[^,\0]+),\d+,\d+$/.exec(tmux ?? '')?.[1];
  if (!socket || !/^%\d+$/.test(pane ?? '')) return null;
  return { socket, pane: pane! };
}

/** A pane on a person's own tmux server. */
export function externalPane(address: PaneAddress): Pane {
  return paneOn(['-S', address.socket], address.pane, `hub-${address.pane.slice(1)}`);
}
