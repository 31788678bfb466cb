/**
 * Pending permission requests of every session, each with Allow and Deny, the first 50 of them
 * and a button for the next ones. Cards are kept by request id, so a deny message being typed
 * survives updates of the list.
 */
import { elapsed } from './clock.js';
import { button, el, readable } from './dom.js';
import type { HubClient } from './hub-client.js';
import { sessionLabel, type HubState, type Permission } from './hub-state.js';
import { ListLimit } from './list-limit.js';
import { showError, showNotice } from './notice.js';
import { DecidePermissionMutation } from './operations.js';
import { toolSummary } from './tool-text.js';

export function permissionList(
  hub: HubClient,
  state: HubState,
  open: (sessionId: string) => void,
): { element: HTMLUListElement; render(): void } {
  const element = el('ul', { id: 'permissions', class: 'cards' });
  const cards = new Map<string, HTMLLIElement>();
  const empty = el('li', { class: 'empty' }, 'No tool waits for a decision.');
  const limit = new ListLimit(50, () => render());

  async function decide(request: Permission, behavior: 'ALLOW' | 'DENY', message?: string) {
    const { decidePermission } = await hub.request(DecidePermissionMutation, {
      input: { requestId: request.id, behavior, ...(message ? { message } : {}) },
    });
    if (decidePermission.error) showNotice(decidePermission.error.message, 'error');
    if (decidePermission.request) state.putPermission(decidePermission.request);
  }

  function card(request: Permission): HTMLLIElement {
    const denyMessage = el('input', {
      type: 'text',
      class: 'deny-message',
      placeholder: 'reason for the model (optional)',
      'aria-label': 'Deny message',
    });
    const session = el(
      'button',
      { type: 'button', class: 'link' },
      sessionLabel(state.sessions.get(request.sessionId), request.sessionId),
    );
    session.addEventListener('click', () => open(request.sessionId));
    return el(
      'li',
      { class: 'permission', 'data-request-id': request.id, 'data-session-id': request.sessionId },
      el(
        'div',
        {},
        session,
        ' wants ',
        el('strong', {}, request.toolName),
        ' (asked ',
        elapsed(request.requestedAt),
        ' ago)',
      ),
      el('pre', { class: 'tool-input' }, toolSummary(request.toolName, request.toolInput)),
      // A rule that holds the call for a person says which, and what it matched.
      request.explanation ? el('div', { class: 'explanation' }, request.explanation) : null,
      el(
        'details',
        {},
        el('summary', {}, 'full input'),
        el('pre', {}, readable(request.toolInput)),
      ),
      el(
        'div',
        { class: 'actions' },
        button('Allow', () => decide(request, 'ALLOW'), showError, { class: 'allow' }),
        button('Deny', () => decide(request, 'DENY', denyMessage.value.trim()), showError, {
          class: 'deny',
        }),
        denyMessage,
      ),
    );
  }

  function render(): void {
    const { shown, more } = limit.take([...state.permissions.values()]);
    const wanted = new Set(shown.map((request) => request.id));
    for (const [id, existing] of cards) {
      if (!wanted.has(id)) {
        existing.remove();
        cards.delete(id);
      }
    }
    empty.remove();
    let index = 0;
    for (const request of shown) {
      let existing = cards.get(request.id);
      if (!existing) cards.set(request.id, (existing = card(request)));
      // Moving a card that is in place would take the focus from its deny message.
      const current = element.children[index++];
      if (current !== existing) element.insertBefore(existing, current ?? null);
    }
    if (more) element.append(more);
    else element.querySelector(':scope > li.more')?.remove();
    if (cards.size === 0) element.append(empty);
  }

  return { element, render };
}
