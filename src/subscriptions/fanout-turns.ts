/**
 * The share of each turn of the event loop that subscribers' messages may take, so hook answers
 * stay fast whatever the subscribers do. Once `budgetMs` have passed since this turn's fan-out
 * began, a subscription's next event waits for a later turn, after the loop has read what came
 * in meanwhile (the hooks first), and the subscriptions waiting go on oldest first. When the hub
 * cannot carry every subscriber, the newest fall behind, their queues fill and they are cut
 * with SUBSCRIBER_TOO_SLOW (they can resume with `after`); the older ones keep up.
 */
export class FanoutTurns {
  readonly #budgetMs: number;
  /** When this turn's fan-out began; -1 before it has. */
  #since = -1;
  /** Subscriptions waiting for a later turn, by age. */
  readonly #waiting = new Map<number, () => void>();
  #subscriptions = 0;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
  }

  /** A subscription's place: the older, the earlier it goes on after a wait. */
  place(): number {
    return this.#subscriptions++;
  }

  /**
   * False while this turn has budget left and nobody waits: go on. Else true, and `resume` is
   * called in a later turn, in `place` order.
   */
  wait(place: number, resume: () => void): boolean {
    const now = performance.now();
    if (this.#since < 0) {
      this.#since = now;
      setImmediate(this.#nextTurn);
    }
    if (this.#waiting.size === 0 && now - this.#since <= this.#budgetMs) return false;
    this.#waiting.set(place, resume);
    return true;
  }

  readonly #nextTurn = () => {
    this.#since = -1;
    if (this.#waiting.size === 0) return;
    const waiting = [...this.#waiting].sort(([a], [b]) => a - b);
    this.#waiting.clear();
    for (const [, resume] of waiting) resume();
  };
}
