import type { AssistantEntry } from '../runs/turn-usage.js';
import { usageKeys } from '../runs/usage.js';
import type { ModelUsage, Prices } from './prices.js';

/** Where a turn's cost comes from. */
export const CostSource = {
  /** claude's own figure: a HEADLESS session's `result` line. */
  Claude: 'CLAUDE',
  /** The turn's tokens per model, from its transcript, at the price table's prices. */
  PriceTable: 'PRICE_TABLE',
  /** Neither: no transcript usage, or a model the price table lacks. */
  Unknown: 'UNKNOWN',
} as const;
export type CostSource = (typeof CostSource)[keyof typeof CostSource];

/** A model's share of a turn: its tokens, and what they cost (null: unknown). */
export interface ModelCost extends ModelUsage {
  readonly costUsd: number | null;
}

/** What a turn cost, and how that is known. */
export interface TurnCost {
  readonly costUsd: number | null;
  readonly source: CostSource;
  readonly models: readonly ModelCost[];
}

const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0);

/**
 * The tokens of the assistant messages between two times, per model. A message written as
 * several entries (one per content block) repeats its usage: each message id counts once. Pure.
 */
export function modelUsages(
  entries: readonly AssistantEntry[],
  fromMs: number,
  toMs: number,
): ModelUsage[] {
  const seen = new Set<string>();
  const byModel = new Map<string, Record<string, number>>();
  for (const { at, id, model, usage } of entries) {
    if (!(at >= fromMs && at <= toMs)) continue;
    if (id !== undefined) {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    const name = model ?? 'unknown';
    const sum = byModel.get(name) ?? { cache_creation_1h_input_tokens: 0 };
    for (const key of usageKeys) sum[key] = (sum[key] ?? 0) + count(usage[key]);
    const creation = usage.cache_creation as Record<string, unknown> | undefined;
    sum.cache_creation_1h_input_tokens! += count(creation?.ephemeral_1h_input_tokens);
    byModel.set(name, sum);
  }
  return [...byModel].map(([model, sum]) => ({ model, ...sum }) as unknown as ModelUsage);
}

/**
 * A turn's cost: claude's own figure when it gave one (`reported`), else its tokens at the
 * price table's prices. Each model's share is its tokens at the table's prices, scaled to
 * claude's figure when there is one (all of it to the one model when the table prices none).
 * Pure.
 */
export function turnCost(
  usages: readonly ModelUsage[],
  reported: number | null,
  prices: Pick<Prices, 'cost'>,
): TurnCost {
  const listed = usages.map((usage) => ({ usage, cost: prices.cost([usage]) }));
  const tableTotal = listed.every(({ cost }) => cost !== null)
    ? listed.reduce((sum, { cost }) => sum + cost!, 0)
    : null;
  if (reported === null) {
    const models = listed.map(({ usage, cost }) => ({ ...usage, costUsd: cost }));
    const known = tableTotal !== null && usages.length > 0;
    return {
      costUsd: known ? tableTotal : null,
      source: known ? CostSource.PriceTable : CostSource.Unknown,
      models,
    };
  }
  const models = listed.map(({ usage, cost }) => {
    let share: number | null = null;
    if (tableTotal !== null && tableTotal > 0) share = (reported * cost!) / tableTotal;
    else if (listed.length === 1) share = reported;
    return { ...usage, costUsd: share };
  });
  return { costUsd: reported, source: CostSource.Claude, models };
}
