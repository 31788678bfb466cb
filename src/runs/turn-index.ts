import type { EventLog, ReadOptions } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Action } from './action.js';
import { RunFold, runEventNames, type Turn } from './run-fold.js';

/** A session's stored events, as the log reads them. */
export type ReadEvents = (sessionId: string, options: ReadOptions) => Promise<StoredEvent[]>;

/** What the log the index reads tells without a read, where this process appends to it. */
export type LocalLog = Pick<EventLog, 'lastSeq' | 'keeps'>;

export interface TurnIndexOptions {
  /** Actions kept across sessions; past it the least recently read sessions are dropped. */
  readonly maxActions?: number;
  /**
   * The log read, when every event of it is appended by this process and passed to `heard` once
   * stored: a session then folds on from what it hears, and reads only past a gap. Left out
   * where the log holds events appended elsewhere (a cluster's): every call reads.
   */
  readonly local?: LocalLog;
}

/** Events read per query while folding, so a long log is never held in memory at once. */
const page = 1000;

const runEvents: ReadonlySet<string> = new Set(runEventNames);

/** A session's turns folded so far. */
interface Folded {
  readonly fold: RunFold;
  readonly turns: Turn[];
  /** Every event up to this seq is folded, or is not one the fold needs. */
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
  /** Its actions as counted in the index's total after its last fold. */
  counted: number;
  /** Reads asked for and not done: an event heard meanwhile is left to them. */
  reading: number;
  /** The highest seq heard: every event up to it is stored. */
  heard: number;
}

/** The actions a session's folded turns keep. */
const actionsOf = (folded: Folded | null) =>
  (folded?.actions ?? 0) + (folded?.fold.current?.actions.length ?? 0);

/** Folds an event the fold needs, keeping the turn it completed. */
function fold(folded: Folded, event: StoredEvent): void {
  const { completed } = folded.fold.apply(event);
  if (completed) {
    folded.turns.push(completed);
    folded.actions += completed.actions.length;
  }
}

const sameEvent = (a: Folded['oldest'], b: Folded['oldest']) =>
  a?.seq === b?.seq && a?.receivedAt === b?.receivedAt;

/** Whether the local log still has the oldest event `folded` began from (or still none). */
const keepsOldest = (local: LocalLog, sessionId: string, folded: Folded) =>
  folded.oldest === null ? local.lastSeq(sessionId) === 0 : local.keeps(sessionId, folded.oldest);

/**
 * Each session's turns, folded once and then kept up to date by folding only the events stored
 * since: as they are heard where the log is local, else read at the next call. Actions are kept
 * without their detail (a tool's output can be megabytes): `actionsOf` folds a turn's events
 * again for it. Bounded: past `maxActions` actions across sessions, the least recently read
 * sessions are dropped, and folded again from the log when next asked.
 */
export class TurnIndex {
  readonly #read: ReadEvents;
  readonly #maxActions: number;
  readonly #local: LocalLog | undefined;
  /** In the order they were last read, the least recent first. */
  readonly #sessions = new Map<string, Entry>();
  /** Actions kept across sessions, each as counted after its last fold. */
  #kept = 0;

  constructor(read: ReadEvents, options: TurnIndexOptions = {}) {
    this.#read = read;
    this.#maxActions = options.maxActions ?? 100_000;
    this.#local = options.local;
  }

  /**
   * Hears an event the local log stored. A session asked for before folds it now when it is the
   * next one and no read runs; after a gap (an event not heard), the next call reads from the log.
   */
  heard(event: StoredEvent): void {
    const entry = this.#sessions.get(event.sessionId);
    if (!entry || !this.#local) return;
    entry.heard = Math.max(entry.heard, event.seq);
    const { folded } = entry;
    if (!folded || entry.reading > 0 || event.seq !== folded.lastSeq + 1) return;
    if (runEvents.has(event.eventName)) {
      fold(folded, event);
      this.#count(entry);
      this.#evict();
    }
    folded.lastSeq = event.seq;
  }

  /** The session's turns, oldest first (the running one last), actions without detail. */
  async turns(sessionId: string): Promise<Turn[]> {
    const entry = this.#sessions.get(sessionId) ?? {
      ready: Promise.resolve(null),
      folded: null,
      counted: 0,
      reading: 0,
      heard: 0,
    };
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, entry);
    entry.reading += 1;
    // A read that failed part way kept what it folded: the next one goes on from there.
    const ready = entry.ready
      .catch(() => entry.folded)
      .then(async (folded) => {
        try {
          return (entry.folded = await this.#foldOn(sessionId, entry, folded));
        } finally {
          entry.reading -= 1;
        }
      });
    entry.ready = ready;
    const folded = await ready;
    if (this.#sessions.get(sessionId) === entry) this.#count(entry);
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

  /**
   * Folds on from the events stored since `from`, or from the start when the oldest event kept
   * changed. A local log spares the read of the oldest while it still keeps the one folded from
   * (by count or by age), and the read of the new events when every stored one was heard.
   */
  async #foldOn(sessionId: string, entry: Entry, from: Folded | null): Promise<Folded> {
    const local = this.#local;
    let folded = from;
    if (!folded || !local || !keepsOldest(local, sessionId, folded)) {
      const [first] = await this.#read(sessionId, { limit: 1 });
      const oldest = first ? { seq: first.seq, receivedAt: first.receivedAt } : null;
      if (!folded || !sameEvent(folded.oldest, oldest)) {
        const fold = new RunFold(sessionId, { details: 'none' });
        folded = { fold, turns: [], lastSeq: 0, oldest, actions: 0 };
      }
    }
    if (local && folded.lastSeq >= local.lastSeq(sessionId)) return folded;
    // Every event heard before the read is stored, so the read accounts for it.
    const heard = local ? entry.heard : 0;
    for (;;) {
      const events = await this.#read(sessionId, {
        after: folded.lastSeq,
        names: runEventNames,
        limit: page,
      });
      for (const event of events) {
        fold(folded, event);
        folded.lastSeq = event.seq;
      }
      if (events.length < page) {
        folded.lastSeq = Math.max(folded.lastSeq, heard);
        return folded;
      }
    }
  }

  /** Counts the session's actions, as folded now, in the index's total. */
  #count(entry: Entry): void {
    const counted = actionsOf(entry.folded);
    this.#kept += counted - entry.counted;
    entry.counted = counted;
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
