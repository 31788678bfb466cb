import { ErrorCode, HubError } from '../errors.js';
import type { Pane } from '../runtime/tmux-pane.js';
import type { TerminalChunk, TerminalViewer } from './terminal-viewer.js';
import { TerminalWatch, type TerminalWatchOptions } from './terminal-watch.js';

/** Characters one sendTerminalInput may carry (a paste is one input). */
export const maxTerminalInputChars = 65_536;
/** The sizes resizeTerminal accepts. */
export const terminalSize = { minCols: 20, maxCols: 1000, minRows: 5, maxRows: 500 } as const;

/**
 * The terminals of the sessions this hub runs, as browsers see them: one watch per session
 * while anyone views it, shared by every viewer, and a person's keystrokes typed into the pane
 * in the order they were sent.
 */
export class Terminals {
  readonly #options: TerminalWatchOptions;
  readonly #clock: () => number;
  readonly #watches = new Map<string, Promise<TerminalWatch>>();
  /** Per session, the input being typed: the next waits for it, so keys never overtake. */
  readonly #typing = new Map<string, Promise<void>>();
  readonly #inputAt = new Map<string, number>();
  readonly #opened = new Set<TerminalWatch>();

  constructor(options: TerminalWatchOptions, clock: () => number = Date.now) {
    this.#options = options;
    this.#clock = clock;
  }

  /**
   * The session's terminal: a snapshot, then every change, until the session's tmux ends.
   * return() ends it at once, also while it waits for output (an async generator would wait).
   */
  view(sessionId: string, pane: Pane): AsyncIterableIterator<TerminalChunk> {
    let left = false;
    const viewer = this.#viewer(sessionId, pane).then((opened) => {
      if (left) opened.end();
      return opened;
    });
    // A watch that fails to open fails the first next(); nobody else waits for it.
    viewer.catch(() => {});
    return {
      next: async () => (await viewer).next(),
      return: async () => {
        left = true;
        (await viewer.catch(() => null))?.end();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  async #viewer(sessionId: string, pane: Pane): Promise<TerminalViewer> {
    let watch = await this.#watch(sessionId, pane);
    // The last viewer of a watch may have left while this one waited for it.
    if (watch.ended) watch = await this.#watch(sessionId, pane);
    return watch.view();
  }

  /** Types a person's input into the pane, byte for byte (see Pane.input). */
  async input(sessionId: string, pane: Pane, data: string, paste: boolean): Promise<void> {
    if (data.length === 0 || data.length > maxTerminalInputChars) {
      throw new HubError(
        ErrorCode.BadInput,
        `data must hold 1 to ${maxTerminalInputChars} characters; it has ${data.length}`,
      );
    }
    this.#inputAt.set(sessionId, this.#clock());
    const typed = (this.#typing.get(sessionId) ?? Promise.resolve())
      .catch(() => {})
      .then(() => pane.input(data, paste));
    this.#typing.set(sessionId, typed);
    try {
      await typed;
    } finally {
      if (this.#typing.get(sessionId) === typed) this.#typing.delete(sessionId);
    }
  }

  /** The processes of the watches' tmux clients, for telling them from a person's. */
  clientPids(): ReadonlySet<number> {
    const pids = new Set<number>();
    for (const watch of this.#opened) if (watch.pid !== undefined) pids.add(watch.pid);
    return pids;
  }

  /** When a person last typed into the session through the API; null if never. */
  lastInput(sessionId: string): number | null {
    return this.#inputAt.get(sessionId) ?? null;
  }

  /**
   * Sizes the session's window for the viewers' browser, unless a person's tmux client is
   * attached (see TerminalWatch.resize); only while someone views it through this hub.
   */
  async resize(sessionId: string, cols: number, rows: number): Promise<boolean> {
    const { minCols, maxCols, minRows, maxRows } = terminalSize;
    if (!inRange(cols, minCols, maxCols) || !inRange(rows, minRows, maxRows)) {
      throw new HubError(
        ErrorCode.BadInput,
        `a terminal is ${minCols} to ${maxCols} columns by ${minRows} to ${maxRows} rows; got ${cols} x ${rows}`,
      );
    }
    const watch = await this.#watches.get(sessionId)?.catch(() => null);
    if (!watch || watch.ended) {
      throw new HubError(
        ErrorCode.TerminalNotWatched,
        `nobody watches session ${sessionId}'s terminal through this hub: the size follows a sessionTerminal subscriber`,
      );
    }
    return watch.resize(cols, rows);
  }

  /** Detaches every watch; their viewers end. */
  async close(): Promise<void> {
    const watches = await Promise.allSettled(this.#watches.values());
    for (const watch of watches) if (watch.status === 'fulfilled') watch.value.close();
  }

  #watch(sessionId: string, pane: Pane): Promise<TerminalWatch> {
    const current = this.#watches.get(sessionId);
    if (current) return current;
    let watch: TerminalWatch | null = null;
    const opened: Promise<TerminalWatch> = TerminalWatch.open(pane, this.#options, () => {
      if (watch) this.#opened.delete(watch);
      if (this.#watches.get(sessionId) === opened) this.#watches.delete(sessionId);
    });
    this.#watches.set(sessionId, opened);
    opened.then(
      (ready) => {
        watch = ready;
        if (!ready.ended) this.#opened.add(ready);
      },
      () => {
        if (this.#watches.get(sessionId) === opened) this.#watches.delete(sessionId);
      },
    );
    return opened;
  }
}

function inRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
