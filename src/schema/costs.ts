import { CostSource, type ModelCost, type TurnCost } from '../costs/turn-cost.js';
import { UsageGroup, type UsageTotal } from '../costs/usage-ledger.js';
import type { ModelPrice, PriceTable } from '../costs/prices.js';
import { ErrorCode, HubError } from '../errors.js';
import type { Turn } from '../runs/run-fold.js';
import { builder } from './builder.js';
import type { HubContext } from './context.js';
import { TurnRef } from './runs.js';
import { SessionRef } from './sessions.js';

const CostSourceRef = builder.enumType('CostSource', {
  description:
    "Where a turn's cost comes from: CLAUDE (claude's own figure, a HEADLESS session's `result` line), PRICE_TABLE (its transcript's tokens per model at the price table's prices: TMUX sessions), UNKNOWN (no usage yet, or a model no price table has).",
  values: Object.values(CostSource),
});

const UsageGroupRef = builder.enumType('UsageGroup', {
  description:
    "How Query.usage groups turns: by SESSION (id), LABEL (a session with two labels counts in both; none: key null), TOKEN (the token that created the session; null: none), MODEL (each model's share of a turn), DAY (UTC, YYYY-MM-DD).",
  values: Object.values(UsageGroup),
});

const ModelUsageRef = builder.objectRef<ModelCost>('ModelUsage').implement({
  description: "One model's tokens in a turn, and what they cost.",
  fields: (t) => ({
    model: t.exposeString('model'),
    inputTokens: t.exposeInt('input_tokens'),
    outputTokens: t.exposeInt('output_tokens'),
    cacheReadTokens: t.exposeInt('cache_read_input_tokens'),
    cacheWriteTokens: t.exposeInt('cache_creation_input_tokens'),
    costUsd: t.exposeFloat('costUsd', { nullable: true }),
  }),
});

const UsageTotalRef = builder.objectRef<UsageTotal>('UsageTotal').implement({
  description: 'The tokens and cost of the completed turns of one group.',
  fields: (t) => ({
    key: t.exposeString('key', {
      nullable: true,
      description: 'The session id, label, token name, model or day; null: no label, or no token.',
    }),
    turns: t.exposeInt('turns'),
    inputTokens: t.exposeFloat('inputTokens'),
    outputTokens: t.exposeFloat('outputTokens'),
    cacheReadTokens: t.exposeFloat('cacheReadTokens'),
    cacheWriteTokens: t.exposeFloat('cacheWriteTokens'),
    costUsd: t.exposeFloat('costUsd', { description: 'The sum of the costs known.' }),
    unpricedTurns: t.exposeInt('unpriced', {
      description: 'Turns (by MODEL: models of turns) whose cost is unknown, left out of costUsd.',
    }),
  }),
});

const ModelPriceRef = builder.objectRef<ModelPrice>('ModelPrice').implement({
  description: 'What a model costs, US dollars per million tokens.',
  fields: (t) => ({
    match: t.exposeString('match', { description: 'A glob over model names.' }),
    input: t.exposeFloat('input'),
    output: t.exposeFloat('output'),
    cacheWrite5m: t.exposeFloat('cacheWrite5m'),
    cacheWrite1h: t.exposeFloat('cacheWrite1h'),
    cacheRead: t.exposeFloat('cacheRead'),
  }),
});

const PriceTableRef = builder.objectRef<PriceTable>('PriceTable').implement({
  fields: (t) => ({
    date: t.exposeString('date', { description: 'The day its prices were taken.' }),
    models: t.field({ type: [ModelPriceRef], resolve: (table) => table.models }),
  }),
});

/** Per request, the turns' costs of each session of another node, asked of it once. */
const remoteCosts = new WeakMap<
  HubContext,
  Map<string, Promise<ReadonlyMap<string, TurnCost>> | null>
