/**
 * One subscriber of a session's terminal and what waits for it, bounded in bytes. Output that
 * arrives while it is busy joins what it holds, so each read takes everything drawn since the
 * last; past the bound, what it holds is dropped and it waits for a fresh snapshot instead of
 * an ever-growing backlog.
 */

/** SNAPSHOT repaints the whole terminal; OUTPUT is what the pane drew next. */
export const TerminalChunkKind = { Snapshot: 'SNAPSHOT', Output: 'OUTPUT' } as const;
export type TerminalChunkKind = (typeof TerminalChunkKind)[keyof typeof TerminalChunkKind];

/** Why a subscriber gets a snapshot. */
export const SnapshotReason = {
  /** Its first chunk. */
  First: 'FIRST',
  /** It fell more than --terminal-buffer bytes behind, or tmux paused the pane for the hub. */
  Behind: 'BEHIND',
  /** The window's layout or size changed. */
  Resized: 'RESIZED',
  /** The session's claude now draws in another pane (a restart in place). */
  Pane: 'PANE',
} as const;
export type SnapshotReason = (typeof SnapshotReason)[keyof typeof SnapshotReason];

export interface TerminalChunk {
  readonly kind: TerminalChunkKind;
  /** What to write to a terminal of `cols` x `rows`, as text with its escape sequences. */
  readonly data: string;
  readonly cols: number;
  readonly rows: number;
  /** Why, for a SNAPSHOT; null for OUTPUT. */
  readonly reason: SnapshotReason | null;
}

export class TerminalViewer implements AsyncIterableIterator<TerminalChunk> {
  readonly #limit: number;
  readonly #left: (viewer: TerminalViewer) => void;
  /** What waits for the reader: output joins it, so there is never more than one. */
  #held: TerminalChunk | null = null;
  /** Bytes of output in what is held (a snapshot there does not count: it is never dropped). */
  #heldOutput = 0;
  #reader: {
    resolve: (result: IteratorResult<TerminalChunk>) => void;
    reject: (error: Error) => void;
  } | null = null;
  #failure: Error | null = null;
  #done = false;
  /** The snapshot it needs before any output, and why; null once it has one. */
  awaiting: SnapshotReason | null = SnapshotReason.First;

  /** `limit`: bytes it may hold; `left` is told once when it ends, whoever ends it. */
  constructor(limit: number, left: (viewer: TerminalViewer) => void) {
    this.#limit = limit;
    this.#left = left;
  }

  get ended(): boolean {
    return this.#done || this.#failure !== null;
  }

  /**
   * Gives it a chunk; output is dropped while it awaits a snapshot. Returns false when this
   * made it fall behind: it now awaits a BEHIND snapshot, which the caller asks for.
   */
  push(chunk: TerminalChunk): boolean {
    if (this.ended || (chunk.kind === TerminalChunkKind.Output && this.awaiting)) return true;
    if (chunk.kind === TerminalChunkKind.Snapshot) {
      this.awaiting = null;
      this.#held = null;
      this.#heldOutput = 0;
    }
    if (this.#reader) {
      const { resolve } = this.#reader;
      this.#reader = null;
      resolve({ value: chunk, done: false });
      return true;
    }
    const output = chunk.kind === TerminalChunkKind.Output ? chunk.data.length : 0;
    if (this.#heldOutput + output > this.#limit) {
      this.#held = null;
      this.#heldOutput = 0;
      this.awaiting = SnapshotReason.Behind;
      return false;
    }
    this.#heldOutput += output;
    // A snapshot followed by output is still a repaint; output followed by output is output.
    this.#held = this.#held ? { ...this.#held, data: this.#held.data + chunk.data } : chunk;
    return true;
  }

  /** Ends it: the reader gets what is held, then done. */
  end(): void {
    if (this.ended) return;
    this.#done = true;
    if (this.#reader) {
      this.#reader.resolve({ value: undefined, done: true });
      this.#reader = null;
    }
    this.#left(this);
  }

  /** Ends it with an error for the reader. */
  fail(error: Error): void {
    if (this.ended) return;
    this.#failure = error;
    this.#held = null;
    this.#reader?.reject(error);
    this.#reader = null;
    this.#left(this);
  }

  next(): Promise<IteratorResult<TerminalChunk>> {
    const chunk = this.#held;
    if (chunk) {
      this.#held = null;
      this.#heldOutput = 0;
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#reader = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<TerminalChunk>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
