import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { freePort } from '../../harness/free-port.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { killTmuxServer } from '../../harness/tmux-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const screenshot = path.join(root, 'test/output/dashboard.png');

describe('the dashboard', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let dataDir: string;
  let socket: string;
  let port: number;
  let sessionId: string;
  const pageErrors: string[] = [];
  /** The variables of every sessionEvents subscription the page started. */
  const timelineSubscriptions: { id: string; after: number | null }[] = [];

  /** The hub on a fixed port, data dir and tmux socket, so a second one takes over the first's sessions. */
  const startFixedHub = (stopSessionsOnExit: boolean) =>
    startHub({
      env: world.env,
      dataDir,
      args: [
        '--claude-bin',
        claudeBin,
        '--port',
        String(port),
        '--tmux-socket',
        socket,
        `--stop-sessions-on-exit=${stopSessionsOnExit}`,
      ],
    });

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    dataDir = mkdtempSync(path.join(tmpdir(), 'cch-dashboard-'));
    socket = `cch-dashboard-${process.pid}`;
    port = await freePort();
    // The first hub leaves its sessions running when it stops, for the reconnection test.
    hub = await startFixedHub(false);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload));
        if (frame.type === 'subscribe' && frame.payload.query.includes('sessionEvents(')) {
          timelineSubscriptions.push(frame.payload.variables);
        }
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.stop();
    if (socket) await killTmuxServer(socket);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await world?.close();
  });

  const rows = (event: string, hasText?: string | RegExp) =>
    page.locator(`#timeline li[data-event="${event}"]`, hasText ? { hasText } : {});

  /** The assistant's text, whether it streamed (MessageDisplay) or came with Stop. */
  const assistant = (text: string) => page.locator('#timeline li.assistant', { hasText: text });

  const connected = () => page.locator('#connection', { hasText: /^connected$/ }).waitFor();

  /** Every seq the timeline shows (a tool row shows its PreToolUse and its result). */
  const shownSeqs = async () =>
    (
      await page.$$eval('#timeline li', (items) =>
        items.flatMap((item) =>
          [item.getAttribute('data-seq'), item.getAttribute('data-result-seq')]
            .filter((seq): seq is string => seq !== null)
            .map(Number),
        ),
      )
    ).sort((a, b) => a - b);

  /** The seqs the hub stored for the session, but for MessageDisplay batches after a message's first. */
  async function storedSeqs(): Promise<number[]> {
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { seq ... on MessageDisplayEvent { messageId } } } }`,
      { id: sessionId },
    );
    const streamed = new Set<string>();
    return (session.events as { seq: number; messageId?: string | null }[])
      .filter((event) => {
        if (!event.messageId) return true;
        if (streamed.has(event.messageId)) return false;
        streamed.add(event.messageId);
        return true;
      })
      .map((event) => event.seq);
  }

  /** Waits until the timeline shows exactly the events the hub stored: each once, none missing. */
  async function expectWholeTimeline(): Promise<void> {
    await expect
      .poll(
        async () => {
          const [stored, shown] = [await storedSeqs(), await shownSeqs()];
          return shown.join() === stored.join() ? 'whole' : `shown ${shown}, stored ${stored}`;
        },
        { timeout: 10_000 },
      )
      .toBe('whole');
  }

  it('creates a session from the form, shows its events live, and allows its tool', async () => {
    await page.goto(`${hub.baseUrl}/`);
    await connected();

    const form = page.locator('#create-session');
    const cwd = world.makeCwd('dashboard');
    await form.locator('[name=cwd]').fill(cwd);
    await form.locator('[name=name]').fill('dash');
    await form.locator('[name=permissionMode]').selectOption('DEFAULT');
    await form.locator('[name=prompt]').fill('run: touch made-by-dashboard && echo dashboard-ok');
    await form.getByRole('button', { name: 'Start session' }).click();

    await rows('SessionStart').waitFor({ timeout: 30_000 });
    sessionId = decodeURIComponent(new URL(page.url()).hash.slice(1));
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await rows('UserPromptSubmit', 'run: touch made-by-dashboard && echo dashboard-ok').waitFor({
      timeout: 30_000,
    });

    // The request is held for a decision: in the attention queue first, and as a card.
    const card = page.locator('#permissions li.permission', { hasText: 'echo dashboard-ok' });
    await card.waitFor({ timeout: 30_000 });
    await page.locator(`#attention li.reason-PERMISSION[data-session-id="${sessionId}"]`).waitFor();
    expect(await page.locator('#attention li').first().getAttribute('data-session-id')).toBe(
      sessionId,
    );
    await rows('PermissionRequest', 'echo dashboard-ok').waitFor();
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { cwd attachCommand } }`,
      { id: sessionId },
    );
    const listed = page.locator(`#sessions li[data-session-id="${sessionId}"]`);
    await listed.locator('.badge', { hasText: 'AWAITING_PERMISSION' }).waitFor();
    expect(await listed.locator('.cwd').textContent()).toBe(session.cwd);
    expect(await listed.locator('.attach').textContent()).toBe(session.attachCommand);

    await card.getByRole('button', { name: 'Allow' }).click();
    await card.waitFor({ state: 'detached' });

    const tool = page.locator('#timeline li.tool.done[data-event="PreToolUse"]', {
      hasText: 'echo dashboard-ok',
    });
    await tool.waitFor({ timeout: 30_000 });
    expect(await tool.locator('.result').textContent()).toBe('dashboard-ok');
    expect(existsSync(path.join(cwd, 'made-by-dashboard'))).toBe(true);
    expect(await tool.locator('.outcome').textContent()).toMatch(/^took \d+(\.\d)? (ms|s)$/);
    await rows('HubPermissionResolved', 'allowed').waitFor();
    await assistant('ran: dashboard-ok').waitFor({ timeout: 30_000 });
    await rows('Stop').waitFor({ timeout: 30_000 });
    await listed.locator('.badge', { hasText: 'IDLE' }).waitFor();

    await expectWholeTimeline();

    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('reconnects after the hub restarts and resumes the timeline without repeats or gaps', async () => {
    expect(sessionId).toBeDefined();
    const seen = await shownSeqs();
    expect(timelineSubscriptions).toEqual([{ id: sessionId, after: 0 }]);
    await hub.stop();
    await page.locator('#connection', { hasText: 'reconnecting' }).waitFor();

    // The same port and data dir: the new hub adopts the session, which kept running in tmux.
    hub = await startFixedHub(true);
    await connected();

    await page.locator('#message').fill('after the restart');
    await page.getByRole('button', { name: 'Send' }).click();
    await rows('UserPromptSubmit', 'after the restart').waitFor({ timeout: 30_000 });
    await assistant('echo: after the restart').waitFor({ timeout: 30_000 });
    await rows('Stop').nth(1).waitFor({ timeout: 30_000 });

    expect(await rows('SessionStart').count()).toBe(1);
    expect(await rows('UserPromptSubmit', 'after the restart').count()).toBe(1);
    expect(await assistant('ran: dashboard-ok').count()).toBe(1);
    expect(await assistant('echo: after the restart').count()).toBe(1);
    await expectWholeTimeline();
    // It resubscribed once, after the last event it had shown.
    expect(timelineSubscriptions).toEqual([
      { id: sessionId, after: 0 },
      { id: sessionId, after: seen.at(-1) },
    ]);
    expect(pageErrors).toEqual([]);
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
    const denied = page.locator('#timeline li.tool', { hasText: 'denied-by-dashboard' });
    expect(await denied.locator('.outcome').textContent()).toBe('no result');
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

  afterAll(async () => {
    await browser?.close();
    await hub?.stop();
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
