import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { dashboardTimeline } from '../helpers/dashboard-timeline.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

describe("the dashboard's global hooks and channels panels, with the real claude CLI", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let sessionId: string;
  const pageErrors: string[] = [];
  const { rows } = dashboardTimeline(() => page);

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    // A session in tmux, listed on the page: the tests go to its pane and have it write to a
    // channel.
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, name: "dash", permissionMode: DEFAULT }) { id } }`,
      { cwd: world.makeCwd('dashboard') },
    );
    sessionId = createSession.id;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${hub.baseUrl}/`);
    await page.locator('#connection', { hasText: /^connected$/ }).waitFor();
  }, 120_000);

  it("installs the global hooks into the hub's config dir from its panel, and uninstalls them", async () => {
    const panel = page.locator('#global-hooks');
    const settingsPath = path.join(world.env.CLAUDE_CONFIG_DIR!, 'settings.json');
    const state = panel.locator('.hooks-state');
    await state.filter({ hasText: /^not installed$/ }).waitFor();
    expect(await panel.locator('.hooks-path').textContent()).toBe(settingsPath);
    expect(existsSync(settingsPath)).toBe(false);

    await panel.getByRole('button', { name: 'Install', exact: true }).click();
    await state.filter({ hasText: /^installed$/ }).waitFor();
    const hookUrl = `${hub.baseUrl}/hooks?from=global`;
    expect(await panel.locator('code.hooks-url').textContent()).toBe(hookUrl);
    expect(await panel.locator('dd', { has: page.locator('code.hooks-url') }).textContent()).toBe(
      `${hookUrl} (this hub)`,
    );
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(settings.hooks.Stop).toEqual([
      {
        matcher: '',
        hooks: [
          expect.objectContaining({
            type: 'http',
            url: hookUrl,
            headers: expect.objectContaining({ 'X-Claude-Code-Hub': 'global' }),
          }),
        ],
      },
    ]);
    expect(await panel.getByRole('button', { name: 'Install', exact: true }).isDisabled()).toBe(
      true,
    );
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.setViewportSize({ width: 1400, height: 1000 });

    // The hub's own tmux server has no client attached: the button says so.
    const listed = page.locator(`#sessions li[data-session-id="${sessionId}"]`);
    await listed.getByRole('button', { name: 'Go to pane' }).click();
    await page
      .locator('#notice.error', { hasText: /no tmux client is attached .*\(NO_TMUX_CLIENT\)$/ })
      .waitFor();

    // Uninstalled, the file the install made is gone again.
    await panel.getByRole('button', { name: 'Uninstall' }).click();
    await state.filter({ hasText: /^not installed$/ }).waitFor();
    expect(existsSync(settingsPath)).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('lists the open channels with their listeners, and shows what a session sent to one', async () => {
    const listener = hub.subscribe(
      `subscription { channelMessages(channel: "ops", description: "the ops room") { seq text } }`,
    );
    const channel = page.locator('#channels li.channel[data-channel="ops"]');
    await channel.locator('.listeners', { hasText: /^1 listener$/ }).waitFor({ timeout: 10_000 });
    expect(await channel.locator('.name').textContent()).toBe('#ops');
    expect(await channel.locator('.description').textContent()).toBe('the ops room');
    expect(await channel.locator('.last').textContent()).toBe('no message yet');

    await page.locator(`#sessions li[data-session-id="${sessionId}"] button.link`).click();
    const message = 'tool: mcp__hub__send_to_channel {"channel":"ops","message":"deploy finished"}';
    const { ask } = await hub.data(
      `mutation($id: ID!, $text: String!) {
        ask(sessionId: $id, text: $text, channel: "ops", timeoutSeconds: 60) {
          __typename ... on AskReply { reply } } }`,
      { id: sessionId, text: message },
    );
    expect(ask).toEqual({
      __typename: 'AskReply',
      reply: 'tool mcp__hub__send_to_channel said: sent to ops (message 1)',
    });
    expect((await listener.next()).channelMessages).toEqual({ seq: 1, text: 'deploy finished' });

    const sent = rows('ChannelMessage');
    await sent.waitFor({ timeout: 10_000 });
    expect(await sent.locator('.label').textContent()).toBe('→ #ops');
    expect(await sent.locator('.body').textContent()).toBe('deploy finished');
    expect(await sent.getAttribute('title')).toBe('message 1 in #ops');
    expect(await rows('UserPromptSubmit', 'deploy finished').locator('.body').textContent()).toBe(
      `[message from channel "ops"; answer there with the send_to_channel tool]\n${message}`,
    );
    // The panel reads the list again when the timeline shows the session writing to a channel.
    await channel.locator('.last', { hasText: /^last message .* ago$/ }).waitFor({ timeout: 2000 });

    // The last listener left: the channel is closed, and the panel says so within a poll.
    listener.dispose();
    await page.locator('#channels li.empty', { hasText: 'No channel is open.' }).waitFor({
      timeout: 10_000,
    });
    expect(await channel.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
