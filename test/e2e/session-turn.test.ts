import { describe, expect, it } from 'vitest';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';

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
  const suite = claudeHubSuite();

  it('runs a Bash tool turn and streams its hook events typed and in order', async () => {
    const cwd = suite.world.makeCwd();
    const { createSession: session } = await suite.hub.data(
      `mutation($input: CreateSessionInput!) { createSession(input: $input) { id status cwd tmuxSession attachCommand } }`,
      { input: { cwd, name: 'turn', permissionMode: 'DEFAULT' } },
    );
    expect(session.status).toBe('IDLE');
    expect(session.cwd).toBe(cwd);
    expect(session.attachCommand).toBe(
      `tmux -L ${suite.hub.config.tmuxSocket} attach -t ${session.tmuxSession}`,
    );

    const events = suite.hub.subscribe(
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

    await suite.hub.data(
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

    const { session: after } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { status lastAssistantMessage lastEventAt } }`,
      { id: session.id },
    );
    expect(after).toMatchObject({ status: 'IDLE', lastAssistantMessage: 'ran: hub-e2e-42' });

    const { stopSession } = await suite.hub.data(
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

  it('delivers a multi-line message full of special characters byte for byte', async () => {
    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id } }`,
      {
        cwd: suite.world.makeCwd(),
      },
    );
    const events = suite.hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id) { __typename ... on UserPromptSubmitEvent { prompt } } }`,
      {
        id: session.id,
      },
    );
    const text = [
      '- leading dash, "double" and \'single\' quotes, $HOME ${PATH} $(whoami) `uname`',
      '\\backslashes\\ and \\n not-a-newline, [brackets] {braces} <angle> | & ; * ? ~ # % ^ =',
      '日本語のテキスト, emoji 🚀🎉👩‍💻, accents é ü ñ',
      '',
      '    indented last line',
      'x'.repeat(900) + ' (a long line)',
      'and the end',
    ].join('\n');
    await suite.hub.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id: session.id, text },
    );
    const [submit] = await events
      .until((e) => e.sessionEvents.__typename === 'UserPromptSubmitEvent', 30_000)
      .then((all) => all.slice(-1));
    expect(submit!.sessionEvents.prompt).toBe(text);
    await events.until((e) => e.sessionEvents.__typename === 'StopEvent', 30_000);
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it('runs two sessions at once without mixing their events', async () => {
    const create = `mutation($cwd: String!, $prompt: String) { createSession(input: { cwd: $cwd, prompt: $prompt }) { id } }`;
    const [{ createSession: a }, { createSession: b }] = await Promise.all([
      suite.hub.data(create, { cwd: suite.world.makeCwd('a') }),
      suite.hub.data(create, { cwd: suite.world.makeCwd('b') }),
    ]);
    const sub = (id: string) =>
      suite.hub.subscribe(
        `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { __typename sessionId cwd ... on PostToolUseEvent { toolResponse } ... on StopEvent { lastAssistantMessage } } }`,
        { id },
      );
    const [streamA, streamB] = [sub(a.id), sub(b.id)];
    const send = `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`;
    await Promise.all([
      suite.hub.data(send, { id: a.id, text: 'run: echo from-a' }),
      suite.hub.data(send, { id: b.id, text: 'run: echo from-b' }),
    ]);
    const [eventsA, eventsB] = await Promise.all(
      [streamA, streamB].map((stream) =>
        stream.until((e) => e.sessionEvents.__typename === 'StopEvent', 45_000),
      ),
    );
    for (const [events, id, word] of [
      [eventsA!, a.id, 'a'],
      [eventsB!, b.id, 'b'],
    ] as const) {
      const all = events.map((e) => e.sessionEvents);
      expect(all.every((e) => e.sessionId === id)).toBe(true);
      expect(all.every((e) => e.cwd.includes(`/${word}-`))).toBe(true);
      expect(all.find((e) => e.__typename === 'PostToolUseEvent').toolResponse.stdout).toBe(
        `from-${word}`,
      );
      expect(all.at(-1).lastAssistantMessage).toBe(`ran: from-${word}`);
    }
    await Promise.all(
      [a.id, b.id].map((id) =>
        suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id }),
      ),
    );
  });

  it('sends the prompt given at creation as the first message', async () => {
    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, prompt: "first words" }) { id } }`,
      { cwd: suite.world.makeCwd() },
    );
    const events = suite.hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { __typename ... on StopEvent { lastAssistantMessage } } }`,
      {
        id: session.id,
      },
    );
    const all = await events.until((e) => e.sessionEvents.__typename === 'StopEvent', 30_000);
    expect(all.at(-1)!.sessionEvents.lastAssistantMessage).toBe('echo: first words');
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it('reports a start that claude refuses (bypass mode as root) as a failure with the screen', async () => {
    const cwd = suite.world.makeCwd();
    const result = await suite.hub.gql(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: BYPASS_PERMISSIONS }) { id } }`,
      { cwd },
    );
    if (process.getuid?.() !== 0) return; // only root is refused
    expect(result.errors?.[0]?.extensions?.code).toBe('SESSION_START_FAILED');
    expect(result.errors?.[0]?.message).toMatch(/cannot be used with root\/sudo privileges/);
    const id = result.errors?.[0]?.extensions?.sessionId;
    const { session } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { status error } }`,
      {
        id,
      },
    );
    expect(session.status).toBe('CRASHED');
    expect(session.error).toMatch(/^claude exited.*cannot be used with root\/sudo privileges/s);
  });

  it('rejects bad createSession and sendMessage input with clear codes', async () => {
    const errorOf = async (query: string, variables: Record<string, unknown>) =>
      (await suite.hub.gql(query, variables)).errors?.[0];
    const create = `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`;
    expect(await errorOf(create, { input: { cwd: '/definitely/not/here' } })).toMatchObject({
      message: 'cwd must be an existing directory, got "/definitely/not/here" (string)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(
      await errorOf(create, { input: { cwd: suite.world.makeCwd(), id: 'not-a-uuid' } }),
    ).toMatchObject({
      message: 'id must be a UUID, got "not-a-uuid" (string)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const { sessions } = await suite.hub.data(`{ sessions { id } }`);
    expect(
      await errorOf(create, { input: { cwd: suite.world.makeCwd(), id: sessions[0].id } }),
    ).toMatchObject({
      extensions: { code: 'SESSION_ALREADY_EXISTS' },
    });
    const send = `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`;
    expect(
      await errorOf(send, { id: 'f0000000-0000-4000-8000-000000000000', text: 'hi' }),
    ).toMatchObject({ extensions: { code: 'SESSION_NOT_FOUND' } });
    expect(await errorOf(send, { id: sessions[0].id, text: ' \n\t ' })).toMatchObject({
      message: 'text must not be empty or only whitespace',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(await errorOf(send, { id: sessions[0].id, text: 'hello' })).toMatchObject({
      extensions: { code: 'SESSION_NOT_RUNNING' },
    });
  });
});
