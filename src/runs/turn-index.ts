import type { ReadOptions } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Action } from './action.js';
import { RunFold, runEventNames, type Turn } from './run-fold.js';

/** A session's stored events, as the log reads them. */
export type ReadEvents = (sessionId: string, options: ReadOptions) => Promise<StoredEvent[]>;

/** Events read per query while folding, so a long log is never held in memory at once. */
const page = 1000;

/** A session's turns folded so far. */
interface Folded {
  readonly fold: RunFold;
  readonly turns: Turn[];
  /** The seq of the last event folded. */
  lastSeq: number;
  /** The oldest event the log kept when folding began: when it changes, fold again. */
  readonly oldest: Pick<StoredEvent, 'seq' | 'receivedAt'> | null;
  /** Actions kept in `turns`. */
  actions: number;
}

interface Entry {
  /** The latest read of this session; each read folds on from the one before. */
  ready: Promise<Folded | null>;
  folded: Folded | null;
  /** Its actions as counted in the index's total after its last read. */
  counted: number;
}

/** The actions a session's folded turns keep. */
const actionsOf = (folded: Folded | null) =>
  (folded?.actions ?? 0) + (folded?.fold.current?.actions.length ?? 0);

const sameEvent = (a: Folded['oldest'], b: Folded['oldest']) =>
  a?.seq === b?.seq && a?.receivedAt === b?.receivedAt;

/**
 * Each session's turns, folded once and then kept up to date by folding only the events stored
 * since the last read. Actions are kept without their detail (a tool's output can be megabytes):
 * `actionsOf` folds a turn's events again for it. Bounded: past `maxActions` actions across
 * sessions, the least recently read sessions are dropped, and folded again when next asked.
 */
export class TurnIndex {
  readonly #read: ReadEvents;
  readonly #maxActions: number;
  /** In the order they were last read, the least recent first. */
  readonly #sessions = new Map<string, Entry>();
  /** Actions kept across sessions, each as counted after its last read. */
  #kept = 0;

  constructor(read: ReadEvents, options: { readonly maxActions?: number } = {}) {
    this.#read = read;
    this.#maxActions = options.maxActions ?? 100_000;
  }

  /** The session's turns, oldest first (the running one last), actions without detail. */
  async turns(sessionId: string): Promise<Turn[]> {
    const entry = this.#sessions.get(sessionId) ?? {
      ready: Promise.resolve(null),
      folded: null,
      counted: 0,
    };
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, entry);
    // A read that failed part way kept what it folded: the next one goes on from there.
    const ready = entry.ready
      .catch(() => entry.folded)
      .then(async (folded) => (entry.folded = await this.#foldOn(sessionId, folded)));
    entry.ready = ready;
    const folded = await ready;
    if (this.#sessions.get(sessionId) === entry) {
      const counted = actionsOf(folded);
      this.#kept += counted - entry.counted;
      entry.counted = counted;
    }
    this.#evict();
    const current = folded.fold.current;
    return current
      ? [...folded.turns, { ...current, actions: [...current.actions] }]
      : [...folded.turns];
  }

  /**
   * The actions of a turn with their detail, by id, each in its latest phase up to `upTo` (an
   * event seq): what its events give when folded again.
   */
  async actionsOf(
    sessionId: string,
    turnId: string,
    upTo = Infinity,
  ): Promise<Map<string, Action>> {
    const fold = new RunFold(sessionId);
    const byId = (turn: Turn | null) =>
      new Map(turn?.id === turnId ? turn.actions.map((action) => [action.id, action]) : []);
    let after = Number(turnId.slice(turnId.lastIndexOf(':') + 1)) - 1;
    for (;;) {
      const events = await this.#read(sessionId, { after, names: runEventNames, limit: page });
      for (const event of events) {
        if (event.seq > upTo) return byId(fold.current);
        const { completed } = fold.apply(event);
        if (completed?.id === turnId) return byId(completed);
        after = event.seq;
      }
      if (events.length < page) return byId(fold.current);
    }
  }

  /** The detail of an action a turn index kept without it. */
  async detail(action: Action, turnActions = this.actionsOf(action.sessionId, action.turnId)) {
    let found = (await turnActions).get(action.id);
    // A later phase came since the action was read: fold up to the phase asked for.
    if (found && found.seq !== action.seq)
      found = (await this.actionsOf(action.sessionId, action.turnId, action.seq)).get(action.id);
    return found?.detail ?? {};
  }

  async #foldOn(sessionId: string, from: Folded | null): Promise<Folded> {
    const [first] = await this.#read(sessionId, { limit: 1 });
    const oldest = first ? { seq: first.seq, receivedAt: first.receivedAt } : null;
    const folded =
      from && sameEvent(from.oldest, oldest)
        ? from
        : {
            fold: new RunFold(sessionId, { details: 'none' }),
            turns: [],
            lastSeq: 0,
            oldest,
            actions: 0,
          };
    for (;;) {
      const events = await this.#read(sessionId, {
        after: folded.lastSeq,
        names: runEventNames,
        limit: page,
      });
      for (const event of events) {
        const { completed } = folded.fold.apply(event);
        if (completed) {
          folded.turns.push(completed);
          folded.actions += completed.actions.length;
        }
        folded.lastSeq = event.seq;
      }
      if (events.length < page) return folded;
    }
  }

  /** Drops the least recently read sessions while more than `maxActions` actions are kept. */
  #evict(): void {
    for (const [sessionId, entry] of this.#sessions) {
      if (this.#kept <= this.#maxActions || this.#sessions.size === 1) return;
      this.#kept -= entry.counted;
      this.#sessions.delete(sessionId);
    }
  }
}
