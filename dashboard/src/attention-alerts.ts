/**
 * Calls a person when a session starts to wait for them: the size of the attention queue in the
 * tab's title, and a browser notification for each item the attention subscription raised
 * (when the person allowed notifications with the "Notify me" button).
 */
import { attentionDetail } from './attention-list.js';
import { el } from './dom.js';
import { sessionLabel, type AttentionItem, type HubState } from './hub-state.js';
import { showError, showNotice } from './notice.js';

const appName = 'claude-code-hub';

/** What a notification's title says after the session's name. */
const reasonText: Record<AttentionItem['reason'], string> = {
  PERMISSION: 'asks for permission',
  BLOCKED: 'is blocked',
  DISCONNECTED: 'cannot reach the hub',
  CRASHED: 'crashed',
  BUDGET_REACHED: 'reached its budget',
  IDLE: 'is waiting for you',
};

/** `(2) claude-code-hub` while two sessions wait; the plain name when none does. */
export function showWaitingCount(count: number): void {
  document.title = count > 0 ? `(${count}) ${appName}` : appName;
}

const notificationsAllowed = () =>
  'Notification' in window && Notification.permission === 'granted';

/**
 * A notification for each raised item. One tag per session and reason, so a second request of
 * the same session replaces the first instead of piling up. Clicking one opens the session.
 */
export function notifyRaised(
  raised: readonly AttentionItem[],
  state: HubState,
  open: (sessionId: string) => void,
): void {
  if (!notificationsAllowed()) return;
  for (const item of raised) {
    const id = item.session.id;
    const label = sessionLabel(state.sessions.get(id) ?? item.session);
    const title = `${label} ${reasonText[item.reason]}`;
    const body = attentionDetail(item, state);
    let notification: Notification;
    try {
      notification = new Notification(title, { body, tag: `${id}:${item.reason}` });
    } catch {
      // Mobile Chrome only notifies through a service worker: say it on the page instead.
      showNotice(body ? `${title}: ${body}` : title);
      continue;
    }
    notification.addEventListener('click', () => {
      window.focus();
      open(id);
      notification.close();
    });
  }
}

/**
 * The header's button that asks for permission to notify; absent where the browser has no
 * notifications, hidden once the person granted or denied it (the browser remembers either).
 */
export function notifyMeButton(): HTMLButtonElement {
  const button = el(
    'button',
    { type: 'button', id: 'notify-me', title: 'A browser notification when a session waits' },
    'Notify me',
  );
  const decided = () => !('Notification' in window) || Notification.permission !== 'default';
  button.hidden = decided();
  button.addEventListener('click', async () => {
    try {
      await Notification.requestPermission();
    } catch (error) {
      showError(error);
    }
    button.hidden = decided();
  });
  return button;
}
