/**
 * The dashboard: the attention queue, pending permissions, every session, the open channels, the
 * global hooks, the permission rules and the usage (tokens and cost) on the left, the open session on the right. Lists are
 * loaded once over HTTP and then kept current by the sessionUpdates and permissionRequests
 * subscriptions (the channels, which have none, are read again every few seconds); after a
 * reconnect they are loaded again. The attention queue and the rules come whole from their own
 * subscriptions, which graphql-ws starts again after a reconnect; what the queue raises becomes
 * a browser notification.
 */
import './style.css';
import { notifyMeButton, notifyRaised, showWaitingCount } from './attention-alerts.js';
import { renderAttention } from './attention-list.js';
import { channelsPanel } from './channels-panel.js';
import { startClock } from './clock.js';
import { el } from './dom.js';
import { HubClient } from './hub-client.js';
import { HubState } from './hub-state.js';
import { ListLimit } from './list-limit.js';
import { hooksPanel } from './hooks-panel.js';
import { noticeElement, showError } from './notice.js';
import {
  AttentionSubscription,
  OverviewQuery,
  PermissionRequestsSubscription,
  SessionQuery,
  SessionUpdatesSubscription,
} from './operations.js';
import { createForm } from './create-form.js';
import { permissionList } from './permission-list.js';
import { dryRunPart } from './rules-dry-run.js';
import { rulesPanel } from './rules-panel.js';
import { renderSessions } from './session-list.js';
import { SessionView } from './session-view.js';
import { spaced } from './spaced.js';
import { tokenForm } from './token-form.js';
import { schedulesPanel } from './schedules-panel.js';
import { usagePanel } from './usage-panel.js';

const state = new HubState(async (id) => (await hub.request(SessionQuery, { id })).session);
const connection = el('span', { id: 'connection', class: 'connecting' }, 'connecting');
const tokens = tokenForm();

const hub = new HubClient({
  connection(now) {
    connection.textContent = now;
    connection.className = now.replace(' ', '-');
  },
  reconnected() {
    void loadOverview();
    void globalHooks.load();
    channels.refresh();
  },
  unauthorized() {
    tokens.hidden = false;
  },
});

/** Opening a session is a change of the URL's hash, so a reload keeps it open. */
function open(sessionId: string): void {
  location.hash = sessionId;
}

const channels = channelsPanel(hub);
const usage = usagePanel(hub);
const schedules = schedulesPanel(hub);
const view = new SessionView(hub, state, channels.refresh, usage.refresh);
const attention = el('ul', { id: 'attention', class: 'cards' });
const permissions = permissionList(hub, state, open);
const sessions = el('ul', { id: 'sessions', class: 'cards' });
const sessionFilter = el('input', {
  type: 'search',
  id: 'session-filter',
  placeholder: 'Filter: name, folder, status or id',
  'aria-label': 'Filter the sessions',
});
const sessionCount = el('span', { id: 'session-count' });
// Rows a list shows before its "Show more": a screen or two of a fleet's.
const attentionLimit = new ListLimit(50, () => drawSoon());
const sessionLimit = new ListLimit(100, () => drawSoon());
const globalHooks = hooksPanel(hub);
const rules = rulesPanel(hub);
const dryRun = dryRunPart(hub, () => rules.rules, state, open);

document
  .querySelector('#app')
  ?.replaceChildren(
    el(
      'header',
      {},
      el('h1', {}, 'claude-code-hub'),
      el('nav', {}, el('a', { href: '/graphql' }, 'GraphiQL')),
      el('span', { class: 'connection' }, 'live updates: ', connection),
      notifyMeButton(),
      tokens,
      noticeElement,
    ),
    el(
      'main',
      {},
      el(
        'aside',
        {},
        el('section', {}, el('h2', {}, 'Needs attention'), attention),
        el('section', {}, el('h2', {}, 'Permission requests'), permissions.element),
        el('section', {}, el('h2', {}, 'Sessions ', sessionCount), sessionFilter, sessions),
        el('section', {}, el('h2', {}, 'Channels'), channels.element),
        el('section', {}, el('h2', {}, 'New session'), createForm(hub, state, open)),
        el('section', {}, el('h2', {}, 'Global hooks'), globalHooks.element),
        el('section', {}, el('h2', {}, 'Rules'), rules.element, dryRun),
        el('section', {}, el('h2', {}, 'Usage'), usage.element),
        el('section', {}, el('h2', {}, 'Schedules'), schedules.element),
      ),
      view.element,
    ),
  );

/** Draws the session list with the filter's matches, and how many they are of all. */
function drawSessions(): void {
  const shown = renderSessions(
    { list: sessions, limit: sessionLimit, filter: sessionFilter.value },
    hub,
    state,
    view.sessionId,
    open,
  );
  const total = state.sessions.size;
  sessionCount.textContent = shown === total ? `(${total})` : `(${shown} of ${total})`;
}

/**
 * Drawn once a frame at most, and 100 ms after the last draw at the soonest: a fleet's changes
 * come hundreds a second, and drawing the page at each (300 a second over 1,000 sessions) froze
 * the tab and left it 47 s behind; at every frame it drew 169 times in 5 s, now 43.
 */
const drawSoon = spaced(
  100,
  () => {
    showWaitingCount(state.attention.length);
    renderAttention(attention, attentionLimit, state, open);
    permissions.render();
    drawSessions();
    view.render();
  },
  (go) => requestAnimationFrame(() => go()),
);
state.onChange(drawSoon);
sessionFilter.addEventListener('input', () => {
  sessionLimit.reset();
  drawSoon();
});

async function loadOverview(): Promise<void> {
  try {
    await state.loadOverview(() => hub.request(OverviewQuery, {}));
  } catch (error) {
    showError(error);
  }
}

/** Opens the session the hash names, scrolled to when it opens out of sight (on a phone, above). */
function showHash(): void {
  view.show(decodeURIComponent(location.hash.slice(1)) || null);
  drawSessions();
  const { top } = view.element.getBoundingClientRect();
  if (top < 0 || top > innerHeight) view.element.scrollIntoView();
}

// Subscribe before loading, so no change falls between the two.
hub.subscribe(
  SessionUpdatesSubscription,
  {},
  {
    next: ({ sessionUpdateBatches }) => {
      for (const change of sessionUpdateBatches) state.updateSession(change);
    },
    error: showError,
  },
);
hub.subscribe(
  PermissionRequestsSubscription,
  {},
  {
    next: ({ permissionRequests }) => state.putPermission(permissionRequests),
    error: showError,
  },
);
hub.subscribe(
  AttentionSubscription,
  {},
  {
    next: ({ attention }) => {
      state.applyAttention(attention);
      notifyRaised(attention.raised, state, open);
    },
    error: showError,
  },
);
window.addEventListener('hashchange', showHash);
showHash();
startClock();
void loadOverview();
void globalHooks.load();
rules.follow();
