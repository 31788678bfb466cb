/**
 * Where a session's terminal is, for the list and the open session: an "external" badge and the
 * pane of a session a person started by hand, and the button that takes a tmux client there.
 */
import { button, el } from './dom.js';
import type { HubClient } from './hub-client.js';
import { sessionLabel, type HubState, type Session } from './hub-state.js';
import { showError, showNotice } from './notice.js';
import { FocusSessionMutation } from './operations.js';

const ended = (session: Session) => session.status === 'STOPPED' || session.status === 'CRASHED';

/** The badge of a session a person started by hand; null for the hub's own. */
export function originBadge(session: Session): HTMLElement | null {
  return session.origin === 'EXTERNAL'
    ? el('span', { class: 'badge origin-EXTERNAL', title: 'started by hand' }, 'external')
    : null;
}

/** An EXTERNAL session's pane in the person's tmux, as tmux names it (`%3`). */
export function paneText(session: Session): string {
  return session.tmuxPane ? `pane ${session.tmuxPane}` : 'not in tmux';
}

/**
 * Moves the tmux client active last (on the hub's tmux server, or the person's own for an
 * EXTERNAL session) to the session's pane; only for a running session with a terminal.
 */
export function goToPaneButton(
  hub: HubClient,
  state: HubState,
  session: Session,
): HTMLButtonElement | null {
  if (!session.attachCommand) return null;
  return button(
    'Go to pane',
    async () => {
      const { focusSession } = await hub.request(FocusSessionMutation, { id: session.id });
      state.putSession(focusSession);
      showNotice(`The tmux client active last now shows ${sessionLabel(focusSession)}.`);
    },
    showError,
    { class: 'go-to-pane', disabled: ended(session) },
  );
}
