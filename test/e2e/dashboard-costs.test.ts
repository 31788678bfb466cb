import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const screenshot = path.join(root, 'test/output/dashboard-costs.png');

/** A cost as the dashboard shows every one. */
const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 4,
});

describe("the dashboard's costs and usage panel, with the real claude CLI", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    // A table of its own, so whatever model the transcript names has a price.
    const prices = path.join(world.makeCwd('config'), 'prices.yaml');
    writeFileSync(
      prices,
      'date: 2026-11-01\nmodels:\n  - match: "claude-*"\n    input: 2\n    output: 10\n',
    );
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--prices', prices],
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  it("shows a TMUX turn's cost, the session's, and the usage by label and by token", async () => {
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, labels: ["costs-e2e"], permissionMode: DEFAULT }) { id runtime } }`,
      { cwd: world.makeCwd('work') },
    );
    expect(createSession.runtime).toBe('TMUX');
    const id = createSession.id as string;
    const { ask } = await hub.data(
      `mutation($id: ID!) { ask(sessionId: $id, text: "hello", timeoutSeconds: 60) { ... on AskReply { reply } } }`,
      { id },
    );
    expect(ask.reply).toBe('echo: hello');
    // The hub keeps the turn's cost just after the turn ends.
    const session = await vi.waitFor(
      async () => {
        const { session: found } = await hub.data(
          `query($id: ID!) { session(id: $id) { costUsd turns { costUsd costSource } } }`,
          { id },
        );
        expect(found.costUsd).not.toBeNull();
        return found as {
          costUsd: number;
          turns: { costUsd: number; costSource: string }[];
        };
      },
      { timeout: 10_000 },
    );
    expect(session.turns).toEqual([{ costUsd: session.costUsd, costSource: 'PRICE_TABLE' }]);
    expect(session.costUsd).toBeGreaterThan(0);

    await page.goto(`${hub.baseUrl}/#${id}`);
    const turn = page.locator('#timeline li.turn');
    await turn.waitFor({ timeout: 30_000 });
    const cost = turn.locator('.usage [data-cost]');
    expect(await cost.textContent()).toBe(dollars.format(session.turns[0]!.costUsd));
    expect(await cost.getAttribute('data-cost-source')).toBe('PRICE_TABLE');
    expect(await cost.getAttribute('title')).toBe("cost: its tokens at the price table's prices");
    await expect
      .poll(() => page.locator('#session dd.cost').textContent())
      .toBe(dollars.format(session.costUsd));

    // The usage panel, by label over the last 30 days at first: the hub's own figures.
    const { usage: byLabel } = await hub.data(`{ usage(groupBy: LABEL) { key turns costUsd } }`);
    expect(byLabel).toEqual([{ key: 'costs-e2e', turns: 1, costUsd: session.costUsd }]);
    const label = page.locator('#usage li[data-key="costs-e2e"]');
    await expect
      .poll(() => label.locator('.usage-cost').textContent(), { timeout: 20_000 })
      .toBe(dollars.format(byLabel[0].costUsd));
    expect(await label.locator('.usage-key').textContent()).toBe('costs-e2e');
    expect(await label.locator('.usage-turns').textContent()).toBe('1 turn');
    expect(await page.locator('#usage li').count()).toBe(1);

    // By token, over the last day: whoever made the session (`local`, on a hub without tokens).
    const { usage: byToken } = await hub.data(
      `query($since: DateTime) { usage(groupBy: TOKEN, since: $since) { key turns costUsd } }`,
      { since: new Date(Date.now() - 86_400_000).toISOString() },
    );
    expect(byToken).toEqual([{ key: expect.anything(), turns: 1, costUsd: session.costUsd }]);
    await page.locator('#usage-group').selectOption('TOKEN');
    await page.locator('#usage-since').selectOption({ label: 'last day' });
    const token = page.locator(`#usage li[data-key="${byToken[0].key ?? ''}"]`);
    await expect
      .poll(() => token.locator('.usage-key').textContent())
      .toBe(byToken[0].key ?? '(no token)');
    expect(await token.locator('.usage-cost').textContent()).toBe(dollars.format(session.costUsd));
    expect(await page.locator('#usage li').count()).toBe(1);

    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
