import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeCommand } from './claude-command.js';
import { allowedKeys, claudePane } from './claude-pane.js';
import { processRuns } from './process-state.js';
import type { InputMode } from './prompt-input.js';
import type {
  Exit,
  LaunchSpec,
  Presence,
  RuntimeSession,
  ScreenState,
  SessionRuntime,
} from './session-runtime.js';
import type { PaneState, TmuxDriver } from './tmux-driver.js';
import type { Pane } from './tmux-pane.js';
import { untimed, type Timed } from '../periodic.js';

export interface TmuxRuntimeOptions {
  /**
   * How often every tmux pane is listed when no pane's process is gone: a launch, and a pane
   * whose process exited, make the next check list them at once. The periodic listing is a
   * safety net only (a pane's process id taken by another process between two checks).
   */
  readonly paneCheckMs: number;
  /** Pause after the input box first appears: the TUI drops keys typed right away. */
  readonly inputSettleMs: number;
  /** How long a paste may take to show in the input box before Enter is pressed anyway. */
  readonly pasteSettleMs: number;
  /** Records how long each listing of the panes took. */
  readonly timed?: Timed;
}

/**
 * claude in a tmux session of the hub's own tmux server, one per hub session, so a person can
 * always attach and take over. Whether a claude still runs is read from the kernel on every
 * check (no spawn); the panes are listed with tmux only when that says one is gone, after a
 * launch, and every paneCheckMs, since starting tmux holds the event loop until the child runs:
 * a few ms on an idle machine, tens on a busy one (see `claude_hub_spawn_seconds`).
 */
export class TmuxRuntime implements SessionRuntime {
  readonly keyNames = [...allowedKeys.keys()];
  readonly #tmux: TmuxDriver;
  readonly #options: TmuxRuntimeOptions;
  /** When each session's current tmux session was made; a pane list older than that says nothing. */
  readonly #launchedAt = new Map<string, number>();
  /** Sessions whose input box has been seen since their claude process started. */
  readonly #inputSeen = new Set<string>();
  /** When the panes were last listed, and the processes of the live ones then. */
  #listedAt = 0;
  #panePids: number[] = [];

  constructor(tmux: TmuxDriver, options: TmuxRuntimeOptions) {
    this.#tmux = tmux;
    this.#options = options;
  }

