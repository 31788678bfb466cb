import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { dashboardTimeline } from '../helpers/dashboard-timeline.js';
import { freePort } from '../../harness/free-port.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { killTmuxServer } from '../../harness/tmux-server.js';
import { disposeWithSuite, leftovers, outliveTest, tempDir } from '../helpers/leftovers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const screenshot = path.join(root, 'test/output/dashboard.png');

describe('the dashboard', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let dataDir: string;
  let socket: string;
  let port: number;
  let sessionId: string;
  const pageErrors: string[] = [];
  /** The variables of every subscription the page started for a timeline, by field. */
  const timelineSubscriptions: Record<string, Record<string, unknown>[]> = {
    sessionEvents: [],
    sessionActions: [],
    turns: [],
  };

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
    dataDir = tempDir('cch-dashboard-');
    socket = `cch-dashboard-${process.pid}`;
    // After the hubs: the tmux server that holds the sessions they hand on.
    leftovers.add(() => killTmuxServer(socket));
    port = await freePort();
    // The first hub leaves its sessions running when it stops, for the reconnection test.
    hub = await startFixedHub(false);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload));
        if (frame.type !== 'subscribe') return;
        for (const [field, seen] of Object.entries(timelineSubscriptions)) {
          if (frame.payload.query.includes(`${field}(`)) seen.push(frame.payload.variables);
        }
      }),
    );
  }, 120_000);

  const { rows, assistant, action, turnRow, shownSeqs, shownActions, shownTurns, lastActionSeq } =
    dashboardTimeline(() => page);

  const connected = () => page.locator('#connection', { hasText: /^connected$/ }).waitFor();

  /**
   * What the hub has for the session, as the timeline should show it: the seq of each stored
   * event but tool events and a streamed message's batches after its first, each action in its
   * latest phase, and each completed turn.
   */
  async function stored() {
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) {
        events(limit: 1000) { seq eventName ... on MessageDisplayEvent { messageId } }
        turns(last: 100) { id status actions { id phase seq } }
      } }`,
      { id: sessionId },
    );
    const toolEvents = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    const streamed = new Set<string>();
    const seqs = (session.events as { seq: number; eventName: string; messageId?: string | null }[])
      .filter((event) => {
        if (toolEvents.has(event.eventName)) return false;
        if (!event.messageId) return true;
        if (streamed.has(event.messageId)) return false;
        streamed.add(event.messageId);
        return true;
      })
      .map((event) => event.seq);
    const turns = session.turns as {
      id: string;
      status: string;
      actions: { id: string; phase: string; seq: number }[];
    }[];
    return {
      seqs,
      actions: turns.flatMap((turn) => turn.actions.map((a) => `${a.id} ${a.phase} ${a.seq}`)),
      turns: turns.filter((turn) => turn.status !== 'RUNNING').map((t) => `${t.id} ${t.status}`),
    };
  }

  /**
   * Waits until the timeline shows exactly what the hub stored: each event, action and turn
   * once, none missing, in the hub's order.
   */
  async function expectWholeTimeline(): Promise<void> {
    await expect
      .poll(
        async () => {
          const want = await stored();
          const shown = {
            seqs: await shownSeqs(),
            actions: await shownActions(),
            turns: await shownTurns(),
          };
          return JSON.stringify(shown) === JSON.stringify(want)
            ? 'whole'
            : `shown ${JSON.stringify(shown)}, stored ${JSON.stringify(want)}`;
        },
        { timeout: 10_000 },
      )
      .toBe('whole');
  }

  /** The summary row of a completed turn: its duration, tokens and resume line. */
  async function expectTurnSummary(number: number, claudeSessionId: string): Promise<void> {
    const summary = turnRow(number);
    await summary.waitFor({ timeout: 30_000 });
    expect(await summary.getAttribute('data-status')).toBe('COMPLETED');
    expect(await summary.locator('.label').textContent()).toBe(`turn ${number} completed`);
    expect(await summary.locator('.outcome').textContent()).toMatch(
      /^completed in \d+(\.\d)? (ms|s)$/,
    );
    for (const [field, label] of [
      ['input_tokens', 'input'],
      ['output_tokens', 'output'],
    ]) {
      const text = (await summary.locator(`.usage [data-usage="${field}"]`).textContent()) ?? '';
      expect(text).toMatch(new RegExp(`^${label} [\\d.,\\s]+$`));
      expect(Number(text.replace(/\D/g, ''))).toBeGreaterThan(0);
    }
    for (const field of ['cache_read_input_tokens', 'cache_creation_input_tokens']) {
      expect(await summary.locator(`.usage [data-usage="${field}"]`).textContent()).toMatch(
        /^cache (read|write) [\d.,\s]+$/,
      );
    }
    expect(await summary.locator('code.resume').textContent()).toBe(
      `claude --resume ${claudeSessionId}`,
    );
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
      `query($id: ID!) { session(id: $id) { cwd attachCommand claudeSessionId } }`,
      { id: sessionId },
    );
    const listed = page.locator(`#sessions li[data-session-id="${sessionId}"]`);
    await listed.locator('.badge', { hasText: 'AWAITING_PERMISSION' }).waitFor();
    expect(await listed.locator('.cwd').textContent()).toBe(session.cwd);
    expect(await listed.locator('.attach').textContent()).toBe(session.attachCommand);

    // The tool call's row, running while the request waited, is updated in place when done.
    const tool = action('COMMAND', 'echo dashboard-ok');
    expect(await tool.getAttribute('class')).toBe('event action running');
    expect(await tool.locator('.outcome').textContent()).toMatch(/^running for /);
    await card.getByRole('button', { name: 'Allow' }).click();
    await card.waitFor({ state: 'detached' });
    await page.locator('#timeline li.action.done').waitFor({ timeout: 30_000 });
    expect(await tool.count()).toBe(1);
    expect(await tool.locator('.label').textContent()).toBe('command');
    expect(await tool.locator('pre.title').textContent()).toBe(
      'touch made-by-dashboard && echo dashboard-ok',
    );
    expect(await tool.locator('.output').textContent()).toBe('dashboard-ok');
    expect(existsSync(path.join(cwd, 'made-by-dashboard'))).toBe(true);
    expect(await tool.locator('.outcome').textContent()).toMatch(/^took \d+(\.\d)? (ms|s)$/);
    await rows('HubPermissionResolved', 'allowed').waitFor();
    await assistant('ran: dashboard-ok').waitFor({ timeout: 30_000 });
    await rows('Stop').waitFor({ timeout: 30_000 });
    await listed.locator('.badge', { hasText: 'IDLE' }).waitFor();

    // The turn's summary comes after its Stop: the whole run reads in order.
    await expectTurnSummary(1, session.claudeSessionId);
    const order = [
      'SessionStart',
      'UserPromptSubmit',
      'COMMAND',
      'PermissionRequest',
      'HubPermissionResolved',
      'Stop',
      'COMPLETED',
    ];
    const shownOrder = await page.$$eval('#timeline li', (items) =>
      items.map((item) => item.dataset.event ?? item.dataset.kind ?? item.dataset.status ?? ''),
    );
    expect(shownOrder.filter((name) => order.includes(name))).toEqual(order);
    await expectWholeTimeline();

    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });

    // At phone width nothing is wider than the screen, and a row's body has the width to read.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    expect(
      await page.$eval('#timeline', (timeline) => timeline.scrollWidth - timeline.clientWidth),
    ).toBe(0);
    expect((await tool.locator('.body').boundingBox())?.width).toBeGreaterThan(250);
    expect((await turnRow(1).locator('code.resume').boundingBox())?.width).toBeGreaterThan(250);
    await page.setViewportSize({ width: 1400, height: 1000 });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('reconnects after the hub restarts and resumes the timeline without repeats or gaps', async () => {
    expect(sessionId).toBeDefined();
    const seen = await shownSeqs();
    const actionSeq = await lastActionSeq();
    const turnAt = await turnRow(1).locator('time').getAttribute('datetime');
    expect(actionSeq).toBeGreaterThan(0);
    expect(turnAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(timelineSubscriptions).toEqual({
      sessionEvents: [{ id: sessionId, after: 0 }],
      sessionActions: [{ id: sessionId, after: 0 }],
      turns: [{ sessionId, after: new Date(0).toISOString() }],
    });
    await hub.stop();
    await page.locator('#connection', { hasText: 'reconnecting' }).waitFor();

    // The same port and data dir: the new hub adopts the session, which kept running in tmux.
    // It serves the tests after this one too.
    hub = await outliveTest(() => startFixedHub(true));
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
    const { session } = await hub.data(`query($id: ID!) { session(id: $id) { claudeSessionId } }`, {
      id: sessionId,
    });
    await expectTurnSummary(2, session.claudeSessionId);
    expect(await action('COMMAND', 'echo dashboard-ok').count()).toBe(1);
    expect(await turnRow(1).count()).toBe(1);
    await expectWholeTimeline();
    // Each stream resubscribed once, from where it was: events after the last one shown,
    // actions from the seq before the last phase's (phases may share a seq; those are not shown
    // twice), turns after the last one's completion.
    expect(timelineSubscriptions).toEqual({
      sessionEvents: [
        { id: sessionId, after: 0 },
        { id: sessionId, after: seen.at(-1) },
      ],
      sessionActions: [
        { id: sessionId, after: 0 },
        { id: sessionId, after: actionSeq - 1 },
      ],
      turns: [
        { sessionId, after: new Date(0).toISOString() },
        { sessionId, after: turnAt },
      ],
    });
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
