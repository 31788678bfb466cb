import { ErrorCode, HubError } from '../errors.js';
import { allowedKeys, claudePane } from './claude-pane.js';
import { externalControlProblem } from './claude-process.js';
import { processExists, processRuns } from './process-state.js';
import type { InputMode } from './prompt-input.js';
import type {
  Exit,
  Presence,
  RuntimeSession,
  ScreenState,
  SessionRuntime,
} from './session-runtime.js';
import { externalPane, type Pane } from './tmux-pane.js';

/** Every how many exit checks the processes' states are read for zombies. */
const zombieCheckEvery = 10;

export interface ExternalRuntimeOptions {
  /** How long a paste may take to show in the input box before Enter is pressed anyway. */
  readonly pasteSettleMs: number;
  /** How long a stopped claude may take to exit before it is killed. */
  readonly stopTimeoutMs: number;
}

/**
 * A claude a person started, in a pane of their own tmux server (or outside tmux): the hub reads
 * and types into that pane as into its own, but never launches, restarts or resumes it. Whether
 * it runs is read from its process.
 */
export class ExternalRuntime implements SessionRuntime {
  readonly keyNames = [...allowedKeys.keys()];
  readonly #options: ExternalRuntimeOptions;
  /** The exits() calls so far. */
  #checks = 0;
  /** When each session's process and pane last checked out, for reading its screen. */
  readonly #checkedAt = new Map<string, number>();

  constructor(options: ExternalRuntimeOptions) {
    this.#options = options;
  }

  launch({ record }: { record: RuntimeSession }): Promise<void> {
    return Promise.reject(
      new HubError(
        ErrorCode.ExternalSession,
        `session ${record.id} was started outside the hub: the hub does not start its claude`,
        { sessionId: record.id },
      ),
    );
  }

  presence(records: readonly RuntimeSession[]): Promise<Map<string, Presence>> {
    return Promise.resolve(
      new Map(
        records.map((record) => [
          record.id,
          record.pid !== null && processRuns(record.pid) ? { kind: 'running' } : { kind: 'gone' },
        ]),
      ),
    );
  }

  /**
   * A claude whose process is gone; one whose process is unknown, once its SessionEnd came. A
   * check is one system call a session (a fleet of a thousand costs under a millisecond). Each
   * check also reads the state of a `zombieCheckEvery`th of the processes, a different share
   * each time, for an exited claude its parent has not reaped yet (a person's shell reaps its
   * claude at once, so that is rare): each process is read every `zombieCheckEvery` checks, and
   * no check holds the loop for all of them (a read is a file's open, read and close: a thousand
   * take 10 to 25 ms).
   */
  exits<S extends RuntimeSession>(records: readonly S[]): Promise<Exit<S>[]> {
    const turn = this.#checks++ % zombieCheckEvery;
    const gone = (pid: number, index: number) =>
      index % zombieCheckEvery === turn ? !processRuns(pid) : !processExists(pid);
    return Promise.resolve(
      records
        .filter((record, index) => (record.pid === null ? record.ended : gone(record.pid, index)))
        .map((record) => ({ record, how: '', screen: '' })),
    );
  }

  screen(record: RuntimeSession): Promise<string> {
    return this.pane(record).capture();
  }

  look(record: RuntimeSession): Promise<ScreenState> {
    return claudePane.look(this.pane(record));
  }

  /** Outside tmux there is no terminal the hub can read a person's typing from. */
  async lastTyped(record: RuntimeSession): Promise<number | null> {
    return record.pane ? this.pane(record).lastTyped() : null;
  }

  waitForInput(record: RuntimeSession, timeoutMs: number, running: () => boolean): Promise<void> {
    return claudePane.waitForInput(this.pane(record), record.id, timeoutMs, running);
  }

  type(record: RuntimeSession, text: string, mode: InputMode): Promise<void> {
    return claudePane.type(this.pane(record), text, mode, this.#options.pasteSettleMs);
  }

  keys(record: RuntimeSession, names: readonly string[]): Promise<void> {
    return claudePane.keys(this.pane(record), names);
  }

  interrupt(record: RuntimeSession, timeoutMs: number): Promise<boolean> {
    return claudePane.interrupt(this.pane(record), timeoutMs);
  }

  /**
   * Ends the claude process (SIGTERM, then SIGKILL after stopTimeoutMs), as Ctrl-C twice would:
   * the person's pane and shell stay.
   */
  async stop(record: RuntimeSession): Promise<void> {
    await this.#check(record);
    const pid = record.pid!;
    signal(pid, 'SIGTERM');
    const deadline = Date.now() + this.#options.stopTimeoutMs;
    while (processRuns(pid) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (processRuns(pid)) signal(pid, 'SIGKILL');
  }

  attachCommand(record: RuntimeSession): string | null {
    return record.pane ? `tmux -S ${record.pane.socket} attach -t ${record.pane.pane}` : null;
  }

  pane(record: RuntimeSession): Pane {
    if (!record.pane) {
      throw new HubError(
        ErrorCode.NotInTmux,
        `session ${record.id} runs outside tmux: the hub cannot type into its terminal`,
        { sessionId: record.id },
      );
    }
    const pane = externalPane(record.pane);
    const checked = (fresh: boolean) => this.#check(record, fresh);
    return {
      server: pane.server,
      target: pane.target,
      capture: async (history) => (await checked(false), pane.capture(history)),
      lastTyped: async () => (await checked(false), pane.lastTyped()),
      paste: async (text, whole) => (await checked(true), pane.paste(text, whole)),
      pastePrompt: async (text) => (await checked(true), pane.pastePrompt(text)),
      sendKeys: async (keys) => (await checked(true), pane.sendKeys(keys)),
      input: async (data, paste) => (await checked(true), pane.input(data, paste)),
      focus: async (client, ignored) => (await checked(true), pane.focus(client, ignored)),
    };
  }

  /**
   * Throws unless the session's process and pane check out (see externalControlProblem): before
   * every signal and keystroke, and at most a second apart for reading its screen. Its events
   * are kept whatever this says; only control is refused.
   */
  async #check(record: RuntimeSession, fresh = true): Promise<void> {
    if (!fresh && Date.now() - (this.#checkedAt.get(record.id) ?? 0) < 1000) return;
    const problem = await externalControlProblem(record);
    if (problem === null) {
      this.#checkedAt.set(record.id, Date.now());
      return;
    }
    this.#checkedAt.delete(record.id);
    throw new HubError(
      ErrorCode.ExternalSession,
      `session ${record.id} was started outside the hub and ${problem}: the hub keeps its events but does not control it`,
      { sessionId: record.id },
    );
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
