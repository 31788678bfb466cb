import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hookDashboardSuite } from '../helpers/hook-dashboard.js';

describe("the dashboard's session list, kept by sessionUpdateBatches", () => {
  const suite = hookDashboardSuite([]);
  const { pageErrors } = suite;
  /** The sessions in the `sessionUpdateBatches` payloads the page received, as sent. */
  const updates: Record<string, unknown>[] = [];

  beforeAll(() => {
    suite.page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const message = JSON.parse(String(payload)) as {
          payload?: { data?: { sessionUpdateBatches?: Record<string, unknown>[] } };
        };
        updates.push(...(message.payload?.data?.sessionUpdateBatches ?? []));
      }),
    );
  });

  it('shows a session started after the page loaded whole, and its changes over it', async () => {
    const before = randomUUID();
    expect(
      await suite.post({ session_id: before, hook_event_name: 'SessionStart', cwd: '/srv/before' }),
    ).toBe(200);
    await suite.page.goto(suite.hub.baseUrl);
    const row = (id: string) => suite.page.locator(`#sessions li[data-session-id="${id}"]`);
    // Once it shows its place in the attention queue (which comes on its own subscription),
    // rows are drawn again only when their own session changes: this one stays the same node.
    await row(before)
      .locator('.waited', { hasText: /^idle for / })
      .waitFor();
    await row(before).evaluate((node) => ((node as HTMLElement & { kept?: true }).kept = true));

    // Heard of first from an update, which carries none of what it keeps from its start.
    const id = randomUUID();
    expect(
      await suite.post({ session_id: id, hook_event_name: 'SessionStart', cwd: '/srv/shop' }),
    ).toBe(200);
    await row(id).locator('.cwd', { hasText: '/srv/shop' }).waitFor();
    expect(await row(id).locator('.badge.status-IDLE').count()).toBe(1);

    const prompt = { session_id: id, hook_event_name: 'UserPromptSubmit', prompt: 'hi' };
    expect(await suite.post({ ...prompt, cwd: '/srv/shop' })).toBe(200);
    await row(id).locator('.badge.status-BUSY').waitFor();
    expect(await row(id).locator('.cwd').innerText()).toBe('/srv/shop');
    expect(await row(id).locator('.badge.origin-EXTERNAL').count()).toBe(1);

    const stop = { session_id: id, hook_event_name: 'Stop', last_assistant_message: 'Hello.' };
    expect(await suite.post({ ...stop, cwd: '/srv/shop' })).toBe(200);
    await row(id).locator('.badge.status-IDLE').waitFor();

    expect(await row(before).evaluate((node) => (node as HTMLElement & { kept?: true }).kept)).toBe(
      true,
    );
    const order = await suite.page
      .locator('#sessions li')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.sessionId));
    expect(order).toEqual([id, before]);

    const sent = updates.filter((update) => update.id === id);
    expect(sent.map((update) => update.status)).toContain('BUSY');
    for (const update of sent) {
      expect(update).not.toHaveProperty('cwd');
      expect(update).not.toHaveProperty('createdAt');
      // The session's last answer shows in the attention queue, not in its row.
      expect(update).not.toHaveProperty('lastAssistantMessage');
      expect(update).toHaveProperty('costUsd');
    }
    expect(sent.at(-1)).toMatchObject({ status: 'IDLE' });
    expect(pageErrors).toEqual([]);
  });

  it('filters the list by every word typed, in name, folder, status or id', async () => {
    const rows = () =>
      suite.page
        .locator('#sessions li')
        .evaluateAll((nodes) =>
          nodes.map((node) => (node as HTMLElement).dataset.sessionId ?? node.textContent),
        );
    const all = await rows();
    expect(all).toHaveLength(2);
    expect(await suite.page.locator('#session-count').innerText()).toBe('(2)');
    const filter = suite.page.locator('#session-filter');

    await filter.fill('SHOP idle');
    await expect.poll(rows).toEqual([all[0]]);
    expect(await suite.page.locator('#session-count').innerText()).toBe('(1 of 2)');
    await filter.fill(String(all[1]).slice(0, 8));
    await expect.poll(rows).toEqual([all[1]]);
    await filter.fill('/srv/nowhere');
    await expect.poll(rows).toEqual(['No session matches.']);
    expect(await suite.page.locator('#session-count').innerText()).toBe('(0 of 2)');
    await filter.fill('');
    await expect.poll(rows).toEqual(all);
    expect(pageErrors).toEqual([]);
  });

  it("tells of a fleet's sessions raised together in one notification, not one each", async () => {
    const context = await suite.browser.newContext();
    await context.grantPermissions(['notifications'], { origin: suite.hub.baseUrl });
    await context.addInitScript(() => {
      const shown: { title: string; body: string; tag: string; at: number }[] = [];
      Object.defineProperty(window, 'shownNotifications', { value: shown });
      class RecordedNotification extends window.Notification {
        constructor(title: string, options: NotificationOptions = {}) {
          super(title, options);
          shown.push({ title, body: options.body ?? '', tag: options.tag ?? '', at: Date.now() });
        }
      }
      window.Notification = RecordedNotification;
    });
    const alerts = await context.newPage();
    alerts.on('pageerror', (error) => pageErrors.push(error.message));
    const shown = () =>
      alerts.evaluate(
        () =>
          (
            window as unknown as {
              shownNotifications: { title: string; body: string; tag: string; at: number }[];
            }
          ).shownNotifications,
      );
    const start = (id: string) =>
      suite.post({ session_id: id, hook_event_name: 'SessionStart', cwd: '/srv/fleet' });
    // Waiting before the page opens, so in its first queue and told of by no notification:
    // once the page shows it, the page's attention subscription is live (connected is only
    // the connection's acknowledgement; its subscriptions reach the hub after it).
    const waiting = randomUUID();
    expect(await start(waiting)).toBe(200);
    await alerts.goto(suite.hub.baseUrl);
    await alerts.locator('#connection', { hasText: /^connected$/ }).waitFor();
    await alerts.locator(`#attention li[data-session-id="${waiting}"]`).waitFor();

    const first = randomUUID();
    expect(await start(first)).toBe(200);
    await expect.poll(shown).toHaveLength(1);
    expect((await shown())[0]).toMatchObject({
      title: `${first.slice(0, 8)} is waiting for you`,
      tag: `${first}:IDLE`,
    });

    // Seven more wait within seconds of it; one of them is busy again before they are told.
    const fleet = Array.from({ length: 7 }, () => randomUUID());
    for (const id of fleet) expect(await start(id)).toBe(200);
    const busy = { session_id: fleet[6], hook_event_name: 'UserPromptSubmit', prompt: 'go' };
    expect(await suite.post({ ...busy, cwd: '/srv/fleet' })).toBe(200);
    await expect.poll(shown, { timeout: 15_000 }).toHaveLength(2);
    const [one, together] = (await shown()) as [
      { at: number },
      { title: string; body: string; tag: string; at: number },
    ];
    expect(together).toMatchObject({
      title: '6 sessions need you',
      body: [
        ...fleet.slice(0, 5).map((id) => `${id.slice(0, 8)} is waiting for you`),
        'and 1 more',
      ].join('\n'),
      tag: 'gathered',
    });
    expect(together.at - one.at).toBeGreaterThanOrEqual(4_000);
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