>();
function remoteCostsOf(sessionId: string, ctx: HubContext) {
  let sessions = remoteCosts.get(ctx);
  if (!sessions) remoteCosts.set(ctx, (sessions = new Map()));
  if (!sessions.has(sessionId)) {
    const asked = ctx.costs.remoteTurnCosts(sessionId);
    sessions.set(
      sessionId,
      asked && asked.then((turns) => new Map(turns.map(({ turnId, ...cost }) => [turnId, cost]))),
    );
  }
  return sessions.get(sessionId)!;
}

/**
 * A turn's cost: a turn of another node's session as that node says; else kept in the ledger
 * once completed, else worked out (once per turn object).
 */
const costs = new WeakMap<Turn, Promise<TurnCost>>();
async function costOf(turn: Turn, ctx: HubContext): Promise<TurnCost> {
  const remote = await remoteCostsOf(turn.sessionId, ctx);
  const owners = remote?.get(turn.id);
  if (owners) return owners;
  const kept = ctx.costs.ledger.ofTurn(turn.id);
  if (kept)
    return Promise.resolve({ costUsd: kept.costUsd, source: kept.source, models: kept.models });
  let cost = turn.completedAt === null ? undefined : costs.get(turn);
  if (!cost) {
    cost = ctx.costs.recorder.costOf(turn);
    if (turn.completedAt !== null) costs.set(turn, cost);
  }
  return await cost;
}

builder.objectFields(TurnRef, (t) => ({
  costUsd: t.float({
    nullable: true,
    description:
      "What the turn cost in US dollars (so far, while RUNNING): claude's own figure for a HEADLESS session, its tokens per model at the price table's prices for a TMUX one (costSource says which); null when unknown. A turn of a session another node runs is asked of that node.",
    resolve: async (turn, _args, ctx) => (await costOf(turn, ctx)).costUsd,
  }),
  costSource: t.field({
    type: CostSourceRef,
    resolve: async (turn, _args, ctx) => (await costOf(turn, ctx)).source,
  }),
  usageByModel: t.field({
    type: [ModelUsageRef],
    description:
      "The turn's tokens per model, from its transcript, and each model's share of the cost.",
    resolve: async (turn, _args, ctx) => (await costOf(turn, ctx)).models,
  }),
}));

builder.objectField(SessionRef, 'costUsd', (t) =>
  t.float({
    nullable: true,
    description:
      "What the session's completed turns cost in US dollars, as Turn.costUsd says each (turns of unknown cost count as 0); null before its first completed turn. Kept by the node that runs it, which shares it with the other nodes of a cluster as each turn's cost is kept (up to ~10 s after the turn ends).",
    resolve: (record, _args, ctx) => ctx.costs.sessionCost(record.id),
  }),
);

builder.queryField('usage', (t) =>
  t.field({
    type: [UsageTotalRef],
    authScopes: { read: true },
    description:
      'Tokens and cost of the turns completed since `since` (default: the last 30 days), grouped; the costliest group first. In a cluster, every live node is asked at once and the groups of one key are summed: a node whose lease lapsed is left out, and one that does not answer fails the query with NODE_UNREACHABLE naming it.',
    args: {
      since: t.arg({ type: 'DateTime' }),
      groupBy: t.arg({ type: UsageGroupRef, required: true }),
    },
    resolve: (_root, args, ctx) => {
      const since =
        args.since == null ? Date.now() - 30 * 86_400_000 : new Date(args.since as never).getTime();
      if (since > Date.now())
        throw new HubError(ErrorCode.BadInput, 'since must not be in the future', {
          field: 'since',
        });
      return ctx.costs.usage(since, args.groupBy);
    },
  }),
);

builder.queryField('priceTables', (t) =>
  t.field({
    type: [PriceTableRef],
    authScopes: { read: true },
    description:
      "The price tables TMUX turns are costed at, tried in order: a --prices file's, then the one the hub ships.",
    resolve: (_root, _args, ctx) => ctx.costs.prices.tables,
  }),
);
