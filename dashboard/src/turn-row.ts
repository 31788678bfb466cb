/**
 * A completed turn's summary row: its number, how it ended and how long it took, the tokens it
 * used and what it cost (claude's own figure, or its tokens at the price table's prices), the line that continues its conversation in a
 * terminal, and the switch that shows the files it changed.
 */
import type { DashboardTurnsSubscription } from '../../src/gql/graphql.js';
import { duration, timeOfDay } from './clock.js';
import { el, fill } from './dom.js';

export type Turn = DashboardTurnsSubscription['turns'];

/** The fields of `Turn.usage`, in the order shown, with the words shown for them. */
const usageFields = [
  ['input_tokens', 'input'],
  ['output_tokens', 'output'],
  ['cache_read_input_tokens', 'cache read'],
  ['cache_creation_input_tokens', 'cache write'],
] as const;

const tokens = new Intl.NumberFormat();
/** A cost in US dollars as the dashboard shows every one: `$0.0123`. */
export const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 4,
});

/** Where a turn's cost comes from, in words: the cost's tooltip. */
const costSources = {
  CLAUDE: "claude's own figure",
  PRICE_TABLE: "its tokens at the price table's prices",
  UNKNOWN: 'unknown: no usage yet, or a model no price table has',
} as const;

function costOf(turn: Turn): HTMLElement {
  const title = `cost: ${costSources[turn.costSource]}`;
  return turn.costUsd === null
    ? el('span', { 'data-cost-source': turn.costSource, class: 'unpriced', title }, 'cost unknown')
    : el(
        'span',
        { 'data-cost': '', 'data-cost-source': turn.costSource, title },
        dollars.format(turn.costUsd),
      );
}

function usageOf(turn: Turn): HTMLElement {
  const usage = typeof turn.usage === 'object' && turn.usage !== null ? turn.usage : {};
  const counts = usageFields.flatMap(([field, label]) => {
    const count = (usage as Record<string, unknown>)[field];
    return typeof count === 'number'
      ? [el('span', { 'data-usage': field }, `${label} ${tokens.format(count)}`)]
      : [];
  });
  const cost = costOf(turn);
  return counts.length > 0
    ? el('p', { class: 'usage' }, 'tokens:', ...counts, cost)
    : el('p', { class: 'usage' }, 'no token usage recorded', cost);
}

/**
 * Fills the row with the turn; a turn delivered again replaces what it showed. `changes` is the
 * row's own switch for the files the turn changed, the same element at every rendering, so an
 * open one stays open.
 */
export function renderTurn(
  row: HTMLLIElement,
  turn: Turn,
  changes: HTMLElement | null = null,
): void {
  const at = turn.completedAt ?? '';
  const status = turn.status.toLowerCase();
  Object.assign(row.dataset, { turnId: turn.id, status: turn.status });
  row.className = `event turn turn-${status}`;
  fill(
    row,
    el('span', { class: 'seq' }),
    el('time', { class: 'at', datetime: at }, at ? timeOfDay(at) : ''),
    el('span', { class: 'label' }, `turn ${turn.number} ${status}`),
    el(
      'div',
      { class: 'body' },
      el(
        'span',
        { class: 'outcome' },
        turn.durationMs === null ? status : `${status} in ${duration(turn.durationMs)}`,
      ),
      turn.error ? el('pre', { class: 'error' }, turn.error) : null,
      usageOf(turn),
      el(
        'code',
        { class: 'resume', title: 'Paste into a terminal, in the session folder, to go on' },
        turn.resume,
      ),
      changes,
    ),
  );
}
