import {
  budgetProblem,
  BudgetScope,
  maxBudgetUsd,
  type Budget,
  type BudgetHold,
} from '../costs/budgets.js';
import { ErrorCode, HubError } from '../errors.js';
import { checkLabels } from '../sessions/session-labels.js';
import { audited } from './audit.js';
import { builder } from './builder.js';
import type { HubContext } from './context.js';
import { SessionRef } from './sessions.js';

const BudgetScopeRef = builder.enumType('BudgetScope', {
  description:
    "What a budget limits: one SESSION's spending (createSession's budgetUsd), or that of all sessions with a LABEL, or created by a TOKEN (by its name).",
  values: Object.values(BudgetScope),
});

const BudgetRef = builder.objectRef<Budget>('Budget').implement({
  description: "A label's or a token's budget.",
  fields: (t) => ({
    scope: t.field({ type: BudgetScopeRef, resolve: (budget) => budget.scope }),
    key: t.exposeString('key', { description: 'The label, or the token name.' }),
    usd: t.exposeFloat('usd'),
    spentUsd: t.float({
      description: 'What the kept turns of its sessions cost.',
      resolve: (budget, _args, ctx) =>
        budget.scope === 'LABEL'
          ? ctx.costs.ledger.labelCost(budget.key)
          : ctx.costs.ledger.tokenCost(budget.key),
    }),
    updatedAt: t.field({ type: 'DateTime', resolve: (budget) => budget.updatedAt }),
  }),
});

const BudgetHoldRef = builder.objectRef<BudgetHold>('BudgetHold').implement({
  description: 'The budget a session reached: its queued messages wait until it is raised.',
  fields: (t) => ({
    scope: t.field({ type: BudgetScopeRef, resolve: (hold) => hold.scope }),
    key: t.exposeString('key', { description: 'The session id, the label or the token name.' }),
    usd: t.exposeFloat('usd'),
    spentUsd: t.exposeFloat('spentUsd', { description: 'What was spent when it was reached.' }),
    at: t.field({ type: 'DateTime', resolve: (hold) => hold.at }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  budgetUsd: t.exposeFloat('budgetUsd', {
    nullable: true,
    description: 'Its own budget, in US dollars; null: none.',
  }),
  budgetHold: t.field({
    type: BudgetHoldRef,
    nullable: true,
    description:
      "The budget it reached after a turn (its own, a label's or its token's): its queued messages wait, and the attention queue shows BUDGET_REACHED, until raiseBudget or setBudget lifts it. Null while under every budget.",
    resolve: (record) => record.budgetHold,
  }),
}));

builder.queryField('budgets', (t) =>
  t.field({
    type: [BudgetRef],
    authScopes: { read: true },
    description: 'The budgets of labels and tokens, with what each has spent.',
    resolve: (_root, _args, ctx) => ctx.costs.budgets.list(),
  }),
);

/** A budget's amount checked: null removes it. */
function checkUsd(usd: number | null | undefined): number | null {
  if (usd == null) return null;
  const problem = budgetProblem(usd);
  if (problem) throw new HubError(ErrorCode.BadInput, `usd ${problem}`, { field: 'usd' });
  return usd;
}

/** Sets a budget, then holds or releases every session it concerns. */
async function setBudget(
  ctx: HubContext,
  scope: BudgetScope,
  key: string,
  usd: number | null,
): Promise<void> {
  if (scope === BudgetScope.Session) {
    ctx.hub.require(key);
    await ctx.costs.sessions.amend(key, (record) => (record.budgetUsd = usd));
  } else {
    if (scope === BudgetScope.Label) checkLabels([key]);
    else if (key === '' || key.length > 100)
      throw new HubError(ErrorCode.BadInput, 'key must be a token name of 1 to 100 characters', {
        field: 'key',
      });
    ctx.costs.budgets.set(scope, key, usd, Date.now());
  }
  await ctx.costs.holds.budgetsChanged();
}

builder.mutationFields((t) => ({
  setBudget: t.boolean({
    authScopes: { admin: true },
    description: `Sets the budget of a SESSION (key: its id), a LABEL or a TOKEN (key: its name), in US dollars: more than 0, at most ${maxBudgetUsd}; null removes it. Sessions it holds are released (HubBudgetRaised) once under every budget; sessions over it are held (HubBudgetReached). Audited.`,
    args: {
      scope: t.arg({ type: BudgetScopeRef, required: true }),
      key: t.arg.string({ required: true }),
      usd: t.arg.float(),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'setBudget',
        {
          sessionId: args.scope === BudgetScope.Session ? args.key : null,
          detail: { scope: args.scope, key: args.key, usd: args.usd ?? null },
        },
        async () => {
          await setBudget(ctx, args.scope, args.key, checkUsd(args.usd));
          return true;
        },
      ),
  }),
  raiseBudget: t.field({
    type: SessionRef,
    authScopes: { admin: true },
    description:
      "Raises the budget that holds the session (its own, its label's or its token's) to usd, or removes it with null: the session goes on with its queued messages once under every budget. BAD_USER_INPUT when no budget holds it, or usd is not above what was spent. Audited.",
    args: { sessionId: t.arg.id({ required: true }), usd: t.arg.float() },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'raiseBudget',
        { sessionId: String(args.sessionId), detail: { usd: args.usd ?? null } },
        async () => {
          const record = ctx.hub.require(String(args.sessionId));
          const hold = record.budgetHold;
          if (!hold)
            throw new HubError(ErrorCode.BadInput, `no budget holds session ${record.id}`, {
              sessionId: record.id,
            });
          const usd = checkUsd(args.usd);
          if (usd !== null && usd <= hold.spentUsd) {
            throw new HubError(
              ErrorCode.BadInput,
              `usd must be above the ${hold.spentUsd} US dollars spent, got ${usd}`,
              { field: 'usd' },
            );
          }
          await setBudget(ctx, hold.scope, hold.key, usd);
          return ctx.hub.require(record.id);
        },
      ),
  }),
}));
