/** Every session with its status, folder, attach command (or none, headless) and how long it has been waiting. */
import { elapsed } from './clock.js';
import { el } from './dom.js';
import { sessionLabel, type HubState, type Session } from './hub-state.js';

/** How long the session has waited (from the attention queue), else when it last did something. */
function waited(session: Session, state: HubState): (Node | string)[] {
  const item = state.attentionOf(session.id);
  if (item) return [`${item.reason.toLowerCase()} for `, elapsed(item.since)];
  if (session.lastEventAt) return ['last event ', elapsed(session.lastEventAt), ' ago'];
  return ['created ', elapsed(session.createdAt), ' ago'];
}

export function renderSessions(
  list: HTMLElement,
  state: HubState,
  selected: string | null,
  open: (sessionId: string) => void,
): void {
  list.replaceChildren(
    ...[...state.sessions.values()].reverse().map((session) => {
      const row = el(
        'li',
        {
          class: `session status-${session.status}`,
          'data-session-id': session.id,
          'aria-current': session.id === selected ? 'true' : undefined,
        },
        el(
          'div',
          {},
          el('button', { type: 'button', class: 'link' }, sessionLabel(session)),
          ' ',
          el('span', { class: `badge status-${session.status}` }, session.status),
          ' ',
          el('span', { class: 'waited' }, ...waited(session, state)),
        ),
        el('div', { class: 'cwd' }, session.cwd),
        session.attachCommand
          ? el('code', { class: 'attach' }, session.attachCommand)
          : el('span', { class: 'runtime' }, 'headless: no terminal'),
      );
      row.querySelector('button')?.addEventListener('click', () => open(session.id));
      return row;
    }),
  );
  if (state.sessions.size === 0) list.append(el('li', { class: 'empty' }, 'No sessions yet.'));
}
