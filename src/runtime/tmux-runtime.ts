import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeCommand } from './claude-command.js';
import { inputBoxText, inputReady, startupDialog, turnRunning } from './screen.js';
import type {
  Exit,
  LaunchSpec,
  Presence,
  RuntimeSession,
  ScreenState,
  SessionRuntime,
} from './session-runtime.js';
import { HubError, ErrorCode } from '../errors.js';
import type { PaneState, TmuxDriver } from './tmux-driver.js';

/** Keys sendKeys may press, by the names clients use, as tmux names them. */
const allowedKeys = new Map<string, string>([
  ['Enter', 'Enter'],
  ['Escape', 'Escape'],
  ['Up', 'Up'],
  ['Down', 'Down'],
  ['Left', 'Left'],
  ['Right', 'Right'],
  ['Tab', 'Tab'],
  ['ShiftTab', 'BTab'],
  ['Space', 'Space'],
  ['Backspace', 'BSpace'],
  ['y', 'y'],
  ['n', 'n'],
  ...[...'0123456789'].map((digit): [string, string] => [digit, digit]),
]);

export interface TmuxRuntimeOptions {
  /**
   * How often every tmux pane is listed when no pane's process is gone: a launch, and a pane
   * whose process exited, make the next check list them at once.
   */
  readonly paneCheckMs: number;
  /** Pause after the input box first appears: the TUI drops keys typed right away. */
  readonly inputSettleMs: number;
  /** How long a paste may take to show in the input box before Enter is pressed anyway. */
  readonly pasteSettleMs: number;
}

/**
 * claude in a tmux session of the hub's own tmux server, one per hub session, so a person can
 * always attach and take over. Whether a claude still runs is read from the kernel on every
 * check (no spawn); the panes are listed with tmux only when that says one is gone, after a
 * launch, and every paneCheckMs, since spawning tmux stalls the event loop for a few ms.
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
      await this.#tmux[inPlace ? 'replace' : 'newSession']({
        name: record.tmuxSession,
        cwd: record.cwd,
        env,
        argv: claudeCommand(claude),
      });
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
    const listed = await this.#tmux.listPanes();
    this.#listedAt = listedAt;
    this.#panePids = listed.filter((pane) => !pane.dead).map((pane) => pane.pid);
    const panes = new Map(listed.map((pane) => [pane.session, pane]));
    const exits: Exit<S>[] = [];
    for (const record of records) {
      if ((this.#launchedAt.get(record.id) ?? 0) >= listedAt) continue;
      const pane = panes.get(record.tmuxSession);
      if (pane && !pane.dead) continue;
      const screen = pane ? await this.#tmux.capture(record.tmuxSession, true) : '';
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
    return this.#tmux.capture(record.tmuxSession);
  }

  async look(record: RuntimeSession): Promise<ScreenState> {
    const screen = await this.screen(record);
    return {
      dialog: startupDialog(screen),
      inputText: inputBoxText(screen),
      turnRunning: turnRunning(screen),
    };
  }

  /** SessionStart fires before the TUI draws its input box; keys sent earlier are lost. */
  async waitForInput(
    record: RuntimeSession,
    timeoutMs: number,
    running: () => boolean,
  ): Promise<void> {
    if (this.#inputSeen.has(record.id)) return;
    const deadline = Date.now() + timeoutMs;
    while (!inputReady(await this.screen(record))) {
      if (Date.now() > deadline || !running()) {
        throw new HubError(
          ErrorCode.SessionNotRunning,
          `session ${record.id} never showed its input box`,
          { sessionId: record.id },
        );
      }
      await sleep(100);
    }
    await sleep(this.#options.inputSettleMs);
    this.#inputSeen.add(record.id);
  }

  /**
   * Pastes, then waits until claude shows the paste in its input box (or pasteSettleMs): an
   * Enter that claude reads together with the paste is taken as part of it.
   */
  async type(record: RuntimeSession, text: string): Promise<void> {
    await this.#tmux.paste(record.tmuxSession, text);
    const deadline = Date.now() + this.#options.pasteSettleMs;
    while (Date.now() < deadline) {
      if (inputBoxText(await this.screen(record))) return;
      await sleep(10);
    }
  }

  keys(record: RuntimeSession, names: readonly string[]): Promise<void> {
    return this.#tmux.sendKeys(
      record.tmuxSession,
      names.map((name) => allowedKeys.get(name) ?? name),
    );
  }

  /**
   * Escape, as a person would. The turn is over when the screen stops offering "esc to
   * interrupt"; claude then puts the prompt back in the input box a moment later, and one
   * Ctrl-C clears it (a second, on an empty box, would exit claude).
   */
  async interrupt(record: RuntimeSession, timeoutMs: number): Promise<boolean> {
    await this.keys(record, ['Escape']);
    const deadline = Date.now() + timeoutMs;
    let screen = await this.screen(record);
    while (turnRunning(screen) && Date.now() < deadline) {
      await sleep(100);
      screen = await this.screen(record);
    }
    if (turnRunning(screen)) return false;
    for (let i = 0; i < 10; i++) {
      if (inputBoxText(await this.screen(record))) {
        await this.keys(record, ['C-c']);
        break;
      }
      await sleep(100);
    }
    return true;
  }

  stop(record: RuntimeSession): Promise<void> {
    return this.#tmux.killSession(record.tmuxSession);
  }

  attachCommand(record: RuntimeSession): string {
    return this.#tmux.attachCommand(record.tmuxSession);
  }
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

const hasProc = existsSync('/proc/self/stat');

/**
 * False once the process has exited. On Linux an exited process can stay a zombie for a while
 * (tmux has not reaped it, or a thread of it is still ending) while its pane is already dead,
 * so its state is read from /proc; elsewhere, whether it exists at all.
 */
function processRuns(pid: number): boolean {
  try {
    if (!hasProc) return process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
