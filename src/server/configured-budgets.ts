import type { ConfiguredBudget } from '../config/index.js';
import type { BudgetBook } from '../costs/budgets.js';
import type { Logger } from '../log.js';

/**
 * Sets the --budget budgets in the book, over what the API stored for the same scope and key (a
 * budget already at its configured amount is left as it is, its updatedAt too). Budgets the
 * config does not name are kept. Returns how many changed: the sessions are checked against them
 * again once they are re-adopted.
 */
export function setConfiguredBudgets(
  book: Pick<BudgetBook, 'get' | 'set'>,
  budgets: readonly ConfiguredBudget[],
  now: number,
  log: Logger,
): number {
  let changed = 0;
  for (const { scope, key, usd } of budgets) {
    const before = book.get(scope, key);
    if (before?.usd === usd) continue;
    book.set(scope, key, usd, now);
    changed++;
    log.info({ scope, key, usd, was: before?.usd ?? null }, 'budget set by --budget');
  }
  return changed;
}
