import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';

describe("the dashboard's schedules", () => {
  disposeWithSuite();
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    hub = await startHub();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  it('lists each schedule: its cron line, time zone, target, text and next run', async () => {
    const cwd = tempDir('cch-dashboard-schedule-');
    const { schedulePrompt } = await hub.data<{
      schedulePrompt: { id: string; nextRunAt: string };
    }>(
      `mutation($cwd: String!) { schedulePrompt(input: { cron: "0 9 * * 1", timezone: "Europe/Paris", text: "<b>weekly</b> report", overlap: SKIP, createSession: { cwd: $cwd, name: "weekly" } }) { id nextRunAt } }`,
      { cwd },
    );
    await page.goto(hub.baseUrl);
    const card = page.locator(`#schedules li[data-schedule-id="${schedulePrompt.id}"]`);
    await card.waitFor({ timeout: 30_000 });
    const text = await card.innerText();
    expect(text).toContain('0 9 * * 1 (Europe/Paris)');
    expect(text).toContain(`a new session "weekly" in ${cwd}, skipped while busy`);
    // Text is shown as text, never as markup.
    expect(await card.locator('.schedule-text').innerText()).toBe('<b>weekly</b> report');
    const nextRun = await page.evaluate(
      (iso) => new Date(iso).toLocaleString(),
      schedulePrompt.nextRunAt,
    );
    expect(text).toContain(`next ${nextRun} · last never`);
    expect(pageErrors).toEqual([]);
  });
});
