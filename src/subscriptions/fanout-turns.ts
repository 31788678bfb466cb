/** One connection's side of the fan-out: its place (the older, the earlier) and its writes. */
export interface FanoutConnection {
  readonly place: number;
  /** Writes what its subscriptions have sent, in one go. */
  flush(): void;
}

/** Subscriptions to run, by connection. */
type ConnectionRuns = Map<FanoutConnection, (() => void)[]>;

/** Adds `run` to its connection's runs. */
function addRun(runs: ConnectionRuns, connection: FanoutConnection, run: () => void): void {
  const pending = runs.get(connection);
  if (pending) pending.push(run);
  else runs.set(connection, [run]);
}

/**
 * The share of each turn of the event loop that subscribers' messages may take, writes
 * included, so hook answers stay fast whatever the subscribers do. Once `budgetMs` have passed
 * since this turn's fan-out began, a subscription's next event waits for a later turn, after
 * the loop has read what came in meanwhile (the hooks first), and the connections waiting go on
 * oldest first. When the hub cannot carry every subscriber, the newest connections fall behind,
 * their queues fill and their subscriptions are cut with SUBSCRIBER_TOO_SLOW (they can resume
 * with `after`); the older ones keep up.
 *
 * Subscriptions run connection by connection, and each connection's messages are written right
 * after its subscriptions ran: one write per connection, and the writes (several times the
 * making of the messages) count in the budget. Once it is spent, the connections not reached
 * wait as they are, without running: a turn costs the work it does, not the number waiting.
 *
 * The later turn is a timer, not an immediate: timers run at the start of the loop's turn,
 * before it reads its sockets, and the hooks it reads are stored and answered in that turn's
 * check phase (the event log commits its batch in an immediate), before the next slice of
 * fan-out. An immediate scheduled a turn earlier would run its slice first, and every hook
 * answer would wait for it.
 */
export class FanoutTurns {
  readonly #budgetMs: number;
  /** When this turn's fan-out began; -1 before it has. */
  #since = -1;
  /** The subscriptions waiting for a later turn, by connection. */
  #waiting: ConnectionRuns = new Map();
  /** The subscriptions woken since the last run, by connection. */
  #woken: ConnectionRuns = new Map();
  #connections = 0;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
  }

  /** A new connection's place: the older, the earlier it goes on after a wait. */
  place(): number {
    return this.#connections++;
  }

  /**
   * False while this turn has budget left and nobody waits: go on. Else true, and `resume` is
   * called in a later turn, connections in `place` order.
   */
  wait(connection: FanoutConnection, resume: () => void): boolean {
    const now = performance.now();
    this.#begin(now);
    if (!this.#spent(now)) return false;
    addRun(this.#waiting, connection, resume);
    return true;
  }

  /**
   * Runs `run` once what is under way has finished (events are published when their batch is
   * committed, and that batch's hooks are answered first), with the connection's other woken
   * subscriptions, then writes the connection's messages; or later, as `wait` would.
   */
  wake(connection: FanoutConnection, run: () => void): void {
    if (this.#woken.size === 0) process.nextTick(this.#runWoken);
    addRun(this.#woken, connection, run);
  }

  /** Starts this turn's clock, if not yet: the next turn begins in the next timers phase. */
  #begin(now: number): void {
    if (this.#since >= 0) return;
    this.#since = now;
    setTimeout(this.#nextTurn, 0);
  }

  /**
   * True once others wait or this turn's fan-out has had its budget. A turn begins with the
   * first wait, so each turn lets at least one subscription send an event, whatever the budget.
   */
  #spent(now = performance.now()): boolean {
    return this.#waiting.size > 0 || (this.#since >= 0 && now - this.#since > this.#budgetMs);
  }

  /** Each connection's subscriptions, then its write; once the budget is spent, the rest wait. */
  #run(runs: Iterable<readonly [FanoutConnection, readonly (() => void)[]]>): void {
    for (const [connection, subscriptions] of runs) {
      if (this.#spent()) {
        for (const run of subscriptions) addRun(this.#waiting, connection, run);
        continue;
      }
      for (const run of subscriptions) run();
      connection.flush();
      // Writes alone (held messages) take the budget too.
      this.#begin(performance.now());
    }
  }

  readonly #runWoken = () => {
    const woken = this.#woken;
    this.#woken = new Map();
    this.#run(woken);
  };

  readonly #nextTurn = () => {
    this.#since = -1;
    if (this.#waiting.size === 0) return;
    const waiting = [...this.#waiting].sort(([a], [b]) => a.place - b.place);
    this.#waiting = new Map();
    this.#run(waiting);
  };
}
