import { paneOn, tmuxServer, type Pane, type TmuxRun } from './tmux-pane.js';

/** What `list-panes` says about the pane of one tmux session. */
export interface PaneState {
  readonly session: string;
  readonly dead: boolean;
  readonly exitStatus: number | null;
  /** The signal that ended the pane's process, e.g. 9. */
  readonly exitSignal: number | null;
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
  readonly #server: readonly string[];
  readonly #run: TmuxRun;

  constructor(socket: string, configPath: string) {
    this.socket = socket;
    this.#server = ['-L', socket, '-f', configPath];
    this.#run = tmuxServer(this.#server);
  }

  /** The pane of one of the hub's tmux sessions. */
  pane(name: string): Pane {
    return paneOn(this.#server, target(name), `hub-${name}`);
  }

  /** The shell command a person runs to watch or take over a session. */
  attachCommand(name: string): string {
    return `tmux -L ${this.socket} attach -t ${name}`;
  }

  /**
   * Starts the command in a new detached session, in place of a session of that name that is
   * left (a dead pane kept for its last screen): killed only when tmux finds one, so a start
   * costs one tmux call. The environment goes through tmux's own environment, not argv (where
   * `ps` would show it): the tmux client gets it, and update-environment copies those names
   * into the new session, then is reset.
   */
  async newSession(options: NewSessionOptions): Promise<void> {
    try {
      await this.#newSession(options);
    } catch (error) {
      if (!/duplicate session/.test((error as { stderr?: string }).stderr ?? '')) throw error;
      await this.killSession(options.name);
      await this.#newSession(options);
    }
  }

  /**
   * Starts the command in place of the session's running one, in the same window: a person
   * attached stays attached. It starts in a session of its own (so the environment goes the
   * same way as in newSession), whose pane then swaps with the old one; the old one ends with
   * that session.
   */
  async replace(options: NewSessionOptions): Promise<void> {
    const next = `${options.name}-next`;
    await this.newSession({ ...options, name: next });
    try {
      await this.#run(['swap-pane', '-s', target(next), '-t', target(options.name)]);
    } finally {
      await this.killSession(next);
    }
  }

  #newSession(options: NewSessionOptions) {
    target(options.name);
    const names = Object.keys(options.env).join(' ');
    // remain-on-exit keeps the pane after claude exits, so its last screen can be read; the
    // config file sets it too, for a server this call starts.
    return this.#run(
      [
        'set-option',
        '-g',
        'remain-on-exit',
        'on',
        ';',
        'set-option',
        '-g',
        'update-environment',
        names,
        ';',
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
        '--',
        ...options.argv,
        ';',
        'set-option',
        '-gu',
        'update-environment',
      ],
      { env: options.env },
    );
  }

  /** True when tmux runs and its socket answers (no server yet counts: one starts on demand). */
  async reachable(): Promise<boolean> {
    try {
      const result = await this.#run(['list-sessions'], { reject: false });
      return result.exitCode === 0 || /no server running|error connecting to/.test(result.stderr);
    } catch {
      return false;
    }
  }

  /** Every pane on the socket; empty when the server is not running. */
  async listPanes(): Promise<PaneState[]> {
    const format =
      '#{session_name}\t#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}\t#{pane_pid}\t#{pane_current_command}';
    const result = await this.#run(['list-panes', '-a', '-F', format], { reject: false });
    if (result.exitCode !== 0) return [];
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [session = '', dead, status, signal, pid, command = ''] = line.split('\t');
        return {
          session,
          dead: dead === '1',
          exitStatus: status ? Number(status) : null,
          exitSignal: signal ? Number(signal) : null,
          pid: Number(pid),
          command,
        };
      });
  }

  async killSession(name: string): Promise<void> {
    await this.#run(['kill-session', '-t', target(name)], { reject: false });
  }
}
