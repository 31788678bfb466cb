import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hookDashboardSuite } from '../helpers/hook-dashboard.js';

describe("the dashboard's long lists", () => {
  const suite = hookDashboardSuite(['--max-sessions', '200']);
  const { pageErrors } = suite;
  /** The sessions in the order they started: the list shows the newest first. */
  const ids = Array.from({ length: 130 }, () => randomUUID());

  beforeAll(async () => {
    for (const id of ids) {
      const status = await suite.post({
        session_id: id,
        hook_event_name: 'SessionStart',
        cwd: '/srv',
      });
      expect(status).toBe(200);
    }
  }, 60_000);

  const shownIds = (list: string) =>
    suite.page
      .locator(`${list} li[data-session-id]`)
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.sessionId));

  it("shows a fleet's first rows of each list, and the next ones at the press of a button", async () => {
    await suite.page.goto(suite.hub.baseUrl);
    const sessionsMore = suite.page.locator('#sessions li.more button');
    await sessionsMore.filter({ hasText: /^Show 30 more \(30 not shown\)$/ }).waitFor();
    expect(await shownIds('#sessions')).toEqual(ids.slice(30).reverse());
    expect(await suite.page.locator('#session-count').innerText()).toBe('(130)');

    // Every session started idle, so each waits in the queue: its first 50 are shown.
    const attentionMore = suite.page.locator('#attention li.more button');
    await attentionMore.filter({ hasText: /^Show 50 more \(80 not shown\)$/ }).waitFor();
    const queue = await shownIds('#attention');
    expect(queue).toHaveLength(50);
    expect(new Set(queue).size).toBe(50);
    await attentionMore.click();
    await attentionMore.filter({ hasText: /^Show 30 more \(30 not shown\)$/ }).waitFor();
    expect((await shownIds('#attention')).slice(0, 50)).toEqual(queue);
    expect(await shownIds('#attention')).toHaveLength(100);

    await sessionsMore.click();
    await suite.page.locator(`#sessions li[data-session-id="${ids[0]}"]`).waitFor();
    expect(await shownIds('#sessions')).toEqual([...ids].reverse());
    expect(await sessionsMore.count()).toBe(0);

    // The filter finds a session out of the first rows; a new filter starts from them again.
    const filter = suite.page.locator('#session-filter');
    await filter.fill('/srv');
    await sessionsMore.waitFor();
    expect(await shownIds('#sessions')).toHaveLength(100);
    await filter.fill(ids[3]!);
    await suite.page.locator('#session-count', { hasText: '(1 of 130)' }).waitFor();
    expect(await shownIds('#sessions')).toEqual([ids[3]]);
    expect(await sessionsMore.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('shows the first 50 pending permission requests, and the next ones at the press of a button', async () => {
    // Held until decided, or until the hub stops at the end of the suite.
    for (const id of ids.slice(0, 55)) {
      const request = { session_id: id, hook_event_name: 'PermissionRequest', cwd: '/srv' };
      void suite
        .post({ ...request, tool_name: 'Bash', tool_input: { command: `echo ${id}` } })
        .catch(() => undefined);
    }
    const more = suite.page.locator('#permissions li.more button');
    await more.filter({ hasText: /^Show 5 more \(5 not shown\)$/ }).waitFor();
    const cards = suite.page.locator('#permissions li.permission');
    expect(await cards.count()).toBe(50);
    await more.click();
    await vi.waitFor(async () => expect(await cards.count()).toBe(55));
    expect(await more.count()).toBe(0);
    const shown = await cards.evaluateAll((nodes) =>
      nodes.map((node) => (node as HTMLElement).dataset.sessionId),
    );
    expect(new Set(shown)).toEqual(new Set(ids.slice(0, 55)));
    expect(pageErrors).toEqual([]);
  });
});
