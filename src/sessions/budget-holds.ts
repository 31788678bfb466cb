import type { Clock } from '../clock.js';
import type { BudgetBook, BudgetHold } from '../costs/budgets.js';
import type { Logger } from '../log.js';
import type { SessionRecord } from './session.js';
import type { SessionManager } from './session-manager.js';

/**
 * Holds a session whose spending reached a budget: checked each time one of its turns is kept
 * (so a turn that crosses the line is finished, and the next waits), released when the budget
 * that held it is raised or removed. Holding sets Session.budgetHold: the message queue waits
 * on it, and the attention queue shows BUDGET_REACHED; each hold and release is a hub event in
 * the session's stream.
 */
export class BudgetHolds {
  readonly #sessions: Pick<SessionManager, 'get' | 'list' | 'amend' | 'appendHubEvent'>;
  readonly #budgets: Pick<BudgetBook, 'reached' | 'get'>;
  readonly #clock: Clock;
  readonly #log: Logger;

  constructor(deps: {
    sessions: Pick<SessionManager, 'get' | 'list' | 'amend' | 'appendHubEvent'>;
    budgets: Pick<BudgetBook, 'reached' | 'get'>;
    clock: Clock;
    log: Logger;
  }) {
    this.#sessions = deps.sessions;
    this.#budgets = deps.budgets;
    this.#clock = deps.clock;
    this.#log = deps.log;
  }

  /** After one of the session's turns was kept: holds it when it reached a budget. */
  async turnKept(sessionId: string): Promise<void> {
    const record = this.#sessions.get(sessionId);
    if (!record || record.budgetHold) return;
    const hold = this.#budgets.reached(record, this.#clock.now());
    if (hold) await this.#hold(record, hold);
  }

  /** After a budget changed: releases the sessions no budget holds any more, holds new ones. */
  async budgetsChanged(): Promise<void> {
    for (const record of this.#sessions.list()) {
      const hold = this.#budgets.reached(record, this.#clock.now());
      if (hold && !record.budgetHold) await this.#hold(record, hold);
      else if (!hold && record.budgetHold) await this.#release(record, record.budgetHold);
    }
  }

  async #hold(record: SessionRecord, hold: BudgetHold): Promise<void> {
    this.#sessions.amend(record.id, (held) => (held.budgetHold = hold));
    this.#log.info({ sessionId: record.id, budget: hold }, 'session held: it reached a budget');
    await this.#sessions.appendHubEvent(record.id, 'HubBudgetReached', {
      scope: hold.scope,
      key: hold.key,
      usd: hold.usd,
      spent_usd: hold.spentUsd,
    });
  }

  async #release(record: SessionRecord, was: BudgetHold): Promise<void> {
    // The event first: a message the release lets through comes after it in the stream.
    await this.#sessions.appendHubEvent(record.id, 'HubBudgetRaised', {
      scope: was.scope,
      key: was.key,
      usd: this.#raisedTo(record, was),
    });
    this.#sessions.amend(record.id, (released) => (released.budgetHold = null));
    this.#log.info(
      { sessionId: record.id, budget: was },
      'session released: its budget was raised',
    );
  }

  /** What the budget that held a session is now; null when it was removed. */
  #raisedTo(record: SessionRecord, was: BudgetHold): number | null {
    return was.scope === 'SESSION'
      ? record.budgetUsd
      : (this.#budgets.get(was.scope, was.key)?.usd ?? null);
  }
}
