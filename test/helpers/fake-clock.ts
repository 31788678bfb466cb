import type { Clock } from '../../src/clock.js';

/** A clock that moves only when told to: timers due by then run in order of their time. */
export class FakeClock implements Clock {
  #now = Date.UTC(2026, 0, 1);
  #timers: { at: number; callback: () => void }[] = [];

  now(): number {
    return this.#now;
  }

  after(ms: number, callback: () => void): () => void {
    const timer = { at: this.#now + ms, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Resolves once advance() has moved the clock `ms` on; no real time passes. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  /** Moves time on by `ms`, running each timer that falls due on the way. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const next = this.#timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((timer) => timer !== next);
      this.#now = next.at;
      next.callback();
    }
    this.#now = until;
  }
}

/**
 * The machine's time, plus what the test moved it on by: timers run when real time reaches them
 * or when advance() moves the clock past them, whichever comes first.
 */
export class ShiftedClock implements Clock {
  #offset = 0;
  #timers = new Set<{ at: number; run: () => void }>();

  now(): number {
    return Date.now() + this.#offset;
  }

  after(ms: number, callback: () => void): () => void {
    const timer = {
      at: this.now() + ms,
      run: () => {
        if (!this.#timers.delete(timer)) return;
        clearTimeout(real);
        callback();
      },
    };
    const real = setTimeout(() => timer.run(), Math.min(ms, 2 ** 31 - 1));
    real.unref();
    this.#timers.add(timer);
    return () => {
      this.#timers.delete(timer);
      clearTimeout(real);
    };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  /** Moves time on by `ms`, running each timer that falls due, in order of their time. */
  advance(ms: number): void {
    this.#offset += ms;
    const due = [...this.#timers].filter((timer) => timer.at <= this.now());
    for (const timer of due.sort((a, b) => a.at - b.at)) timer.run();
  }
}
