/**
 * Calls a person when a session starts to wait for them: the size of the attention queue in the
 * tab's title, and a browser notification for the items the attention subscription raised
 * (when the person allowed notifications with the "Notify me" button).
 */
import { attentionDetail } from './attention-list.js';
import { el } from './dom.js';
import { attentionKey, sessionLabel, type AttentionItem, type HubState } from './hub-state.js';
import { showError, showNotice } from './notice.js';
import { spaced } from './spaced.js';

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

/** Items raised since the last notification, and where the page's state and sessions are. */
let gathered: AttentionItem[] = [];
let page: { state: HubState; open: (sessionId: string) => void } | null = null;

/**
 * A notification for each raised item; but a fleet raises them by the dozen a second, so within
 * 5 s of one notification the next ones wait and go as one: "12 sessions need you", with the
 * first few named (the ones cleared meanwhile left out). One tag per session and reason, so a
 * second request of the same session replaces the first instead of piling up. Clicking one
 * opens the session (a gathered one, the first it names).
 */
export function notifyRaised(
  raised: readonly AttentionItem[],
  state: HubState,
  open: (sessionId: string) => void,
): void {
  if (!notificationsAllowed() || raised.length === 0) return;
  gathered.push(...raised);
  page = { state, open };
  showSoon();
}

const showSoon = spaced(5_000, () => showGathered(page!.state, page!.open));

/** Shows what was gathered and still waits; false when nothing does. */
function showGathered(state: HubState, open: (sessionId: string) => void): boolean {
  const waiting = new Set(state.attention.map(attentionKey));
  const items = gathered.filter((item) => waiting.has(attentionKey(item)));
  gathered = [];
  if (items.length === 0) return false;
  const line = (item: AttentionItem) =>
    `${sessionLabel(state.sessions.get(item.session.id) ?? item.session)} ${reasonText[item.reason]}`;
  const [first] = items as [AttentionItem];
  if (items.length === 1) {
    const body = attentionDetail(first, state);
    notify(line(first), body, `${first.session.id}:${first.reason}`, first.session.id, open);
    return true;
  }
  const named = items.slice(0, 5).map(line);
  if (items.length > named.length) named.push(`and ${items.length - named.length} more`);
  notify(`${items.length} sessions need you`, named.join('\n'), 'gathered', first.session.id, open);
  return true;
}

function notify(
  title: string,
  body: string,
  tag: string,
  sessionId: string,
  open: (sessionId: string) => void,
): void {
  let notification: Notification;
  try {
    notification = new Notification(title, { body, tag });
  } catch {
    // Mobile Chrome only notifies through a service worker: say it on the page instead.
    showNotice(body ? `${title}: ${body}` : title);
    return;
  }
  notification.addEventListener('click', () => {
    window.focus();
    open(sessionId);
    notification.close();
  });
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
