import { execa } from 'execa';

/** What `list-panes` says about the pane of one tmux session. */
export interface PaneState {
  readonly session: string;
  readonly dead: boolean;
  readonly exitStatus: number | null;
  readonly pid: number;
  /** The pane's foreground command, e.g. `claude`. */
  readonly command: string;
}

export interface NewSessionOptions {
  readonly name: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly argv: readonly string[];
}

/** tmux session names the hub makes: validated here so no target can be anything else. */
const sessionNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

function target(name: string): string {
  if (!sessionNamePattern.test(name)) throw new Error(`invalid tmux session name ${name}`);
  // `=` asks for an exact match: tmux would otherwise take `claude-1` for `claude-12`.
  return `=${name}:`;
}

/**
 * Drives tmux on the hub's own socket, so a user's tmux server is never touched. Every call is
 * an argv array: no shell is involved anywhere.
 */
export class TmuxDriver {
  readonly socket: string;
  readonly #configPath: string;

  constructor(socket: string, configPath: string) {
    this.socket = socket;
    this.#configPath = configPath;
  }

  /** The shell command a person runs to watch or take over a session. */
  attachCommand(name: string): string {
    return `tmux -L ${this.socket} attach -t ${name}`;
  }

  async newSession(options: NewSessionOptions): Promise<void> {
    const env = Object.entries(options.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    target(options.name);
    // The pane stays after claude exits (remain-on-exit, also set by the config file when this
    // call starts the server) so its exit status and last screen can be read.
    await this.#run([
      'new-session',
      '-d',
      '-s',
      options.name,
      '-x',
      '200',
      '-y',
      '50',
      '-c',
      options.cwd,
      ...env,
      '--',
      ...options.argv,
      ';',
      'set-option',
      '-w',
      '-t',
      target(options.name),
      'remain-on-exit',
      'on',
    ]);
  }

  /** Every pane on the socket; empty when the server is not running. */
  async listPanes(): Promise<PaneState[]> {
    const format =
      '#{session_name}\t#{pane_dead}\t#{pane_dead_status}\t#{pane_pid}\t#{pane_current_command}';
    const result = await this.#run(['list-panes', '-a', '-F', format], { reject: false });
    if (result.exitCode !== 0) return [];
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [session = '', dead, status, pid, command = ''] = line.split('\t');
        return {
          session,
          dead: dead === '1',
          exitStatus: status ? Number(status) : null,
          pid: Number(pid),
          command,
        };
      });
  }

  /** The pane's text without escape codes; `history` adds the scrollback (for dead panes). */
  async capture(name: string, history = false): Promise<string> {
    const args = ['capture-pane', '-p', '-J', '-t', target(name)];
    if (history) args.push('-S', '-200');
    const result = await this.#run(args, { reject: false });
    return result.exitCode === 0 ? result.stdout.replace(/\s+$/, '') : '';
  }

  /** Types text as one bracketed paste, so newlines do not submit early. */
  async paste(name: string, text: string): Promise<void> {
    const buffer = `hub-${name}`;
    await this.#run(['load-buffer', '-b', buffer, '-'], { input: text });
    await this.#run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', target(name)]);
  }

  async sendKeys(name: string, keys: readonly string[]): Promise<void> {
    await this.#run(['send-keys', '-t', target(name), ...keys]);
  }

  async killSession(name: string): Promise<void> {
    await this.#run(['kill-session', '-t', target(name)], { reject: false });
  }

  #run(args: string[], options: { input?: string; reject?: boolean } = {}) {
    return execa('tmux', ['-L', this.socket, '-f', this.#configPath, ...args], {
      reject: options.reject ?? true,
      ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
      timeout: 10_000,
    });
  }
}
