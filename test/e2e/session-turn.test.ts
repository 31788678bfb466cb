import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeBin, startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';

const eventFields = `
  __typename seq sessionId eventName receivedAt cwd payload
  ... on SessionStartEvent { source model }
  ... on UserPromptSubmitEvent { prompt }
  ... on PreToolUseEvent { toolName toolInput toolUseId }
  ... on PostToolUseEvent { toolName toolResponse toolUseId }
  ... on StopEvent { lastAssistantMessage stopHookActive }
  ... on SessionEndEvent { reason }
`;

describe('a real claude session driven through the hub', () => {
  let world: ClaudeWorld;
  let hub: TestHub;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
  });

  afterAll(async () => {
    await hub?.stop();
    await world?.close();
  });

  it('runs a Bash tool turn and streams its hook events typed and in order', async () => {
    const cwd = world.makeCwd();
    const { createSession: session } = await hub.data(
      `mutation($input: CreateSessionInput!) { createSession(input: $input) { id status cwd tmuxSession attachCommand } }`,
      { input: { cwd, name: 'turn', permissionMode: 'DEFAULT' } },
    );
    expect(session.status).toBe('IDLE');
    expect(session.cwd).toBe(cwd);
    expect(session.attachCommand).toBe(
      `tmux -L ${hub.config.tmuxSocket} attach -t ${session.tmuxSession}`,
    );

    const events = hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { ${eventFields} } }`,
      { id: session.id },
    );
    const start = (await events.next()).sessionEvents;
    expect(start).toMatchObject({
      __typename: 'SessionStartEvent',
      seq: 1,
      sessionId: session.id,
      source: 'startup',
    });
    expect(start.payload.session_id).toBe(session.id);

    await hub.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      {
        id: session.id,
        text: 'run: echo hub-e2e-$((40+2))',
      },
    );
    const turn = (
      await events.until((e) => e.sessionEvents.__typename === 'StopEvent', 45_000)
    ).map((e) => e.sessionEvents);
    const seqs = turn.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => 2 + i));
    const names = turn.map((e) => e.__typename);
    const order = ['UserPromptSubmitEvent', 'PreToolUseEvent', 'PostToolUseEvent', 'StopEvent'].map(
      (name) => names.indexOf(name),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const byType = (name: string) => turn.find((e) => e.__typename === name);
    expect(byType('UserPromptSubmitEvent').prompt).toBe('run: echo hub-e2e-$((40+2))');
    expect(byType('PreToolUseEvent')).toMatchObject({
      toolName: 'Bash',
      toolInput: { command: 'echo hub-e2e-$((40+2))' },
    });
    expect(byType('PostToolUseEvent').toolName).toBe('Bash');
    expect(byType('PostToolUseEvent').toolResponse.stdout).toBe('hub-e2e-42');
    expect(byType('PostToolUseEvent').toolUseId).toBe(byType('PreToolUseEvent').toolUseId);
    expect(byType('StopEvent').lastAssistantMessage).toBe('ran: hub-e2e-42');

    const { session: after } = await hub.data(
      `query($id: ID!) { session(id: $id) { status lastAssistantMessage lastEventAt } }`,
      { id: session.id },
    );
    expect(after).toMatchObject({ status: 'IDLE', lastAssistantMessage: 'ran: hub-e2e-42' });

    const { stopSession } = await hub.data(
      `mutation($id: ID!) { stopSession(id: $id) { status } }`,
      { id: session.id },
    );
    expect(stopSession.status).toBe('STOPPED');
    const rest = (await events.until((e) => e.sessionEvents.__typename === 'SessionEndEvent')).map(
      (e) => e.sessionEvents,
    );
    expect(rest.at(-1).reason).toBeTruthy();
    await events.waitForComplete();
  });
});
