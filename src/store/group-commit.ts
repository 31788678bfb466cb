import type Database from 'better-sqlite3';

interface Write {
  readonly write: () => unknown;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  result?: unknown;
}

/**
 * The writes asked for in one turn of the event loop, committed in one transaction at its end
 * (group commit): a commit costs far more than a row (a row of the usage ledger takes 6-7 µs in
 * a transaction shared with others, 40-65 µs with a commit of its own), and each write waits at
 * most one turn for its batch. A write's promise settles once its batch has committed, with what
 * the write returned; a batch that fails fails every write in it.
 */
export class GroupCommit {
  readonly #commit: (writes: readonly Write[]) => void;
  #writes: Write[] = [];
  #lastCommitted = true;

  constructor(db: Database.Database) {
    // Made once: better-sqlite3's transaction wrapper is not free to make.
    this.#commit = db.transaction((writes: readonly Write[]) => {
      for (const write of writes) write.result = write.write();
    });
  }

  /** Runs `write` in the current turn's transaction; resolves with its result once committed. */
  add<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#writes.length === 0) setImmediate(() => this.flush());
      this.#writes.push({ write, resolve: resolve as (result: unknown) => void, reject });
    });
  }

  /**
   * Whether the last batch committed: false from a failed one (a full disk) until one commits
   * again.
   */
  get lastCommitted(): boolean {
    return this.#lastCommitted;
  }

  /** Commits the writes waiting for their batch now (it runs by itself; and before a close). */
  flush(): void {
    const batch = this.#writes;
    if (batch.length === 0) return;
    this.#writes = [];
    try {
      this.#commit(batch);
    } catch (error) {
      this.#lastCommitted = false;
      for (const write of batch) write.reject(error);
      return;
    }
    this.#lastCommitted = true;
    for (const write of batch) write.resolve(write.result);
  }
}
