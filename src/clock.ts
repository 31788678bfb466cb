/** Time, injected wherever it decides behaviour, so tests can move it instead of waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` after `ms`; the function returned cancels it. Keeps no process alive. */
  after(ms: number, callback: () => void): () => void;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
}

/** The machine's own clock and timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
