/**
 * Every session with its status, folder, attach command (an EXTERNAL session's pane; none,
 * headless) and how long it has been waiting, with a button to its pane.
 */
import { elapsed } from './clock.js';
import { el } from './dom.js';
import type { HubClient } from './hub-client.js';
import { sessionLabel, type HubState, type Session } from './hub-state.js';
import { KeyedRows } from './keyed-rows.js';
import type { ListLimit } from './list-limit.js';
import { goToPaneButton, originBadge, paneText } from './session-terminal.js';

/** How long the session has waited (from the attention queue), else when it last did something. */
function waited(session: Session, state: HubState): (Node | string)[] {
  const item = state.attentionOf(session.id);
  if (item) return [`${item.reason.toLowerCase()} for `, elapsed(item.since)];
  if (session.lastEventAt) return ['last event ', elapsed(session.lastEventAt), ' ago'];
  return ['created ', elapsed(session.createdAt), ' ago'];
}

/** How a person reaches the session's terminal, if it has one. */
function terminalOf(session: Session): HTMLElement {
  if (session.origin === 'EXTERNAL') return el('span', { class: 'pane' }, paneText(session));
  return session.attachCommand
    ? el('code', { class: 'attach' }, session.attachCommand)
    : el('span', { class: 'runtime' }, 'headless: no terminal');
}

function sessionRow(
  hub: HubClient,
  state: HubState,
  session: Session,
  selected: boolean,
  open: (sessionId: string) => void,
): HTMLElement {
  const row = el(
    'li',
    {
      class: `session status-${session.status}`,
      'data-session-id': session.id,
      'aria-current': selected ? 'true' : undefined,
    },
    el(
      'div',
      {},
      el('button', { type: 'button', class: 'link' }, sessionLabel(session)),
      ' ',
      el('span', { class: `badge status-${session.status}` }, session.status),
      ' ',
      originBadge(session),
      session.origin === 'EXTERNAL' ? ' ' : null,
      el('span', { class: 'waited' }, ...waited(session, state)),
    ),
    el('div', { class: 'cwd' }, session.cwd),
    el('div', { class: 'terminal' }, terminalOf(session), goToPaneButton(hub, state, session)),
  );
  row.querySelector('button.link')?.addEventListener('click', () => open(session.id));
  return row;
}

/**
 * Whether the session matches every word of `filter`, case aside, in its name, id, folder,
 * status or origin.
 */
export function matchesFilter(session: Session, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [session.name ?? '', session.id, session.cwd, session.status, session.origin]
    .join(' ')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Where the session list is drawn: its element, how many rows it shows, and the filter's text. */
export interface SessionListView {
  readonly list: HTMLElement;
  readonly limit: ListLimit;
  readonly filter: string;
}

/**
 * Draws the sessions that match the filter, newest first, up to the view's limit; returns how
 * many match. A row is made again only when its session, its place in the attention queue or
 * whether it is open changed: with a thousand sessions, a change redraws one.
 */
export function renderSessions(
  view: SessionListView,
  hub: HubClient,
  state: HubState,
  selected: string | null,
  open: (sessionId: string) => void,
): number {
  const rows = KeyedRows.of(view.list);
  const matching = [...state.sessions.values()]
    .reverse()
    .filter((session) => matchesFilter(session, view.filter));
  const { shown, more } = view.limit.take(matching);
  const drawn = shown.map((session) => {
    const isSelected = session.id === selected;
    return rows.row(session.id, [session, state.attentionOf(session.id), isSelected], () =>
      sessionRow(hub, state, session, isSelected, open),
    );
  });
  if (more) drawn.push(more);
  if (matching.length === 0) {
    const empty = state.sessions.size === 0 ? 'No sessions yet.' : 'No session matches.';
    drawn.push(el('li', { class: 'empty' }, empty));
  }
  rows.place(view.list, drawn);
  return matching.length;
}
