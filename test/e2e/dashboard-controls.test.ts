import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { timelineOf } from '../helpers/dashboard-timeline.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

describe("the dashboard's session controls", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const { rows, assistant, action, turnRow, shownSeqs } = timelineOf(() => page);

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${hub.baseUrl}/`);
    await page.locator('#connection', { hasText: /^connected$/ }).waitFor();
  }, 120_000);

  it('answers a BLOCKED dialog with keys, asks, denies a tool, stops and resumes', async () => {
    const form = page.locator('#create-session');
    const cwd = world.makeUntrustedCwd();
    await form.locator('[name=cwd]').fill(cwd);
    await form.locator('[name=permissionMode]').selectOption('DEFAULT');
    await form.getByRole('button', { name: 'Start session' }).click();

    const view = page.locator('#session');
    const blocked = view.locator('.blocked');
    const screen = blocked.locator('pre.screen');
    await blocked.locator('h3', { hasText: 'WORKSPACE_TRUST' }).waitFor({ timeout: 30_000 });
    await screen.filter({ hasText: '❯ No, exit' }).waitFor();
    // The dialog drops keys pressed the moment it appears, so pause as a person would.
    await page.waitForTimeout(700);
    await blocked.getByRole('button', { name: 'Down', exact: true }).click();
    // The screen sendKeys returns may predate claude's redraw.
    await expect
      .poll(
        async () => {
          await blocked.getByRole('button', { name: 'Read again' }).click();
          return screen.textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('❯ Yes, I trust this folder');
    await blocked.getByRole('button', { name: 'Enter', exact: true }).click();
    await view.locator('h2 .badge', { hasText: 'IDLE' }).waitFor({ timeout: 30_000 });
    await rows('SessionStart').waitFor();
    expect(await blocked.isHidden()).toBe(true);

    await page.locator('#message').fill('hello dashboard');
    await view.getByRole('button', { name: 'Ask' }).click();
    await view.locator('.ask-reply pre', { hasText: 'echo: hello dashboard' }).waitFor({
      timeout: 30_000,
    });

    await page.locator('#message').fill('run: touch denied-by-dashboard && echo nope');
    await view.getByRole('button', { name: 'Send' }).click();
    const card = page.locator('#permissions li.permission', { hasText: 'denied-by-dashboard' });
    await card.waitFor({ timeout: 30_000 });
    await card.getByLabel('Deny message').fill('not today');
    await card.getByRole('button', { name: 'Deny' }).click();
    await card.waitFor({ state: 'detached' });
    await rows('HubPermissionResolved', 'denied: not today').waitFor();
    await rows('Stop').nth(1).waitFor({ timeout: 30_000 });
    const denied = action('COMMAND', 'denied-by-dashboard');
    await denied.and(page.locator('.failed')).waitFor();
    expect(await denied.locator('.outcome').textContent()).toMatch(/^failed after /);
    expect(await denied.locator('.output').textContent()).toBe('permission denied');
    const warning = action('WARNING', 'permission denied: Bash');
    expect(await warning.getAttribute('class')).toBe('event action warning');
    expect(await warning.locator('.output').textContent()).toBe('not today');
    expect(existsSync(path.join(cwd, 'denied-by-dashboard'))).toBe(false);

    await view.getByRole('button', { name: 'Stop' }).click();
    await view.locator('h2 .badge', { hasText: 'STOPPED' }).waitFor({ timeout: 30_000 });
    await rows('SessionEnd').waitFor();
    await view.locator('#timeline li.note', { hasText: 'The session ended' }).waitFor();

    // Resumed, the same timeline goes on where it ended.
    await view.getByRole('button', { name: 'Resume' }).click();
    await view.locator('h2 .badge', { hasText: 'IDLE' }).waitFor({ timeout: 30_000 });
    await rows('SessionStart', 'resume').waitFor({ timeout: 30_000 });
    const seqs = await shownSeqs();
    expect(new Set(seqs).size).toBe(seqs.length);
    const actionIds = await page.$$eval('#timeline li.action', (items) =>
      items.map((item) => item.dataset.actionId),
    );
    expect(actionIds).toHaveLength(2);
    expect(new Set(actionIds).size).toBe(2);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('starts a HEADLESS session from the form and shows its turn, with what it cost', async () => {
    const form = page.locator('#create-session');
    await form.locator('[name=cwd]').fill(world.makeCwd());
    await form.locator('[name=runtime]').selectOption('HEADLESS');
    await form.locator('[name=prompt]').fill('run: echo from-the-headless-form');
    await form.getByRole('button', { name: 'Start session' }).click();

    const view = page.locator('#session');
    await view.locator('dd.runtime', { hasText: 'HEADLESS' }).waitFor({ timeout: 30_000 });
    expect(await view.locator('code.attach').count()).toBe(0);
    const id = decodeURIComponent(new URL(page.url()).hash.slice(1));
    const listed = page.locator(`#sessions li[data-session-id="${id}"]`);
    expect(await listed.locator('.runtime').textContent()).toBe('headless: no terminal');

    await action('COMMAND', 'echo from-the-headless-form').waitFor({ timeout: 30_000 });
    const summary = turnRow(1);
    await summary.waitFor({ timeout: 30_000 });
    expect(await summary.getAttribute('data-status')).toBe('COMPLETED');
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { turns { costUsd } } }`,
      {
        id,
      },
    );
    const cost = session.turns[0].costUsd as number;
    expect(cost).toBeGreaterThan(0);
    expect(await summary.locator('.usage [data-cost]').textContent()).toBe(
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        maximumFractionDigits: 4,
      }).format(cost),
    );
    // claude's stream lines are in the API; the timeline shows their hook events and turns.
    expect(await rows('StreamMessage').count()).toBe(0);
    await assistant('ran: from-the-headless-form').waitFor();
    await view.getByRole('button', { name: 'Stop' }).click();
    await view.locator('h2 .badge', { hasText: 'STOPPED' }).waitFor({ timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

describe('the dashboard on a hub with a token', () => {
  const secret = 'dashboard-test-secret-0123456789';
  let hub: TestHub;
  let browser: Browser;

  beforeAll(async () => {
    hub = await startHub({ args: ['--token', secret], token: secret });
    browser = await launchChromium();
  });

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
