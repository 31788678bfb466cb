import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startHub, type TestHub } from '../helpers/hub.js';

describe('the dashboard on a hub with a token', () => {
  const secret = 'dashboard-test-secret-0123456789';
  let hub: TestHub;
  let browser: Browser;

  beforeAll(async () => {
    await buildDashboard();
    hub = await startHub({ args: ['--token', secret], token: secret });
    browser = await launchChromium();
  }, 120_000);

  it('asks for the token once and keeps it for the tab', async () => {
    const page = await browser.newPage();
    await page.goto(`${hub.baseUrl}/`);
    const tokenForm = page.locator('#token-form');
    await tokenForm.waitFor();
    await page.locator('#connection', { hasText: 'token needed' }).waitFor();

    await tokenForm.getByLabel('Token').fill(secret);
    await tokenForm.getByRole('button', { name: 'Use token' }).click();
    await page.locator('#connection', { hasText: /^connected$/ }).waitFor();
    await page.locator('#sessions li.empty', { hasText: 'No sessions yet.' }).waitFor();
    expect(await tokenForm.isHidden()).toBe(true);

    await page.reload();
    await page.locator('#connection', { hasText: /^connected$/ }).waitFor();
    await page.locator('#sessions li.empty').waitFor();
    expect(await tokenForm.isHidden()).toBe(true);
  });
});
