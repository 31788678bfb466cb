import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { killTmuxServer, paneFormat } from '../../harness/tmux-server.js';
import { inputBoxText } from '../../src/runtime/screen.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import type { LiveQueue } from '../helpers/live-queue.js';
import { leftovers, tempDir } from '../helpers/leftovers.js';

/** What the page's Notification constructor was called with, recorded by an init script. */
interface Raised {
  title: string;
  body: string;
  tag: string;
}

/** One sendTerminalInput the page sent, and how many were on their way with it (itself too). */
interface SentInput {
  sessionId: string;
  data: string;
  paste: boolean;
  inFlightWithIt: number;
}

interface Created {
  id: string;
  tmuxSession: string;
}

type Events = LiveQueue<{ sessionEvents: { eventName: string; payload: Record<string, unknown> } }>;

/** Lines as text to compare: trailing blanks of each line, and blank lines at the end, left out. */
function trimmed(lines: readonly string[]): string {
  return lines
    .map((line) => line.replace(/\u00a0/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

describe("a session's terminal in the dashboard", () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let outside: string;
  let first: Created;
  let second: Created;
  let firstEvents: Events;
  const pageErrors: string[] = [];
  const sent: SentInput[] = [];
  /** The session of each sessionTerminal subscription the page started, by graphql-ws id. */
  const terminalSubscriptions = new Map<string, string>();
  /** The graphql-ws id of every subscription the page ended. */
  const completedSubscriptions: string[] = [];

  beforeAll(async () => {
    await buildDashboard();
    world = await startClaudeWorld();
    // After the hub stops: the tmux server that held its sessions.
    leftovers.add(() => hub && killTmuxServer(hub.config.tmuxSocket));
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    outside = tempDir('cch-dashboard-terminal-');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.grantPermissions(['notifications'], { origin: hub.baseUrl });
    await context.addInitScript(() => {
      const raised: Raised[] = [];
      const shown: Notification[] = [];
      Object.defineProperty(window, 'raisedNotifications', { value: raised });
      Object.defineProperty(window, 'shownNotifications', { value: shown });
      class RecordedNotification extends window.Notification {
        constructor(title: string, options: NotificationOptions = {}) {
          super(title, options);
          raised.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
          shown.push(this);
        }
      }
      window.Notification = RecordedNotification;
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const inFlight = new Set<unknown>();
    page.on('request', (request) => {
      const body = request.postDataJSON() as {
        query?: string;
        variables?: { sessionId: string; data: string; paste?: boolean };
      } | null;
      if (!body?.query?.includes('sendTerminalInput(') || !body.variables) return;
      inFlight.add(request);
      const { sessionId, data, paste = false } = body.variables;
      sent.push({ sessionId, data, paste, inFlightWithIt: inFlight.size });
    });
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => inFlight.delete(request));
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload));
        if (frame.type === 'subscribe' && frame.payload.query.includes('sessionTerminal('))
          terminalSubscriptions.set(frame.id, frame.payload.variables.id);
        if (frame.type === 'complete') completedSubscriptions.push(frame.id);
      }),
    );
  }, 120_000);

  const panel = () => page.locator('#session .terminal-panel');
  const controlSwitch = () => panel().getByRole('switch', { name: 'Take control' });
  const status = (text: string | RegExp) => panel().locator('.terminal-status', { hasText: text });

  /** The rows the browser's terminal draws, as text. */
  const shown = async () =>
    trimmed(
      await page.$$eval('#session .terminal-panel .xterm-rows > div', (rows) =>
        rows.map((row) => row.textContent ?? ''),
      ),
    );

  /** What the hub reads from the session's pane. */
  const paneScreen = async (id: string) => {
    const { session } = await hub.data(`query($id: ID!) { session(id: $id) { screen } }`, { id });
    return trimmed((session.screen as string).split('\n'));
  };

  /** Waits until the browser's terminal shows what `done` wants; returns that screen. */
  const until = (done: (screen: string) => boolean, timeout = 30_000) =>
    vi.waitFor(
      async () => {
        const screen = await shown();
        if (!done(screen)) throw new Error(`the browser's terminal shows:\n${screen}`);
        return screen;
      },
      { timeout, interval: 100 },
    );

  /** Waits until the browser's terminal shows, row for row, what tmux shows in the pane. */
  const showsPane = (id: string) =>
    vi.waitFor(
      async () => {
        const [browserScreen, pane] = await Promise.all([shown(), paneScreen(id)]);
        expect(browserScreen).toBe(pane);
        return pane;
      },
      { timeout: 15_000, interval: 100 },
    );

  /** tmux's own view of the pane's size. */
  const paneSize = (session: Created) =>
    paneFormat(hub.config.tmuxSocket, session.tmuxSession, '#{pane_width} x #{pane_height}');

  async function newSession(name: string): Promise<Created> {
    const { createSession } = await hub.data(
      `mutation($cwd: String!, $name: String!) { createSession(input: { cwd: $cwd, name: $name, permissionMode: DEFAULT }) { id tmuxSession status } }`,
      { cwd: world.makeCwd(name), name },
    );
    expect(createSession.status).toBe('IDLE');
    return createSession;
  }

  const eventsOf = (id: string): Events =>
    hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { eventName payload } }`,
      { id },
    );

  const raised = () =>
    page.evaluate(
      () => (window as unknown as { raisedNotifications: Raised[] }).raisedNotifications,
    );

  /** The tab title the page should show for the hub's attention queue now. */
  async function expectTitleCount(): Promise<void> {
    await expect
      .poll(async () => {
        const { attention } = await hub.data(`{ attention { reason } }`);
        const want = attention.length ? `(${attention.length}) claude-code-hub` : 'claude-code-hub';
        return (await page.title()) === want ? 'same' : `${await page.title()} != ${want}`;
      })
      .toBe('same');
  }

  it("shows the running session's terminal as tmux draws it, read-only at the pane's size", async () => {
    first = await newSession('first');
    firstEvents = eventsOf(first.id);
    await page.goto(`${hub.baseUrl}/#${first.id}`);
    await page.locator('#connection', { hasText: /^connected$/ }).waitFor();

    await until((screen) => inputBoxText(screen) === '');
    const pane = await showsPane(first.id);
    expect(pane).toMatch(/Claude Code v/);
    await status('Read-only, 200 x 50: take control to type.').waitFor();
    expect(await paneSize(first)).toBe('200 x 50');
    expect(await panel().getAttribute('data-cols')).toBe('200');
    expect(await panel().getAttribute('data-rows')).toBe('50');
    expect(await controlSwitch().isChecked()).toBe(false);

    // The pane's 200 columns fit the panel in a smaller font, no smaller than readable.
    const fit = await page.$eval('#session .terminal-panel', (element) => {
      const frame = element.querySelector('.terminal-frame')!;
      const screen = element.querySelector('.xterm-screen')!;
      return {
        font: parseFloat(getComputedStyle(element.querySelector('.xterm-rows')!).fontSize),
        screenWidth: screen.getBoundingClientRect().width,
        frameWidth: frame.clientWidth,
      };
    });
    expect(fit.font).toBeGreaterThanOrEqual(7);
    expect(fit.font).toBeLessThan(13);
    expect(fit.screenWidth).toBeLessThanOrEqual(fit.frameWidth);

    // Read-only: keys pressed in the terminal go nowhere.
    await panel().locator('.xterm-screen').click();
    await page.keyboard.type('x');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe(
      'xterm-helper-textarea',
    );
    expect(sent).toEqual([]);
    expect(inputBoxText(await paneScreen(first.id))).toBe('');

    // Notifications are allowed here, so the button that asks for them is gone.
    expect(await page.locator('#notify-me').isHidden()).toBe(true);
    await expectTitleCount();
    expect(await page.title()).toBe('(1) claude-code-hub');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('takes control: the pane takes the panel size, and keys typed there start a turn', async () => {
    // A slow hub: keys typed while one input is on its way go together in the next, and the
    // status says the pane is being sized until its new size is there.
    await page.route('**/graphql', async (route) => {
      if (/(sendTerminalInput|resizeTerminal)\(/.test(route.request().postData() ?? '')) {
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await route.continue();
    });
    await controlSwitch().check();
    await status(/^In control, \d+ x \d+: your keys go to the session\.$/).waitFor();
    const cols = Number(await panel().getAttribute('data-cols'));
    const rows = Number(await panel().getAttribute('data-rows'));
    expect(cols).toBeGreaterThan(80);
    expect(cols).toBeLessThan(200);
    expect(await paneSize(first)).toBe(`${cols} x ${rows}`);
    // claude redrew for the new width, and the browser shows that.
    await until((screen) => inputBoxText(screen) === '');
    await showsPane(first.id);

    const typed = 'hello from the browser terminal';
    await page.keyboard.type(typed);
    await until((screen) => inputBoxText(screen) === typed);
    await page.keyboard.press('Enter');
    const turn = await firstEvents.until((e) => e.sessionEvents.eventName === 'Stop', 60_000);
    const prompt = turn.find((e) => e.sessionEvents.eventName === 'UserPromptSubmit');
    expect(prompt?.sessionEvents.payload.prompt).toBe(typed);
    await page
      .locator('#timeline li[data-event="UserPromptSubmit"]', { hasText: typed })
      .waitFor({ timeout: 10_000 });
    await until((screen) => screen.includes(`echo: ${typed}`));

    // Every key went, in order, with never two inputs on their way at once.
    expect(sent.map((input) => input.data).join('')).toBe(`${typed}\r`);
    expect(sent.every((input) => input.sessionId === first.id && !input.paste)).toBe(true);
    expect(Math.max(...sent.map((input) => input.inFlightWithIt))).toBe(1);
    expect(sent.length).toBeLessThan(typed.length);
    await page.unroute('**/graphql');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('answers a permission dialog with keys in the browser, and notifies of the request', async () => {
    const target = path.join(outside, 'made-in-the-browser.txt');
    // Pasted, its line break stays in claude's box: one paste, not keys that would submit it.
    const prompt = `please\nrun: touch ${target} && echo made`;
    await page.evaluate((text) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', text);
      document
        .querySelector('#session .xterm-helper-textarea')!
        .dispatchEvent(
          new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
        );
    }, prompt);
    await until((screen) => inputBoxText(screen) === prompt);
    expect(sent.at(-1)).toEqual({
      sessionId: first.id,
      data: prompt,
      paste: true,
      inFlightWithIt: 1,
    });
    await page.keyboard.press('Enter');
    const asked = await firstEvents.until(
      (e) => e.sessionEvents.eventName === 'PermissionRequest',
      60_000,
    );
    expect(
      asked.find((e) => e.sessionEvents.eventName === 'UserPromptSubmit')?.sessionEvents.payload
        .prompt,
    ).toBe(prompt);

    // The hub raised the request: a notification names the session and the tool.
    await expect.poll(raised, { timeout: 10_000 }).toContainEqual({
      title: 'first asks for permission',
      body: `Bash: touch ${target} && echo made`,
      tag: `${first.id}:PERMISSION`,
    });
    await expectTitleCount();
    expect(await page.title()).toBe('(1) claude-code-hub');

    await until((screen) => /Do you want to proceed\?/.test(screen));
    await showsPane(first.id);
    // claude drops keys pressed in the instant its dialog appears; a person reads it first.
    await page.waitForTimeout(700);
    await page.keyboard.press('1');
    const turn = await firstEvents.until((e) => e.sessionEvents.eventName === 'Stop', 60_000);
    const ran = turn.find((e) => e.sessionEvents.eventName === 'PostToolUse');
    expect(ran?.sessionEvents.payload.tool_name).toBe('Bash');
    expect(existsSync(target)).toBe(true);
    await until((screen) => screen.includes('ran: made'));

    // The finished turn is news too: the session waits again, with claude's last words.
    await expect.poll(raised, { timeout: 10_000 }).toContainEqual({
      title: 'first is waiting for you',
      body: 'ran: made',
      tag: `${first.id}:IDLE`,
    });
    await expectTitleCount();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('fits a phone: no horizontal scroll, the terminal in view, the pane at its width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // In control, the pane follows the panel to the phone's width.
    await expect
      .poll(async () => Number(await panel().getAttribute('data-cols')), { timeout: 15_000 })
      .toBeLessThan(60);
    const cols = Number(await panel().getAttribute('data-cols'));
    expect(cols).toBeGreaterThanOrEqual(20);
    await expect.poll(() => paneSize(first)).toMatch(new RegExp(`^${cols} x \\d+$`));
    await until((screen) => inputBoxText(screen) === '');
    await showsPane(first.id);

    const layout = () =>
      page.evaluate(() => {
        const frame = document.querySelector('#session .terminal-frame')!;
        const box = frame.getBoundingClientRect();
        return {
          page: document.documentElement.scrollWidth - window.innerWidth,
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
          font: parseFloat(getComputedStyle(frame.querySelector('.xterm-rows')!).fontSize),
        };
      });
    const inControl = await layout();
    expect(inControl.page).toBeLessThanOrEqual(0);
    expect(inControl.left).toBeGreaterThanOrEqual(0);
    expect(inControl.right).toBeLessThanOrEqual(390);
    // The open session comes first on a phone: its terminal is on the first screen.
    expect(inControl.top).toBeLessThan(844);
    expect(inControl.bottom).toBeGreaterThan(0);
    expect(inControl.font).toBe(13);
    expect(await page.$eval('#session .terminal-frame', (f) => f.scrollWidth - f.clientWidth)).toBe(
      0,
    );

    // Released, it is read-only again: still nothing wider than the phone.
    await controlSwitch().uncheck();
    await status(/^Read-only/).waitFor();
    const readOnly = await layout();
    expect(readOnly.page).toBeLessThanOrEqual(0);
    expect(readOnly.right).toBeLessThanOrEqual(390);
    expect(readOnly.font).toBeGreaterThanOrEqual(7);
    expect(await page.locator('#session .xterm-rows').isVisible()).toBe(true);
    await page.setViewportSize({ width: 1400, height: 1000 });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('follows the open session: leaves the last one, ends with it, and comes back on resume', async () => {
    second = await newSession('second');
    const firstSubscription = [...terminalSubscriptions].find(([, id]) => id === first.id)?.[0];
    await page.locator(`#sessions li[data-session-id="${second.id}"] button.link`).click();
    await until((screen) => screen.includes('second-') && inputBoxText(screen) === '');
    // Read-only at the pane's size, whatever tmux gave it.
    await status(`Read-only, ${await paneSize(second)}: take control to type.`).waitFor();
    expect(await showsPane(second.id)).toMatch(/second-\d+/);
    expect(completedSubscriptions).toContain(firstSubscription);
    expect([...terminalSubscriptions.values()].filter((id) => id === second.id)).toHaveLength(1);

    const view = page.locator('#session');
    await view.getByRole('button', { name: 'Stop' }).click();
    await status(/^The terminal ended with the session's tmux session/).waitFor({
      timeout: 30_000,
    });
    expect(await controlSwitch().isDisabled()).toBe(true);

    await view.getByRole('button', { name: 'Resume' }).click();
    await status(/^Read-only, \d+ x \d+: take control to type\.$/).waitFor({ timeout: 30_000 });
    expect(await status(/^Read-only/).textContent()).toBe(
      `Read-only, ${await paneSize(second)}: take control to type.`,
    );
    // A new subscription after the stop (one more if the first came while claude was starting).
    expect(
      [...terminalSubscriptions.values()].filter((id) => id === second.id).length,
    ).toBeGreaterThanOrEqual(2);
    await until((screen) => inputBoxText(screen) === '');
    await showsPane(second.id);

    // Clicking the notification of the first session's finished turn opens it again.
    await page.evaluate((tag) => {
      const shown = (window as unknown as { shownNotifications: Notification[] })
        .shownNotifications;
      shown.find((notification) => notification.tag === tag)?.dispatchEvent(new Event('click'));
    }, `${first.id}:IDLE`);
    await expect.poll(() => new URL(page.url()).hash).toBe(`#${first.id}`);
    await until((screen) => screen.includes('ran: made'));
    await showsPane(first.id);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('keeps the size a terminal attached in tmux sets, and says so', async () => {
    await page.locator(`#sessions li[data-session-id="${second.id}"] button.link`).click();
    await status(/^Read-only/).waitFor();
    // A person's terminal of 120 x 40 attached to the session: tmux takes a row for its status.
    const person: ResultPromise = execa(
      'script',
      [
        '-q',
        '-c',
        `stty cols 120 rows 40; exec tmux -L ${hub.config.tmuxSocket} attach -t ${second.tmuxSession}`,
        '/dev/null',
      ],
      { stdin: 'pipe', stdout: 'ignore', stderr: 'ignore', reject: false },
    );
    try {
      await expect.poll(() => paneSize(second), { timeout: 15_000 }).toBe('120 x 39');
      await status('Read-only, 120 x 39: take control to type.').waitFor();
      await controlSwitch().check();
      await status('In control, 120 x 39: a terminal attached in tmux sets the size.').waitFor();
      expect(await paneSize(second)).toBe('120 x 39');
      await until((screen) => inputBoxText(screen) === '');
      await showsPane(second.id);
    } finally {
      person.kill();
      await person;
    }
    await controlSwitch().uncheck();
    expect(pageErrors).toEqual([]);
  });

  it('shows no terminal for a HEADLESS session', async () => {
    const { createSession: headless } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, runtime: HEADLESS }) { id } }`,
      { cwd: world.makeCwd('headless') },
    );
    await page.locator(`#sessions li[data-session-id="${headless.id}"] button.link`).click();
    await page.locator('#session dd.runtime', { hasText: 'HEADLESS' }).waitFor();
    expect(await panel().isHidden()).toBe(true);
    expect([...terminalSubscriptions.values()]).not.toContain(headless.id);
    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { status } }`, { id: headless.id });
    expect(pageErrors).toEqual([]);
  });

  it('asks for permission to notify from the header, and hides the button once answered', async () => {
    const asking = await browser.newContext();
    try {
      const fresh = await asking.newPage();
      await fresh.goto(`${hub.baseUrl}/`);
      const button = fresh.getByRole('button', { name: 'Notify me' });
      expect(await fresh.evaluate(() => Notification.permission)).toBe('default');
      await button.click();
      await button.waitFor({ state: 'hidden' });
      // Headless chromium answers the request itself, with a refusal.
      expect(await fresh.evaluate(() => Notification.permission)).toBe('denied');
    } finally {
      await asking.close();
    }
  });
});
