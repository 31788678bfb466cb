/** The most a budget may be, in US dollars. */
export const maxBudgetUsd = 1_000_000;

/** Why a budget's amount is refused, or null. Pure. */
export function budgetProblem(usd: number): string | null {
  if (!Number.isFinite(usd) || usd <= 0 || usd > maxBudgetUsd)
    return `must be more than 0 and at most ${maxBudgetUsd} US dollars, got ${usd}`;
  return null;
}

/**
 * What a session label is (checkLabels), and a --budget label key: letters, digits and `._:/=-`,
 * 1 to 64 of them: enough for `team:infra`, `ticket=ABC-12` or `repo/app`, and a label that
 * reads the same in a URL, a shell word and a policy rule.
 */
export const labelPattern = /^[A-Za-z0-9._:/=-]{1,64}$/;

/** The longest token name a budget is set for, as setBudget takes it. */
const maxTokenKey = 100;

/** A label's or a token's budget given with `--budget SCOPE:KEY=USD`. */
export interface ConfiguredBudget {
  readonly scope: 'LABEL' | 'TOKEN';
  /** The label, or the token's name. */
  readonly key: string;
  readonly usd: number;
}

/**
 * One `SCOPE:KEY=USD` (SCOPE `label` or `token`, any case; the amount after the last `=`, so a
 * label may hold `=` and `:`), or an Error naming `source` and the whole value. Pure.
 */
export function parseBudget(raw: string, source: string): ConfiguredBudget {
  const bad = (what: string) => new Error(`${source} ${what}, got ${JSON.stringify(raw)}`);
  const colon = raw.indexOf(':');
  const equals = raw.lastIndexOf('=');
  if (colon < 0 || equals < colon) throw bad('must be SCOPE:KEY=USD, SCOPE label or token');
  const scope = raw.slice(0, colon).toUpperCase();
  if (scope !== 'LABEL' && scope !== 'TOKEN')
    throw bad("scope must be label or token (a session's own budget is createSession's budgetUsd)");
  const key = raw.slice(colon + 1, equals);
  if (key === '') throw bad('key must not be empty');
  if (scope === 'LABEL' && !labelPattern.test(key))
    throw bad('label must be 1 to 64 letters, digits or any of . _ : / = -');
  if (scope === 'TOKEN' && (key.length > maxTokenKey || /\s/.test(key)))
    throw bad(`token name must be 1 to ${maxTokenKey} characters without spaces`);
  const amount = raw.slice(equals + 1);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(amount)) throw bad('amount must be a number of US dollars');
  const usd = Number(amount);
  const problem = budgetProblem(usd);
  if (problem) throw bad(`amount ${problem.replace(/, got .*$/, '')}`);
  return { scope, key, usd };
}

/** A list of budgets, refused when it sets one scope and key twice. */
export function checkBudgets(
  budgets: readonly ConfiguredBudget[],
  source: string,
): readonly ConfiguredBudget[] {
  const seen = new Set<string>();
  for (const { scope, key } of budgets) {
    const name = `${scope.toLowerCase()}:${key}`;
    if (seen.has(name)) throw new Error(`${source} sets the budget of ${name} twice`);
    seen.add(name);
  }
  return budgets;
}
