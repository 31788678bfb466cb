import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { answerDialog } from '../helpers/tmux-probe.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const requestFields =
  'id sessionId toolName toolInput suggestions requestedAt status decidedAt message eventSeq';
const eventFields = `__typename seq eventName
  ... on PostToolUseEvent { toolResponse }
  ... on StopEvent { lastAssistantMessage }
  ... on HubPermissionResolvedEvent { requestId status message }`;

describe('permission requests answered through the API', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let outside: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    outside = world.makeUntrustedCwd();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
  });

  /** Creates a session, runs `beforeMessage` on it, and sends a message claude must ask for. */
  async function startTurn(
    h: TestHub,
    file: string,
    beforeMessage: (sessionId: string) => Promise<unknown> = async () => undefined,
  ) {
    const { createSession: session } = await h.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: DEFAULT }) { id tmuxSession } }`,
      { cwd: world.makeCwd() },
    );
    await beforeMessage(session.id);
    const events = h.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { ${eventFields} } }`,
      { id: session.id },
    );
    const target = path.join(outside, file);
    await h.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      {
        id: session.id,
        text: `run: touch ${target} && echo made-${file}`,
      },
    );
    const [request] = (
      await events.until((e) => e.sessionEvents.eventName === 'PermissionRequest', 30_000)
    ).slice(-1);
    return { session, events, target, requestSeq: request!.sessionEvents.seq as number };
  }

  const decide = (h: TestHub, input: Record<string, unknown>) =>
    h.data(
      `mutation($input: DecidePermissionInput!) { decidePermission(input: $input) { request { ${requestFields} } error { code message } } }`,
      { input },
    );

  it('holds the request, shows it everywhere, and ALLOW runs the tool', async () => {
    const feed = hub.subscribe(`subscription { permissionRequests { ${requestFields} } }`);
    const updates = hub.subscribe(`subscription { sessionUpdates { id status } }`);
    // The new session's start shows on `updates`: it runs before the request is made. The
    // feed has no such signal; it went out first on the same connection.
    const { session, events, target, requestSeq } = await startTurn(hub, 'allowed.txt', (id) =>
      updates.until((u) => u.sessionUpdates.id === id && u.sessionUpdates.status === 'IDLE'),
    );

    const pending = (await feed.next()).permissionRequests;
    expect(pending).toMatchObject({
      sessionId: session.id,
      toolName: 'Bash',
      toolInput: { command: `touch ${target} && echo made-allowed.txt` },
      status: 'PENDING',
      decidedAt: null,
      eventSeq: requestSeq,
    });
    const { session: waiting } = await hub.data(
      `query($id: ID!) { session(id: $id) { status pendingPermissions { id } } }`,
      { id: session.id },
    );
    expect(waiting).toEqual({
      status: 'AWAITING_PERMISSION',
      pendingPermissions: [{ id: pending.id }],
    });
    const { attention } = await hub.data(
      `{ attention { reason session { id } permissionRequest { id } } }`,
    );
    expect(attention[0]).toEqual({
      reason: 'PERMISSION',
      session: { id: session.id },
      permissionRequest: { id: pending.id },
    });
    const { permissionRequests } = await hub.data(`{ permissionRequests(status: PENDING) { id } }`);
    expect(permissionRequests).toEqual([{ id: pending.id }]);

    const decided = (await decide(hub, { requestId: pending.id, behavior: 'ALLOW' }))
      .decidePermission;
    expect(decided.error).toBeNull();
    expect(decided.request).toMatchObject({ id: pending.id, status: 'ALLOWED' });
    expect(decided.request.decidedAt).not.toBeNull();

    const turn = (await events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)).map(
      (e) => e.sessionEvents,
    );
    expect(turn.find((e) => e.eventName === 'HubPermissionResolved')).toMatchObject({
      requestId: pending.id,
      status: 'ALLOWED',
    });
    expect(turn.find((e) => e.eventName === 'PostToolUse').toolResponse.stdout).toBe(
      'made-allowed.txt',
    );
    expect(existsSync(target)).toBe(true);
    expect((await feed.next()).permissionRequests).toMatchObject({
      id: pending.id,
      status: 'ALLOWED',
    });

    const again = (await decide(hub, { requestId: pending.id, behavior: 'DENY' })).decidePermission;
    expect(again.error).toEqual({
      code: 'ALREADY_DECIDED',
      message: `permission request ${pending.id} is allowed already`,
    });
    const unknown = (await decide(hub, { requestId: 'no-such-request', behavior: 'ALLOW' }))
      .decidePermission;
    expect(unknown).toMatchObject({ request: null, error: { code: 'NOT_FOUND' } });

    // The turn is over: IDLE, and in attention with its last message.
    const mine = (u: any) => u.sessionUpdates.id === session.id;
    let seenWaiting = false;
    const statuses = (
      await updates.until((u) => {
        if (!mine(u)) return false;
        seenWaiting ||= u.sessionUpdates.status === 'AWAITING_PERMISSION';
        return seenWaiting && u.sessionUpdates.status === 'IDLE';
      }, 10_000)
    )
      .filter(mine)
      .map((u) => u.sessionUpdates.status);
    // From the request on (earlier updates may precede the subscription on a loaded machine).
    expect(statuses.slice(statuses.indexOf('AWAITING_PERMISSION'))).toEqual([
      'AWAITING_PERMISSION',
      'BUSY',
      'IDLE',
    ]);
    const idle = (await hub.data(`{ attention { reason session { id } lastAssistantMessage } }`))
      .attention;
    expect(idle).toContainEqual({
      reason: 'IDLE',
      session: { id: session.id },
      lastAssistantMessage: 'ran: made-allowed.txt',
    });

    // A new message makes it BUSY: it leaves attention until the turn ends.
    await hub.data(
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "slow: 1500\\nanything") { id } }`,
      { id: session.id },
    );
    await updates.until((u) => mine(u) && u.sessionUpdates.status === 'BUSY', 10_000);
    const busy = (await hub.data(`{ attention { session { id } } }`)).attention;
    expect(busy.map((item: any) => item.session.id)).not.toContain(session.id);
    await updates.until((u) => mine(u) && u.sessionUpdates.status === 'IDLE', 10_000);
  });

  it('raises each session that starts to need a person in the attention subscription', async () => {
    const attention = hub.subscribe(
      `subscription { attention {
        items { reason session { id } }
        raised { reason since session { id } permissionRequest { id toolName } lastAssistantMessage }
      } }`,
    );
    const first = (await attention.next()).attention;
    expect(first.raised).toEqual([]);
    const { session, requestSeq } = await startTurn(hub, 'raised.txt');
    const raised = async (match: (item: any) => boolean) => {
      const updates = await attention.until((u) => u.attention.raised.some(match), 30_000);
      return updates.at(-1)!.attention;
    };
    // Created, it waits at its prompt (IDLE); then its message's tool needs a decision.
    await raised((item) => item.session.id === session.id && item.reason === 'IDLE');
    const { permissionRequests } = await hub.data(
      `{ permissionRequests(status: PENDING) { id sessionId eventSeq } }`,
    );
    const request = permissionRequests.find((r: any) => r.eventSeq === requestSeq);
    const update = await raised((item) => item.reason === 'PERMISSION');
    expect(update.raised).toContainEqual(
      expect.objectContaining({
        reason: 'PERMISSION',
        session: { id: session.id },
        permissionRequest: { id: request.id, toolName: 'Bash' },
      }),
    );
    expect(update.items[0]).toEqual({ reason: 'PERMISSION', session: { id: session.id } });
    // Decided, the turn ends: the session is raised again, as a finished turn.
    await decide(hub, { requestId: request.id, behavior: 'ALLOW' });
    const done = await raised((item) => item.session.id === session.id && item.reason === 'IDLE');
    expect(done.raised.find((item: any) => item.session.id === session.id)).toMatchObject({
      lastAssistantMessage: 'ran: made-raised.txt',
    });
    attention.dispose();
  });

  it('DENY keeps the tool from running and tells the model why', async () => {
    const { events, target } = await startTurn(hub, 'denied.txt');
    const { permissionRequests } = await hub.data(`{ permissionRequests(status: PENDING) { id } }`);
    const decided = (
      await decide(hub, {
        requestId: permissionRequests[0].id,
        behavior: 'DENY',
        message: 'not on my watch',
      })
    ).decidePermission;
    expect(decided.request).toMatchObject({ status: 'DENIED', message: 'not on my watch' });
    const turn = (await events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)).map(
      (e) => e.sessionEvents,
    );
    expect(turn.map((e) => e.eventName)).not.toContain('PostToolUse');
    expect(turn.at(-1).lastAssistantMessage).toMatch(/^tool error: .*not on my watch/s);
    expect(existsSync(target)).toBe(false);
  });

  it('marks a request answered in the terminal first as ANSWERED_IN_TERMINAL', async () => {
    const { session, events, target } = await startTurn(hub, 'terminal.txt');
    const { permissionRequests } = await hub.data(`{ permissionRequests(status: PENDING) { id } }`);
    await answerDialog(hub.config.tmuxSocket, session.tmuxSession, /Do you want to proceed\?/, '1');
    const turn = (await events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)).map(
      (e) => e.sessionEvents,
    );
    expect(turn.find((e) => e.eventName === 'HubPermissionResolved')).toMatchObject({
      requestId: permissionRequests[0].id,
      status: 'ANSWERED_IN_TERMINAL',
    });
    expect(turn.find((e) => e.eventName === 'PostToolUse').toolResponse.stdout).toBe(
      'made-terminal.txt',
    );
    expect(existsSync(target)).toBe(true);
    const late = (await decide(hub, { requestId: permissionRequests[0].id, behavior: 'ALLOW' }))
      .decidePermission;
    expect(late.error.code).toBe('ANSWERED_IN_TERMINAL');
  });

  it('expires an undecided request and leaves the terminal dialog working', async () => {
    const short = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--permission-hold', '2'],
    });
    const { session, events, target } = await startTurn(short, 'expired.txt');
    const resolved = (
      await events.until((e) => e.sessionEvents.eventName === 'HubPermissionResolved', 10_000)
    ).at(-1)!;
    expect(resolved.sessionEvents).toMatchObject({
      status: 'EXPIRED',
      message: 'no decision within 2 s',
    });
    const { permissionRequests } = await short.data(`{ permissionRequests { id status } }`);
    expect(permissionRequests).toEqual([
      { id: resolved.sessionEvents.requestId, status: 'EXPIRED' },
    ]);
    const late = (
      await decide(short, { requestId: resolved.sessionEvents.requestId, behavior: 'ALLOW' })
    ).decidePermission;
    expect(late.error.code).toBe('EXPIRED');

    await answerDialog(
      short.config.tmuxSocket,
      session.tmuxSession,
      /Do you want to proceed\?/,
      '1',
    );
    const turn = (await events.until((e) => e.sessionEvents.eventName === 'Stop', 30_000)).map(
      (e) => e.sessionEvents,
    );
    expect(turn.find((e) => e.eventName === 'PostToolUse').toolResponse.stdout).toBe(
      'made-expired.txt',
    );
    expect(existsSync(target)).toBe(true);
  });
});

describe('sessions held by a startup dialog', () => {
  it('are BLOCKED with the dialog named and on screen, and in attention', async () => {
    const world = await startClaudeWorld();
    const hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id status blockedReason screen } }`,
      { cwd: world.makeUntrustedCwd() },
    );
    expect(createSession).toMatchObject({ status: 'BLOCKED', blockedReason: 'WORKSPACE_TRUST' });
    expect(createSession.screen).toContain('Yes, I trust this folder');
    const { attention } = await hub.data(`{ attention { reason session { id } } }`);
    expect(attention).toContainEqual({ reason: 'BLOCKED', session: { id: createSession.id } });
  });
});
