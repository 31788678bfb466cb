import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const eventFields = `__typename seq eventName
  ... on PreToolUseEvent { toolUseId }
  ... on StopEvent { lastAssistantMessage stopHookActive }
  ... on HubPermissionResolvedEvent { requestId status decidedBy explanation }
  ... on HubStopRefusedEvent { rule reason }`;
const requestFields = 'id status decidedBy explanation toolUseId message';

describe('permission rules on real claude sessions', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let outside: string;
  let allowedCwd: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    outside = world.makeUntrustedCwd();
    allowedCwd = world.makeCwd('allowed');
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    const create = (input: Record<string, unknown>) =>
      hub.data(
        `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }`,
        { input },
      );
    await create({
      name: 'touch in allowed',
      decision: 'ALLOW',
      match: {
        tools: ['Bash'],
        input: [{ path: 'command', pattern: '{touch,echo} *' }],
        cwdUnder: [allowedCwd],
      },
    });
    await create({
      name: 'no rm',
      decision: 'DENY',
      message: 'rm is not allowed in this fleet',
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'rm *' }] },
    });
    await create({
      name: 'no secrets',
      decision: 'DENY',
      message: 'secret files stay as they are',
      match: { tools: ['Write', 'Edit'], input: [{ path: 'file_path', pattern: '*/secret*' }] },
    });
    await create({
      name: 'tests before stop',
      on: 'STOP',
      decision: 'DENY',
      message: 'run the tests before you stop',
      match: { labels: ['careful'] },
    });
  });

  /** A session in `cwd` (DEFAULT mode: claude asks for a file outside its folder) and its events. */
  async function startSession(
    cwd: string,
    labels: string[] = [],
    runtime = 'TMUX',
    mode = 'DEFAULT',
  ) {
    const { createSession: session } = await hub.data(
      `mutation($cwd: String!, $labels: [String!], $runtime: SessionRuntime, $mode: PermissionMode) { createSession(input: { cwd: $cwd, permissionMode: $mode, labels: $labels, runtime: $runtime }) { id } }`,
      { cwd, labels, runtime, mode },
    );
    const events = hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { ${eventFields} } }`,
      { id: session.id },
    );
    const send = (text: string) =>
      hub.data(
        `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
        {
          id: session.id,
          text,
        },
      );
    const requests = async () =>
      (
        await hub.data(
          `query($id: ID!) { session(id: $id) { permissionRequests: pendingPermissions { id } } permissionRequests { sessionId ${requestFields} } }`,
          { id: session.id },
        )
      ).permissionRequests.filter(
        (request: { sessionId: string }) => request.sessionId === session.id,
      );
    return { id: session.id as string, events, send, requests };
  }

  const named = (name: string) => (e: any) => e.sessionEvents.eventName === name;

  it('runs a Bash call an ALLOW rule matches with no prompt, and nobody is asked', async () => {
    const session = await startSession(allowedCwd);
    const target = path.join(outside, 'allowed.txt');
    await session.send(`run: touch ${target} && echo made-allowed`);
    const turn = (await session.events.until(named('Stop'), 60_000)).map((e) => e.sessionEvents);

    expect(turn.at(-1).lastAssistantMessage).toBe('ran: made-allowed');
    expect(existsSync(target)).toBe(true);
    expect(turn.some((e) => e.eventName === 'PermissionRequest')).toBe(false);
    const toolUseId = turn.find((e) => e.eventName === 'PreToolUse').toolUseId;
    expect(await session.requests()).toEqual([
      {
        sessionId: session.id,
        id: expect.any(String),
        status: 'ALLOWED',
        decidedBy: 'rule touch in allowed',
        explanation: `tool Bash matched "Bash"; each of the 2 commands of command "touch ${target} && echo made-allowed" matched "{touch,echo} *"; cwd ${allowedCwd} is under ${allowedCwd}`,
        toolUseId,
        message: null,
      },
    ]);
    expect(turn.find((e) => e.eventName === 'HubPermissionResolved')).toMatchObject({
      status: 'ALLOWED',
      decidedBy: 'rule touch in allowed',
    });
  });

  it('holds the same call in a folder the rule does not cover for a person, as without rules', async () => {
    const session = await startSession(world.makeCwd('other'));
    const target = path.join(outside, 'held.txt');
    await session.send(`run: touch ${target} && echo made-held`);
    await session.events.until(named('PermissionRequest'), 60_000);
    let pending: { id: string; status: string }[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = (await session.requests()).filter(
        (r: { status: string }) => r.status === 'PENDING',
      );
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pending).toEqual([expect.objectContaining({ decidedBy: null, explanation: null })]);
    const { decidePermission } = await hub.data(
      `mutation($id: ID!) { decidePermission(input: { requestId: $id, behavior: ALLOW }) { request { status decidedBy } } }`,
      { id: pending[0]!.id },
    );
    expect(decidePermission.request).toEqual({ status: 'ALLOWED', decidedBy: 'token local' });
    const turn = (await session.events.until(named('Stop'), 60_000)).map((e) => e.sessionEvents);
    expect(turn.at(-1).lastAssistantMessage).toBe('ran: made-held');
    expect(existsSync(target)).toBe(true);
  });

  it.each(['TMUX', 'HEADLESS'])(
    "refuses a call a DENY rule matches, tells the model the rule's message, and the turn completes (%s)",
    async (runtime) => {
      const session = await startSession(allowedCwd, [], runtime);
      const target = path.join(outside, `kept-${runtime}.txt`);
      await session.send(`run: touch ${target} && rm ${target}`);
      const turn = (await session.events.until(named('Stop'), 60_000)).map((e) => e.sessionEvents);

      expect(turn.at(-1).lastAssistantMessage).toBe(
        'tool error: PreToolUse:Bash hook error: rm is not allowed in this fleet',
      );
      expect(existsSync(target)).toBe(false);
      expect(await session.requests()).toEqual([
        expect.objectContaining({
          status: 'DENIED',
          decidedBy: 'rule no rm',
          message: 'rm is not allowed in this fleet',
        }),
      ]);
      const { session: after } = await hub.data(`query($id: ID!) { session(id: $id) { status } }`, {
        id: session.id,
      });
      expect(after.status).toBe('IDLE');
    },
  );

  it('refuses a write acceptEdits would make without asking: rules come before the mode', async () => {
    const cwd = world.makeCwd('edits');
    const session = await startSession(cwd, [], 'TMUX', 'ACCEPT_EDITS');
    await session.send(`write: ${cwd}/secret.txt hunter2`);
    const turn = (await session.events.until(named('Stop'), 60_000)).map((e) => e.sessionEvents);
    expect(turn.at(-1).lastAssistantMessage).toBe(
      'tool error: PreToolUse:Write hook error: secret files stay as they are',
    );
    expect(existsSync(path.join(cwd, 'secret.txt'))).toBe(false);
    await session.send(`write: ${cwd}/notes.txt fine`);
    await session.events.until(named('Stop'), 60_000);
    expect(existsSync(path.join(cwd, 'notes.txt'))).toBe(true);
  });

  it("sends claude back to work once at the end of a turn, with the STOP rule's reason", async () => {
    const session = await startSession(world.makeCwd('careful'), ['careful']);
    const before = world.stub.requests.length;
    await session.send('hello');
    const first = (await session.events.until(named('Stop'), 60_000)).map((e) => e.sessionEvents);
    // The refusal is stored before the Stop it refused: that Stop does not end the turn.
    expect(first.slice(-2)).toEqual([
      expect.objectContaining({
        eventName: 'HubStopRefused',
        rule: 'tests before stop',
        reason: 'run the tests before you stop',
      }),
      expect.objectContaining({ eventName: 'Stop', stopHookActive: false }),
    ]);
    const rest = (await session.events.until(named('Stop'), 60_000)).map((e) => e.sessionEvents);
    expect(rest.at(-1)).toMatchObject({ stopHookActive: true });
    expect(rest.some((e) => e.eventName === 'HubStopRefused')).toBe(false);
    const sentBack = world.stub.requests
      .slice(before)
      .filter((body) =>
        JSON.stringify(body).includes('Stop hook feedback:\\nrun the tests before you stop'),
      );
    expect(sentBack).toHaveLength(1);
    const { session: after } = await hub.data(`query($id: ID!) { session(id: $id) { status } }`, {
      id: session.id,
    });
    expect(after.status).toBe('IDLE');
    const { session: turns } = await hub.data(
      `query($id: ID!) { session(id: $id) { turns { status answer } } }`,
      { id: session.id },
    );
    expect(turns.turns).toHaveLength(1);
  });
});
