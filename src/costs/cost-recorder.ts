import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import type { Turn } from '../runs/run-fold.js';
import { TurnStatus } from '../runs/run-fold.js';
import type { TurnIndex } from '../runs/turn-index.js';
import { readAssistantEntries, settledEntries, type AssistantEntry } from '../runs/turn-usage.js';
import type { Prices } from './prices.js';
import { modelUsages, turnCost, type TurnCost } from './turn-cost.js';
import type { TurnCostRow, UsageLedger } from './usage-ledger.js';

/** Hook events after which a turn may have completed. */
const turnEndingHooks: ReadonlySet<string> = new Set([
  'Stop',
  'StopFailure',
  'SessionEnd',
  'SessionStart',
  'UserPromptSubmit',
  'HubTurnEnded',
]);

/**
 * Whether a turn may have completed at this event: a HEADLESS session's stream line only when
 * it is the `result` line (a turn prints many others). Pure.
 */
export function mayEndTurn(event: Pick<StoredEvent, 'eventName' | 'payload'>): boolean {
  if (event.eventName === 'StreamMessage') return event.payload.type === 'result';
  return turnEndingHooks.has(event.eventName);
}

/** How long after a turn's end the cost kept waits for claude to write its answer. */
const keepWaitMs = 10_000;

export interface CostRecorderDeps {
  readonly turns: Pick<TurnIndex, 'turns'>;
  readonly ledger: Pick<UsageLedger, 'add' | 'ofTurn'>;
  readonly prices: Pick<Prices, 'cost'>;
  /** The session's labels and creating token now; undefined for one the hub forgot. */
  readonly session: (
    id: string,
  ) => { readonly labels: readonly string[]; readonly createdBy: string | null } | undefined;
  /** Hears each turn kept for the first time (the metrics count it). */
  readonly recorded: (row: TurnCostRow) => void;
  readonly log: Logger;
}

/**
 * Keeps each completed turn's cost in the ledger once it completes: claude's own figure
 * (HEADLESS), else its transcript's tokens per model at the price table's prices. A session's
 * turns are settled one settling at a time; a turn kept already is not read again.
 */
export class CostRecorder {
  readonly #deps: CostRecorderDeps;
  /** Per session, the settling that runs or waits to run last. */
  readonly #settling = new Map<string, Promise<void>>();
  /** Per session, a settling that waits for the one before it: a later call joins it. */
  readonly #waiting = new Map<string, Promise<void>>();
  /**
   * Per session, the last turn found kept or kept: it and the turns that completed before it are
   * not looked at again (a session's every prompt and Stop settles it).
   */
  readonly #keptLast = new Map<string, { readonly turnId: string; readonly completedAt: number }>();

  constructor(deps: CostRecorderDeps) {
    this.#deps = deps;
  }

  /** Settles the session's turns after an event that may have completed one. */
  heard(event: StoredEvent): void {
    if (mayEndTurn(event)) this.settle(event.sessionId);
  }

  /**
   * Keeps the cost of every completed turn of the session not kept yet; resolves once a settling
   * that began after this call has run (one at a time per session; calls meanwhile share one).
   * Never rejects: a failure is logged.
   */
  settle(sessionId: string): Promise<void> {
    const waiting = this.#waiting.get(sessionId);
    if (waiting) return waiting;
    const before = this.#settling.get(sessionId) ?? Promise.resolve();
    const settling = before.then(() => {
      this.#waiting.delete(sessionId);
      return this.#settle(sessionId).catch((error: unknown) =>
        this.#deps.log.warn({ sessionId, err: error }, "a turn's cost could not be kept"),
      );
    });
    this.#waiting.set(sessionId, settling);
    this.#settling.set(sessionId, settling);
    void settling.then(() => {
      if (this.#settling.get(sessionId) === settling) this.#settling.delete(sessionId);
    });
    return settling;
  }

  /**
   * What a turn cost (see turnCost); its transcript read through `entriesOf`, waiting up to
   * `waitMs` after the turn's end for claude to write its answer there.
   */
  async costOf(
    turn: Turn,
    entriesOf?: (path: string) => Promise<readonly AssistantEntry[]>,
    waitMs?: number,
  ): Promise<TurnCost> {
    const entries = await settledEntries(turn, Date.now, entriesOf, waitMs);
    const usages = entries
      ? modelUsages(entries, turn.startedAt, turn.completedAt ?? Date.now())
      : [];
    return turnCost(usages, turn.costUsd, this.#deps.prices);
  }

  async #settle(sessionId: string): Promise<void> {
    const transcripts = new Map<string, Promise<AssistantEntry[]>>();
    const entriesOf = (path: string) => {
      let read = transcripts.get(path);
      if (!read) transcripts.set(path, (read = readAssistantEntries(path)));
      return read;
    };
    const last = this.#keptLast.get(sessionId);
    for (const turn of await this.#deps.turns.turns(sessionId)) {
      const { id: turnId, completedAt } = turn;
      if (turn.status === TurnStatus.Running || completedAt === null) continue;
      if (last && (completedAt < last.completedAt || turnId === last.turnId)) continue;
      if (this.#deps.ledger.ofTurn(turnId) === null) await this.#keep(turn, entriesOf);
      this.#keptLast.set(sessionId, { turnId, completedAt });
    }
  }

  /** Keeps the cost of a completed turn that the ledger does not have. */
  async #keep(
    turn: Turn,
    entriesOf: (path: string) => Promise<readonly AssistantEntry[]>,
  ): Promise<void> {
    const { ledger, session, recorded } = this.#deps;
    // Kept once, so worth the wait of a busy machine's late transcript.
    const cost = await this.costOf(turn, entriesOf, keepWaitMs);
    const now = session(turn.sessionId);
    const row: TurnCostRow = {
      turnId: turn.id,
      sessionId: turn.sessionId,
      completedAt: turn.completedAt!,
      costUsd: cost.costUsd,
      source: cost.source,
      models: cost.models,
      labels: now?.labels ?? [],
      createdBy: now?.createdBy ?? null,
    };
    if (await ledger.add(row)) recorded(row);
  }
}
