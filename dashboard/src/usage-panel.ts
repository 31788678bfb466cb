/**
 * The Usage panel: the tokens and cost of the turns completed over the last day, 7 or 30 days
 * (Query.usage), by label, token, model or day, the costliest first. A usage has no
 * subscription, so it is read again every few seconds, soon after a turn of the open session
 * completes, and when the group or the period changes.
 */
import './usage.css';
import type { DashboardUsageQuery, UsageGroup } from '../../src/gql/graphql.js';
import { button, el, fill } from './dom.js';
import { HubError, type HubClient } from './hub-client.js';
import { UsageQuery } from './panel-operations.js';
import { dollars } from './turn-row.js';

type Total = DashboardUsageQuery['usage'][number];

const groups = [
  { group: 'LABEL', label: 'by label' },
  { group: 'TOKEN', label: 'by token' },
  { group: 'MODEL', label: 'by model' },
  { group: 'DAY', label: 'by day' },
] as const satisfies readonly { group: UsageGroup; label: string }[];

/** The periods offered, in days; the last 30 days (the API's default) at first. */
const periods = [
  { days: 1, label: 'last day' },
  { days: 7, label: 'last 7 days' },
  { days: 30, label: 'last 30 days' },
] as const;

/** What a row stands for when its key is null. */
const noKey: Partial<Record<UsageGroup, string>> = { LABEL: '(no label)', TOKEN: '(no token)' };

const dayMs = 86_400_000;
/** How often the totals are read again while the page is open. */
const pollMs = 15_000;
/** How long after a turn completes its cost is read: the hub keeps it just after. */
const afterTurnMs = 1000;

const tokens = new Intl.NumberFormat();
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function row(total: Total, group: UsageGroup): HTMLLIElement {
  const key = total.key ?? noKey[group] ?? '(none)';
  return el(
    'li',
    { class: 'usage-total', 'data-key': total.key ?? '' },
    el(
      'div',
      { class: 'usage-head' },
      el('strong', { class: 'usage-key' }, key),
      el('span', { class: 'usage-cost', 'data-cost': '' }, dollars.format(total.costUsd)),
    ),
    el(
      'div',
      { class: 'usage-detail' },
      el('span', { class: 'usage-turns' }, plural(total.turns, 'turn')),
      ` · in ${tokens.format(total.inputTokens)} · out ${tokens.format(total.outputTokens)}`,
      ` · cache read ${tokens.format(total.cacheReadTokens)}`,
      ` · cache write ${tokens.format(total.cacheWriteTokens)}`,
      total.unpricedTurns > 0
        ? el(
            'span',
            {
              class: 'unpriced',
              title: 'Left out of the cost: no usage yet, or a model no price table has',
            },
            ` · ${total.unpricedTurns} unpriced`,
          )
        : null,
    ),
  );
}

export function usagePanel(hub: HubClient): { element: HTMLElement; refresh(): void } {
  const group = el(
    'select',
    { id: 'usage-group', 'aria-label': 'Group by' },
    ...groups.map(({ group: value, label }) => el('option', { value }, label)),
  );
  const since = el(
    'select',
    { id: 'usage-since', 'aria-label': 'Usage period' },
    ...periods.map(({ days, label }) =>
      el('option', { value: String(days), selected: days === 30 }, label),
    ),
  );
  const list = el(
    'ol',
    { id: 'usage', class: 'cards' },
    el('li', { class: 'empty' }, 'Loading...'),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the next read is due, while one is. */
  let due = Infinity;
  /** Counts the reads begun: only the latest one's answer is shown. */
  let reads = 0;

  /** Reads again in `ms`, unless a read is due sooner. */
  function readIn(ms: number): void {
    if (Date.now() + ms >= due) return;
    clearTimeout(timer);
    due = Date.now() + ms;
    timer = setTimeout(() => void read(), ms);
  }

  async function read(): Promise<void> {
    clearTimeout(timer);
    due = Infinity;
    const mine = ++reads;
    const groupBy = group.value as UsageGroup;
    try {
      const { usage } = await hub.request(UsageQuery, {
        groupBy,
        since: new Date(Date.now() - Number(since.value) * dayMs).toISOString(),
      });
      if (mine !== reads) return;
      fill(list, ...usage.map((total) => row(total, groupBy)));
      if (usage.length === 0) list.append(el('li', { class: 'empty' }, 'No turn completed.'));
    } catch (error) {
      if (mine !== reads) return;
      const forbidden = error instanceof HubError && error.code === 'FORBIDDEN';
      // The header tells of a hub that cannot be reached; the next read tries again.
      if (forbidden)
        fill(list, el('li', { class: 'empty error' }, 'This token may not read the usage.'));
    } finally {
      if (mine === reads) readIn(pollMs);
    }
  }

  group.addEventListener('change', () => void read());
  since.addEventListener('change', () => void read());
  const element = el(
    'div',
    { id: 'usage-panel' },
    el(
      'div',
      { class: 'usage-controls' },
      group,
      since,
      button('Refresh', read, () => {}),
    ),
    list,
  );
  void read();
  return { element, refresh: () => readIn(afterTurnMs) };
}
