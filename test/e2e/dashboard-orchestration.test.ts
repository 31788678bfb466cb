import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

describe("the dashboard's parents and children, with the real claude CLI", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  it('links a session to the children it started and each child back to it', async () => {
    const { createSession: parent } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, name: "conductor", orchestrate: true, permissionMode: ACCEPT_EDITS }) { id } }`,
      { cwd: world.makeCwd('parent') },
    );
    const start = JSON.stringify({ cwd: world.makeCwd('child'), name: 'violin' });
    const { ask } = await hub.data(
      `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { ... on AskReply { reply } } }`,
      { id: parent.id, text: `tool: mcp__hub__start_session ${start}` },
    );
    const child = JSON.parse(
      String(ask.reply).replace('tool mcp__hub__start_session said: ', ''),
    ) as { id: string };

    await page.goto(`${hub.baseUrl}/#${parent.id}`);
    const children = page.locator('#session dd.children');
    await children.waitFor({ timeout: 30_000 });
    expect(await children.innerText()).toBe('violin (IDLE)');
    await children.locator('a').click();
    await page.waitForURL(`**/#${child.id}`);
    const back = page.locator('#session dd.parent a');
    await back.waitFor();
    expect(await back.innerText()).toBe('conductor');
    expect(pageErrors).toEqual([]);
  });
});
