import { isHubVariable } from './session-env.js';
import { literalArg, paneOn, tmuxServer, type Pane, type TmuxRun } from './tmux-pane.js';

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
  readonly #env: Readonly<Record<string, string>>;
  /** Set once a server that an older hub started holds none of the hub's variables any more. */
  #scrubbed: Promise<void> | null = null;

  /** `env`: all that tmux gets of the hub's environment (see sessionEnvironment). */
  constructor(socket: string, configPath: string, env: Readonly<Record<string, string>>) {
    this.socket = socket;
    this.#server = ['-L', socket, '-f', configPath];
    this.#env = env;
    this.#run = tmuxServer(this.#server, env);
  }

  /** The pane of one of the hub's tmux sessions. */
  pane(name: string): Pane {
    return paneOn(this.#server, target(name), `hub-${name}`, this.#env);
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
  async newSession(options: NewSessionOptions): Promise<number> {
    try {
      return await this.#newSession(options);
    } catch (error) {
      if (!/duplicate session/.test((error as { stderr?: string }).stderr ?? '')) throw error;
      await this.killSession(options.name);
      return await this.#newSession(options);
    }
  }

  /**
   * Starts the command in place of the session's running one, in the same window: a person
   * attached stays attached. It starts in a session of its own (so the environment goes the
   * same way as in newSession), whose pane then swaps with the old one; the old one ends with
   * that session.
   */
  async replace(options: NewSessionOptions): Promise<number> {
    const next = `${options.name}-next`;
    const pid = await this.newSession({ ...options, name: next });
    try {
      await this.#run(['swap-pane', '-s', target(next), '-t', target(options.name)]);
    } finally {
      await this.killSession(next);
    }
    return pid;
  }

  /**
   * A server an older hub started may hold the hub's variables in its global environment, which
   * every new session gets: they are unset once, before this hub's first start of a session.
   */
  #scrubServerEnvironment(): Promise<void> {
    this.#scrubbed ??= (async () => {
      const shown = await this.#run(['show-environment', '-g'], { reject: false });
      if (shown.exitCode !== 0) return; // no server yet: the one started gets this.#env only
      const leaked = shown.stdout
        .split('\n')
        .map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line))
        .filter((match) => match !== null && isHubVariable(match[1]!, match[2]!, []))
        .map((match) => match![1]!);
      for (const name of leaked) await this.#run(['set-environment', '-g', '-u', name]);
    })();
    return this.#scrubbed;
  }

  /** Starts the session; resolves with the process id of its pane's command. */
  async #newSession(options: NewSessionOptions): Promise<number> {
    target(options.name);
    await this.#scrubServerEnvironment();
    const names = Object.keys(options.env).join(' ');
    // remain-on-exit keeps the pane after claude exits, so its last screen can be read; the
    // config file sets it too, for a server this call starts.
    const started = await this.#run(
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
        '-P',
        '-F',
        '#{pane_pid}',
        '-s',
        options.name,
        '-x',
        '200',
        '-y',
        '50',
        // No -c: tmux expands formats in it (`#(cmd)` runs cmd); the client's own working
        // directory is the new session's, taken as it is.
        '--',
        ...options.argv.map(literalArg),
        ';',
        'set-option',
        '-gu',
        'update-environment',
      ],
      { env: options.env, cwd: options.cwd },
    );
    return Number(started.stdout.trim().split('\n')[0]);
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
