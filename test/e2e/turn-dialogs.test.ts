import { describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { buildDashboard, launchChromium } from '../helpers/chromium.js';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';
import { startHub, type TestHub } from '../helpers/hub.js';

/**
 * Dialogs that hold a turn where no hook reports them, with the real CLI against the stand-in at
 * a custom ANTHROPIC_BASE_URL (as every test runs it): auto mode, the CLI's default, cannot
 * check a tool call there and asks what to do; a permission nobody decides in time is left to
 * the terminal's dialog.
 */

const autoModeDialog = "Auto mode can't check actions in this session";
const autoModeHint =
  'Enter to stay in auto mode · shift+Tab to leave for accept edits mode and stop · Esc to cancel';
const question = JSON.stringify({
  questions: [
    {
      question: 'Which colour?',
      header: 'Colour',
      multiSelect: false,
      options: [
        { label: 'Red', description: 'warm' },
        { label: 'Blue', description: 'cool' },
      ],
    },
  ],
});

const sessionFields = 'id status blockedReason error';
const eventFields = `seq eventName payload
  ... on PostToolUseEvent { toolResponse }
  ... on StopEvent { lastAssistantMessage }`;

/** A session of `hub`, IDLE, and live feeds of its updates and events. */
async function startSession(hub: TestHub, cwd: string, mode: string | null, runtime = 'TMUX') {
  const { createSession: session } = await hub.data(
    `mutation($cwd: String!, $mode: PermissionMode, $runtime: SessionRuntime) {
      createSession(input: { cwd: $cwd, permissionMode: $mode, runtime: $runtime }) { id status permissionMode }
    }`,
    { cwd, mode, runtime },
  );
  expect(session).toMatchObject({ status: 'IDLE', permissionMode: mode });
  const updates = hub.subscribe(`subscription { sessionUpdates { ${sessionFields} } }`);
  const events = hub.subscribe(
    `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { ${eventFields} } }`,
    { id: session.id },
  );
  const mine = (update: any) => update.sessionUpdates.id === session.id;
  return {
    id: session.id as string,
    events,
    /** Waits for an update of this session in `status`; returns it. */
    status: async (status: string, timeoutMs = 30_000) =>
      (await updates.until((u) => mine(u) && u.sessionUpdates.status === status, timeoutMs)).at(-1)!
        .sessionUpdates,
    /** The statuses this session's updates carried so far, each change once. */
    statuses: () =>
      updates.received
        .filter(mine)
        .map((u) => u.sessionUpdates.status as string)
        .filter((status, i, all) => status !== all[i - 1]),
    send: (text: string) =>
      hub.data(
        `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
        {
          id: session.id,
          text,
        },
      ),
    answer: (choice: Record<string, unknown>) =>
      hub.gql(
        `mutation($id: ID!, $choice: DialogChoice!) { answerDialog(sessionId: $id, choice: $choice) { ${sessionFields} } }`,
        { id: session.id, choice },
      ),
  };
}

describe('a turn held by a dialog', () => {
  const suite = claudeHubSuite();

  it("is BLOCKED with auto mode's dialog, in attention with its text, and goes on once answered", async () => {
    const { hub } = suite;
    const attention = hub.subscribe(
      `subscription { attention { raised { reason dialog session { id } } } }`,
    );
    const session = await startSession(hub, suite.world.makeCwd(), null);
    await session.send('run: ls -la /tmp | head -5');

    const blocked = await session.status('BLOCKED');
    expect(blocked.blockedReason).toBe('DIALOG');
    expect(blocked.error.split('\n')[0]).toBe(autoModeDialog);
    expect(blocked.error.split('\n').at(-1)).toBe(autoModeHint);
    expect(session.statuses()).toEqual(['BUSY', 'BLOCKED']);
    const { attention: items } = await hub.data(`{ attention { reason dialog session { id } } }`);
    expect(items).toContainEqual({
      reason: 'BLOCKED',
      dialog: blocked.error,
      session: { id: session.id },
    });
    const raised = await attention.until((u) =>
      u.attention.raised.some(
        (item: any) => item.session.id === session.id && item.reason === 'BLOCKED',
      ),
    );
    expect(raised.at(-1)!.attention.raised).toContainEqual({
      reason: 'BLOCKED',
      dialog: blocked.error,
      session: { id: session.id },
    });

    // It offers keys, no list.
    const noList = await session.answer({ option: 1 });
    expect(noList.errors?.[0]).toMatchObject({
      message: `the dialog offers no list to choose from, only keys: ${autoModeHint}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });

    // Staying in auto mode, claude asks for this call itself: a dialog of its own, no hook.
    const stayed = (await session.answer({ key: 'ENTER' })).data!.answerDialog;
    expect(stayed).toMatchObject({ status: 'BLOCKED', blockedReason: 'DIALOG' });
    expect(stayed.error).toContain(`${autoModeDialog}, so this one needs your approval`);
    expect(stayed.error).toMatch(/Do you want to proceed\?\n❯ No\n {2}Yes\n\nEsc to cancel/);
    const { permissionRequests } = await hub.data(`{ permissionRequests { id } }`);
    expect(permissionRequests).toEqual([]);

    const allowed = (await session.answer({ option: 2 })).data!.answerDialog;
    expect(['BUSY', 'IDLE'], JSON.stringify(allowed)).toContain(allowed.status);
    expect(allowed).toMatchObject({ blockedReason: null, error: null });
    const turn = (
      await session.events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)
    ).map((e) => e.sessionEvents);
    const ran = turn.find((e) => e.eventName === 'PostToolUse');
    expect(ran.toolResponse.stdout).toMatch(/^total \d+\n/);
    expect(turn.at(-1).lastAssistantMessage).toBe(`ran: ${ran.toolResponse.stdout.trim()}`);
    await session.status('IDLE', 10_000);
    expect(session.statuses()).toEqual(['BUSY', 'BLOCKED', 'BUSY', 'IDLE']);

    const { audit } = await hub.data(
      `query($id: ID!) { audit(sessionId: $id) { action outcome detail } }`,
      { id: session.id },
    );
    expect(audit.filter((entry: any) => entry.action === 'answerDialog')).toEqual([
      { action: 'answerDialog', outcome: 'BAD_USER_INPUT', detail: { option: 1 } },
      { action: 'answerDialog', outcome: 'ok', detail: { key: 'Enter' } },
      { action: 'answerDialog', outcome: 'ok', detail: { option: 2 } },
    ]);
    attention.dispose();
  });

  it('ends the turn as interrupted when Esc cancels the dialog (claude fires no Stop)', async () => {
    const session = await startSession(suite.hub, suite.world.makeCwd(), 'AUTO');
    await session.send('run: ls -la /tmp | head -5');
    await session.status('BLOCKED');
    await session.answer({ key: 'ESCAPE' });
    await session.status('IDLE', 15_000);
    const events = session.events.received.map((e) => e.sessionEvents);
    expect(events.map((e) => e.eventName)).not.toContain('Stop');
    expect(events.at(-1)).toMatchObject({
      eventName: 'HubTurnEnded',
      payload: { reason: 'interrupted' },
    });
    const { session: after } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { status blockedReason error } }`,
      { id: session.id },
    );
    expect(after).toEqual({ status: 'IDLE', blockedReason: null, error: null });
    // Nothing to answer now.
    const none = await session.answer({ key: 'ENTER' });
    expect(none.errors?.[0]).toMatchObject({
      message: `session ${session.id} shows no dialog to answer`,
      extensions: { code: 'NO_DIALOG' },
    });
  });

  it('shows in the dashboard, which notifies with the first line of the dialog', async () => {
    await buildDashboard();
    const browser = await launchChromium();
    const page = await browser.newPage();
    // A stand-in for the browser's notifications, already allowed, that keeps what it shows.
    await page.addInitScript(() => {
      const shown: { title: string; body: string }[] = [];
      (window as any).shownNotifications = shown;
      (window as any).Notification = class {
        static permission = 'granted';
        constructor(title: string, options: { body: string }) {
          shown.push({ title, body: options.body });
        }
        addEventListener() {}
      };
    });
    await page.goto(`${suite.hub.baseUrl}/`);
    await page.locator('#attention').waitFor();
    const session = await startSession(suite.hub, suite.world.makeCwd(), null);
    await session.send('run: ls -la /tmp | head -5');
    await session.status('BLOCKED');
    const row = page.locator(`#attention li.reason-BLOCKED[data-session-id="${session.id}"]`);
    await expect.poll(() => row.locator('.detail').textContent()).toBe(autoModeDialog);
    await expect
      .poll(() => page.evaluate(() => (window as any).shownNotifications))
      .toContainEqual({ title: `${session.id.slice(0, 8)} is blocked`, body: autoModeDialog });
    // Stopped while it waits, it ends as a started claude does: with its SessionEnd.
    const { stopSession } = await suite.hub.data(
      `mutation($id: ID!) { stopSession(id: $id) { status blockedReason error } }`,
      { id: session.id },
    );
    expect(stopSession).toEqual({ status: 'STOPPED', blockedReason: null, error: null });
    await session.events.until((e) => e.sessionEvents.eventName === 'SessionEnd', 5000);
    await expect.poll(() => row.count()).toBe(0);
  });

  it('leaves a HEADLESS session to the CLI: auto mode refuses the call, and the turn ends', async () => {
    const session = await startSession(suite.hub, suite.world.makeCwd(), 'AUTO', 'HEADLESS');
    await session.send('run: ls -la /tmp | head -5');
    const turn = (
      await session.events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)
    ).map((e) => e.sessionEvents);
    const denied = turn.find(
      (e) => e.eventName === 'StreamMessage' && e.payload.subtype === 'permission_denied',
    );
    expect(denied.payload.message).toMatchObject({
      tool_name: 'Bash',
      decision_reason_code: 'auto_mode_no_check_in_session',
    });
    expect(turn.map((e) => e.eventName)).not.toContain('PostToolUse');
    expect(turn.at(-1).lastAssistantMessage).toMatch(/^tool error: Auto mode is unavailable/);
    await session.status('IDLE', 10_000);
    expect(session.statuses()).not.toContain('BLOCKED');
    const answered = await session.answer({ key: 'ENTER' });
    expect(answered.errors?.[0]?.extensions).toMatchObject({ code: 'NO_TERMINAL' });
  });

  it('is BLOCKED on a permission nobody decided in time, whose dialog is left to the terminal', async () => {
    const { world } = suite;
    const hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--permission-hold', '1'],
    });
    const session = await startSession(hub, world.makeCwd(), 'DEFAULT');
    // AskUserQuestion asks through the PermissionRequest hook first: AWAITING_PERMISSION.
    await session.send(`tool: AskUserQuestion ${question}`);
    const asked = await session.status('BLOCKED');
    expect(asked.error).toMatch(
      /^☐ Colour\n\nWhich colour\?\n\n❯ 1\. Red\n {5}warm\n {2}2\. Blue\n {5}cool\n/,
    );
    const { permissionRequests } = await hub.data(`{ permissionRequests { status toolName } }`);
    expect(permissionRequests).toEqual([{ status: 'EXPIRED', toolName: 'AskUserQuestion' }]);
    await session.answer({ option: 2 });
    const turn = (
      await session.events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)
    ).map((e) => e.sessionEvents);
    expect(turn.at(-1).lastAssistantMessage).toMatch(/"Which colour\?"="Blue"/);
    await session.status('IDLE', 10_000);

    // A tool call manual mode asks for: claude's own permission dialog, after the hold.
    const target = `${world.makeUntrustedCwd()}/made.txt`;
    await session.send(`run: touch ${target} && echo made`);
    const proceed = await session.status('BLOCKED');
    expect(proceed.error).toContain(`touch ${target} && echo made`);
    expect(proceed.error).toMatch(/Do you want to proceed\?\n❯ 1\. Yes\n/);
    await session.answer({ option: 1 });
    const ran = (
      await session.events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)
    ).map((e) => e.sessionEvents);
    expect(ran.at(-1).lastAssistantMessage).toBe('ran: made');
    // Each waits on the API first, then, its hold over, on the terminal.
    const waits = ['BUSY', 'AWAITING_PERMISSION', 'BUSY', 'BLOCKED', 'BUSY', 'IDLE'];
    expect(session.statuses()).toEqual([...waits, ...waits]);
  });
});
