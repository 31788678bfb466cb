import type { Clock } from '../clock.js';
import type { BudgetBook, BudgetHold } from '../costs/budgets.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import type { SessionRecord } from './session.js';
import type { SessionManager } from './session-manager.js';

export interface BudgetHoldsDeps {
  readonly sessions: Pick<SessionManager, 'get' | 'list' | 'amend' | 'appendHubEvent'>;
  readonly budgets: Pick<BudgetBook, 'reached' | 'get' | 'concerns'>;
  /** Keeps the session's completed turns' costs; resolves once the latest are kept. */
  readonly settle: (sessionId: string) => Promise<void>;
  /** Whether a turn may have completed at an event. */
  readonly mayEndTurn: (event: StoredEvent) => boolean;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * Holds a session whose spending reached a budget. When a turn of a session some budget
 * concerns may have ended, its queued messages are held back until that turn's cost is kept and
 * checked (a message queued during the turn cannot slip past the line); a turn that crosses the
 * line is finished, and the next waits. Holding sets Session.budgetHold (the attention queue
 * shows BUDGET_REACHED); it ends when the budget that held it is raised or removed. Each hold
 * and release is a hub event in the session's stream.
 */
export class BudgetHolds {
  readonly #deps: BudgetHoldsDeps;
  /** Per session whose ended turn is being costed and checked, the latest check. */
  readonly #checking = new Map<string, Promise<void>>();

  constructor(deps: BudgetHoldsDeps) {
    this.#deps = deps;
  }

  /** Whether a budget holds the session's messages back, or may once its last turn is costed. */
  isHeld(id: string): boolean {
    return this.#checking.has(id) || !!this.#deps.sessions.get(id)?.budgetHold;
  }

  /**
   * Hears every stored event (synchronously, before the session's waiters are woken): after one
   * that may end a turn of a session a budget concerns, holds its messages until the turn is
   * costed and checked.
   */
  heard(event: StoredEvent): void {
    const { sessions, budgets, mayEndTurn, log } = this.#deps;
    if (!mayEndTurn(event)) return;
    const record = sessions.get(event.sessionId);
    if (!record || record.budgetHold || !budgets.concerns(record)) return;
    // A settling that begins after this event: one already running may not have seen it.
    const check = this.#deps
      .settle(record.id)
      .then(() => this.#check(record.id))
      .catch((error: unknown) =>
        log.warn({ err: error, sessionId: record.id }, 'a budget could not be checked'),
      )
      .finally(() => {
        if (this.#checking.get(record.id) !== check) return;
        this.#checking.delete(record.id);
        // Wakes the queue, held or not.
        if (sessions.get(record.id)) sessions.amend(record.id, () => undefined);
      });
    this.#checking.set(record.id, check);
  }

  /** After a budget changed: releases the sessions no budget holds any more, holds new ones. */
  async budgetsChanged(): Promise<void> {
    for (const record of this.#deps.sessions.list()) {
      const hold = this.#deps.budgets.reached(record, this.#deps.clock.now());
      if (hold && !record.budgetHold) await this.#hold(record, hold);
      else if (!hold && record.budgetHold) await this.#release(record, record.budgetHold);
    }
  }

  async #check(sessionId: string): Promise<void> {
    const record = this.#deps.sessions.get(sessionId);
    if (!record || record.budgetHold) return;
    const hold = this.#deps.budgets.reached(record, this.#deps.clock.now());
    if (hold) await this.#hold(record, hold);
  }

  async #hold(record: SessionRecord, hold: BudgetHold): Promise<void> {
    this.#deps.sessions.amend(record.id, (held) => (held.budgetHold = hold));
    this.#deps.log.info(
      { sessionId: record.id, budget: hold },
      'session held: it reached a budget',
    );
    await this.#deps.sessions.appendHubEvent(record.id, 'HubBudgetReached', {
      scope: hold.scope,
      key: hold.key,
      usd: hold.usd,
      spent_usd: hold.spentUsd,
    });
  }

  async #release(record: SessionRecord, was: BudgetHold): Promise<void> {
    // The event first: a message the release lets through comes after it in the stream.
    await this.#deps.sessions.appendHubEvent(record.id, 'HubBudgetRaised', {
      scope: was.scope,
      key: was.key,
      usd:
        was.scope === 'SESSION'
          ? record.budgetUsd
          : (this.#deps.budgets.get(was.scope, was.key)?.usd ?? null),
    });
    this.#deps.sessions.amend(record.id, (released) => (released.budgetHold = null));
    this.#deps.log.info(
      { sessionId: record.id, budget: was },
      'session released: its budget was raised',
    );
  }
}
