/** Collects values as they arrive, so a test can wait for the next one without missing any. */
export class LiveQueue<T> {
  readonly received: T[] = [];
  #read = 0;
  #waiters: (() => void)[] = [];
  #error: Error | null = null;
  #completed = false;
  #dispose: (() => void) | null = null;

  push(value: T): void {
    this.received.push(value);
    this.#wake();
  }

  fail(error: Error): void {
    this.#error = error;
    this.#wake();
  }

  complete(): void {
    this.#completed = true;
    this.#wake();
  }

  get completed(): boolean {
    return this.#completed;
  }

  onDispose(dispose: () => void): void {
    this.#dispose = dispose;
  }

  dispose(): void {
    this.#dispose?.();
    this.#dispose = null;
  }

  /** The next value not yet taken. */
  async next(timeoutMs = 10_000): Promise<T> {
    await this.#until(() => this.received.length > this.#read, timeoutMs, 'the next value');
    return this.received[this.#read++] as T;
  }

  /** Takes values until one matches, returning all taken (the match last). */
  async until(match: (value: T) => boolean, timeoutMs = 30_000): Promise<T[]> {
    const taken: T[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await this.next(Math.max(1, deadline - Date.now()));
      taken.push(value);
      if (match(value)) return taken;
    }
  }

  /** Resolves once the stream completed. */
  async waitForComplete(timeoutMs = 10_000): Promise<void> {
    await this.#until(() => this.#completed, timeoutMs, 'completion');
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  async #until(ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (this.#error) throw this.#error;
      if (this.#completed && !ready())
        throw new Error(`stream completed while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; received ${JSON.stringify(this.received).slice(0, 2000)}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
