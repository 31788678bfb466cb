import type Database from 'better-sqlite3';
import type { UsageLedger } from './usage-ledger.js';

/** What a budget limits: one session's spending, or that of every session with a label or token. */
export const BudgetScope = { Session: 'SESSION', Label: 'LABEL', Token: 'TOKEN' } as const;
export type BudgetScope = (typeof BudgetScope)[keyof typeof BudgetScope];

/** A budget of a label or a token, set through the API or with --budget. */
export interface Budget {
  readonly scope: BudgetScope;
  /** The label, or the token's name. */
  readonly key: string;
  readonly usd: number;
  readonly updatedAt: number;
}

/** The budget a session reached: what it is, and what was spent when it was reached. */
export interface BudgetHold {
  readonly scope: BudgetScope;
  /** The session id, the label or the token's name. */
  readonly key: string;
  readonly usd: number;
  readonly spentUsd: number;
  readonly at: number;
}

/** What a budget check needs of a session. */
export interface BudgetedSession {
  readonly id: string;
  readonly labels: readonly string[];
  readonly createdBy: string | null;
  readonly budgetUsd: number | null;
}

/** The bounds of a budget's amount, which --budget checks too. */
export { budgetProblem, maxBudgetUsd } from '../config/index.js';

interface Row {
  scope: BudgetScope;
  key: string;
  usd: number;
  updated_at: number;
}

/**
 * The budgets of labels and tokens (table budgets), and the check that finds the first budget a
 * session has reached: its own, then each of its labels', then its token's. Spending is what the
 * ledger keeps: completed turns, within retention.
 */
export class BudgetBook {
  readonly #ledger: Pick<UsageLedger, 'sessionCost' | 'labelCost' | 'tokenCost'>;
  readonly #all: Database.Statement;
  readonly #set: Database.Statement;
  readonly #delete: Database.Statement;
  readonly #byKey = new Map<string, Budget>();

  constructor(
    db: Database.Database,
    ledger: Pick<UsageLedger, 'sessionCost' | 'labelCost' | 'tokenCost'>,
  ) {
    this.#ledger = ledger;
    this.#all = db.prepare('SELECT scope, key, usd, updated_at FROM budgets');
    this.#set = db.prepare(
      'INSERT INTO budgets (scope, key, usd, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(scope, key) DO UPDATE SET usd = excluded.usd, updated_at = excluded.updated_at',
    );
    this.#delete = db.prepare('DELETE FROM budgets WHERE scope = ? AND key = ?');
    for (const row of this.#all.all() as Row[]) {
      this.#byKey.set(`${row.scope} ${row.key}`, {
        scope: row.scope,
        key: row.key,
        usd: row.usd,
        updatedAt: row.updated_at,
      });
    }
  }

  /** Every label and token budget, by scope then key. */
  list(): Budget[] {
    return [...this.#byKey.values()].sort(
      (a, b) => a.scope.localeCompare(b.scope) || a.key.localeCompare(b.key),
    );
  }

  get(scope: BudgetScope, key: string): Budget | null {
    return this.#byKey.get(`${scope} ${key}`) ?? null;
  }

  /** Sets a label's or a token's budget (null removes it); the budget now, or null. */
  set(scope: 'LABEL' | 'TOKEN', key: string, usd: number | null, now: number): Budget | null {
    if (usd === null) {
      this.#delete.run(scope, key);
      this.#byKey.delete(`${scope} ${key}`);
      return null;
    }
    this.#set.run(scope, key, usd, now);
    const budget = { scope, key, usd, updatedAt: now };
    this.#byKey.set(`${scope} ${key}`, budget);
    return budget;
  }

  /** Whether any budget concerns the session: its own, one of its labels', its token's. */
  concerns(session: BudgetedSession): boolean {
    return (
      session.budgetUsd !== null ||
      session.labels.some((label) => this.get('LABEL', label) !== null) ||
      (session.createdBy !== null && this.get('TOKEN', session.createdBy) !== null)
    );
  }

  /** The first budget the session has reached, or null while it is under every one. */
  reached(session: BudgetedSession, now: number): BudgetHold | null {
    const over = (scope: BudgetScope, key: string, usd: number, spent: number | null) =>
      spent !== null && spent >= usd ? { scope, key, usd, spentUsd: spent, at: now } : null;
    if (session.budgetUsd !== null) {
      const hold = over(
        'SESSION',
        session.id,
        session.budgetUsd,
        this.#ledger.sessionCost(session.id),
      );
      if (hold) return hold;
    }
    for (const label of session.labels) {
      const budget = this.get('LABEL', label);
      const hold = budget && over('LABEL', label, budget.usd, this.#ledger.labelCost(label));
      if (hold) return hold;
    }
    const token = session.createdBy === null ? null : this.get('TOKEN', session.createdBy);
    return token && over('TOKEN', token.key, token.usd, this.#ledger.tokenCost(token.key));
  }
}