  async launch({ record, env, claude, inPlace }: LaunchSpec): Promise<void> {
    this.#launchedAt.set(record.id, Infinity);
    this.#inputSeen.delete(record.id);
    try {
      const pid = await this.#tmux[inPlace ? 'replace' : 'newSession']({
        name: record.tmuxSession,
        cwd: record.cwd,
        env,
        argv: claudeCommand(claude),
      });
      const ranIn = await execCwd(pid, claude.sessionId);
      if (ranIn !== null && ranIn !== realpathSync(record.cwd)) {
        await this.#tmux.killSession(record.tmuxSession);
        throw new Error(`claude started in ${ranIn}, not in ${record.cwd}; it was stopped`);
      }
    } catch (error) {
      this.#launchedAt.delete(record.id);
      throw error;
    }
    this.#launchedAt.set(record.id, Date.now());
    this.#listedAt = 0; // the next check lists the panes, and so learns claude's process
  }

  async presence(records: readonly RuntimeSession[]): Promise<Map<string, Presence>> {
    const panes = new Map((await this.#tmux.listPanes()).map((pane) => [pane.session, pane]));
    const result = new Map<string, Presence>();
    for (const record of records) {
      const pane = panes.get(record.tmuxSession);
      if (!pane || pane.dead) {
        result.set(record.id, { kind: 'gone' });
      } else if (runsClaudeFor(pane, record)) {
        this.#inputSeen.add(record.id);
        result.set(record.id, { kind: 'running' });
      } else {
        result.set(record.id, {
          kind: 'foreign',
          detail: `tmux session ${record.tmuxSession} no longer runs claude for this session`,
        });
      }
    }
    return result;
  }

  async exits<S extends RuntimeSession>(records: readonly S[]): Promise<Exit<S>[]> {
    const due =
      this.#panePids.some((pid) => !processRuns(pid)) ||
      Date.now() - this.#listedAt >= this.#options.paneCheckMs;
    if (!due) return [];
    const listedAt = Date.now();
    const timed = this.#options.timed ?? untimed;
    const listed = await timed('pane_listing', () => this.#tmux.listPanes());
    this.#listedAt = listedAt;
    this.#panePids = listed.filter((pane) => !pane.dead).map((pane) => pane.pid);
    const panes = new Map(listed.map((pane) => [pane.session, pane]));
    const exits: Exit<S>[] = [];
    for (const record of records) {
      if ((this.#launchedAt.get(record.id) ?? 0) >= listedAt) continue;
      const pane = panes.get(record.tmuxSession);
      if (pane && !pane.dead) continue;
      const screen = pane ? await this.#tmux.pane(record.tmuxSession).capture(true) : '';
      if (pane) await this.#tmux.killSession(record.tmuxSession);
      const how =
        pane?.exitStatus != null
          ? ` with status ${pane.exitStatus}`
          : pane?.exitSignal != null
            ? ` on signal ${pane.exitSignal}`
            : '';
      exits.push({ record, how, screen });
    }
    return exits;
  }

  screen(record: RuntimeSession): Promise<string> {
    return this.#tmux.pane(record.tmuxSession).capture();
  }

  look(record: RuntimeSession): Promise<ScreenState> {
    return claudePane.look(this.#tmux.pane(record.tmuxSession));
  }

  lastTyped(record: RuntimeSession): Promise<number | null> {
    return this.#tmux.pane(record.tmuxSession).lastTyped();
  }

  async waitForInput(
    record: RuntimeSession,
    timeoutMs: number,
    running: () => boolean,
  ): Promise<void> {
    if (this.#inputSeen.has(record.id)) return;
    await claudePane.waitForInput(
      this.#tmux.pane(record.tmuxSession),
      record.id,
      timeoutMs,
      running,
    );
    await sleep(this.#options.inputSettleMs);
    this.#inputSeen.add(record.id);
  }

  type(record: RuntimeSession, text: string, mode: InputMode): Promise<void> {
    const pane = this.#tmux.pane(record.tmuxSession);
    return claudePane.type(pane, text, mode, this.#options.pasteSettleMs);
  }

  keys(record: RuntimeSession, names: readonly string[]): Promise<void> {
    return claudePane.keys(this.#tmux.pane(record.tmuxSession), names);
  }

  interrupt(record: RuntimeSession, timeoutMs: number): Promise<boolean> {
    return claudePane.interrupt(this.#tmux.pane(record.tmuxSession), timeoutMs);
  }

  stop(record: RuntimeSession): Promise<void> {
    return this.#tmux.killSession(record.tmuxSession);
  }

  attachCommand(record: RuntimeSession): string {
    return this.#tmux.attachCommand(record.tmuxSession);
  }

  pane(record: RuntimeSession): Pane {
    return this.#tmux.pane(record.tmuxSession);
  }
}

/**
 * The working directory a pane's process runs its command in: read once the command line holds
 * `marker`, since until tmux's child has changed directory and run the command it is in the tmux
 * server's. Null when the process is gone or never ran it (its exit is seen by the pane checks).
 */
async function execCwd(pid: number, marker: string): Promise<string | null> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(20)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker)) continue;
      return readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return null;
    }
  }
  return null;
}

/** The pane must run claude, and for this session (its id on the command line). */
function runsClaudeFor(pane: PaneState, record: RuntimeSession): boolean {
  try {
    const argv = readFileSync(`/proc/${pane.pid}/cmdline`, 'utf8').split('\0');
    return argv.includes(record.claudeSessionId) || argv.includes(record.id);
  } catch {
    return pane.command === 'claude';
  }
}
