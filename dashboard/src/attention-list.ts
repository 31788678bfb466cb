/** The attention queue, in the hub's order: the sessions that need a person, and why. */
import { elapsed } from './clock.js';
import { el } from './dom.js';
import { attentionKey, sessionLabel, type AttentionItem, type HubState } from './hub-state.js';
import { KeyedRows } from './keyed-rows.js';
import type { ListLimit } from './list-limit.js';
import { toolSummary } from './tool-text.js';

/**
 * What the person needs to know first: the tool of a PERMISSION, why it is BLOCKED (the first
 * line of the dialog its turn waits on), the error it CRASHED with, the budget it reached, the
 * last answer of an IDLE one.
 */
export function attentionDetail(item: AttentionItem, state: HubState): string {
  const session = state.sessions.get(item.session.id) ?? item.session;
  switch (item.reason) {
    case 'PERMISSION':
      return item.permissionRequest
        ? `${item.permissionRequest.toolName}: ${toolSummary(item.permissionRequest.toolName, item.permissionRequest.toolInput)}`
        : '';
    case 'BLOCKED':
      return item.dialog?.split('\n')[0] ?? session.blockedReason ?? '';
    case 'DISCONNECTED':
    case 'CRASHED':
      return session.error?.split('\n')[0] ?? '';
    case 'BUDGET_REACHED': {
      const hold = item.session.budgetHold;
      return hold
        ? `${hold.scope.toLowerCase()} ${hold.key}: $${hold.spentUsd.toFixed(4)} of $${hold.usd} spent; its messages wait`
        : '';
    }
    case 'IDLE':
      return item.lastAssistantMessage ?? '';
  }
}

function attentionRow(
  item: AttentionItem,
  state: HubState,
  open: (sessionId: string) => void,
): HTMLElement {
  const row = el(
    'li',
    { class: `attention reason-${item.reason}`, 'data-session-id': item.session.id },
    el(
      'button',
      { type: 'button', class: 'link' },
      sessionLabel(state.sessions.get(item.session.id) ?? item.session),
    ),
    ' ',
    el('span', { class: `badge reason-${item.reason}` }, item.reason),
    ' for ',
    elapsed(item.since),
    el('div', { class: 'detail' }, attentionDetail(item, state)),
  );
  row.querySelector('button')?.addEventListener('click', () => open(item.session.id));
  return row;
}

/**
 * Draws the queue, its first items up to `limit`; an item's row is made again only when it or
 * its session changed.
 */
export function renderAttention(
  list: HTMLElement,
  limit: ListLimit,
  state: HubState,
  open: (sessionId: string) => void,
): void {
  const rows = KeyedRows.of(list);
  const { shown, more } = limit.take(state.attention);
  const drawn: HTMLElement[] = shown.map((item) =>
    rows.row(attentionKey(item), [item, state.sessions.get(item.session.id)], () =>
      attentionRow(item, state, open),
    ),
  );
  if (more) drawn.push(more);
  if (drawn.length === 0) drawn.push(el('li', { class: 'empty' }, 'Nobody waits.'));
  rows.place(list, drawn);
}
