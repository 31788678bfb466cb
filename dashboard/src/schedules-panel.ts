/**
 * The Schedules panel: every scheduled prompt (Query.schedules) with its cron line and time zone,
 * where its text goes (a session, or a new one in a folder), its next and last run and why the
 * last one sent nothing. Schedules have no subscription: they are read again every few seconds.
 */
import type { DashboardSchedulesQuery } from '../../src/gql/graphql.js';
import { button, el, fill } from './dom.js';
import { HubError, type HubClient } from './hub-client.js';
import { SchedulesQuery } from './panel-operations.js';

type Schedule = DashboardSchedulesQuery['schedules'][number];

/** How often the schedules are read again while the page is open. */
const pollMs = 15_000;

const when = (iso: unknown) => (typeof iso === 'string' ? new Date(iso).toLocaleString() : 'never');
const sessionLink = (id: string) => el('a', { href: `#${encodeURIComponent(id)}` }, id.slice(0, 8));

function target(schedule: Schedule): (HTMLElement | string)[] {
  if (schedule.sessionId) return ['into session ', sessionLink(schedule.sessionId)];
  const made = schedule.createSession as { cwd?: unknown; name?: unknown } | null;
  const name = typeof made?.name === 'string' ? ` "${made.name}"` : '';
  return [`a new session${name} in ${String(made?.cwd ?? '?')}`];
}

function card(schedule: Schedule): HTMLLIElement {
  return el(
    'li',
    { class: 'schedule', 'data-schedule-id': schedule.id },
    el(
      'div',
      {},
      el('code', { class: 'cron' }, schedule.cron),
      ` (${schedule.timezone}) `,
      ...target(schedule),
      schedule.overlap === 'SKIP' ? ', skipped while busy' : '',
    ),
    el('div', { class: 'schedule-text' }, schedule.text.slice(0, 200)),
    el(
      'div',
      { class: 'schedule-runs' },
      `next ${when(schedule.nextRunAt)} · last ${when(schedule.lastRunAt)}`,
      schedule.lastSessionId ? ' in ' : '',
      schedule.lastSessionId ? sessionLink(schedule.lastSessionId) : '',
    ),
    schedule.lastError ? el('div', { class: 'error' }, schedule.lastError) : null,
  );
}

export function schedulesPanel(hub: HubClient): { element: HTMLElement } {
  const list = el(
    'ol',
    { id: 'schedules', class: 'cards' },
    el('li', { class: 'empty' }, 'Loading...'),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function read(): Promise<void> {
    clearTimeout(timer);
    try {
      const { schedules } = await hub.request(SchedulesQuery, {});
      fill(list, ...schedules.map(card));
      if (schedules.length === 0) list.append(el('li', { class: 'empty' }, 'No schedule.'));
    } catch (error) {
      // The header tells of a hub that cannot be reached; the next read tries again.
      if (error instanceof HubError && error.code === 'FORBIDDEN')
        fill(list, el('li', { class: 'empty error' }, 'This token may not read the schedules.'));
    } finally {
      timer = setTimeout(() => void read(), pollMs);
    }
  }

  void read();
  return {
    element: el(
      'div',
      { id: 'schedules-panel' },
      button('Refresh', read, () => {}),
      list,
    ),
  };
}
