import { describe, expect, it, vi } from 'vitest';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';

const turnFields = 'number prompt status answer actions { kind title ok }';

describe('a HEADLESS session: claude -p over stream-json, behind the same API', () => {
  const suite = claudeHubSuite();

  it('holds a two-turn conversation with a tool, keeps every stream line, and stops', async () => {
    const cwd = suite.world.makeCwd();
    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, runtime: HEADLESS, permissionMode: ACCEPT_EDITS }) { id runtime status attachCommand } }`,
      { cwd },
    );
    expect(session).toMatchObject({ runtime: 'HEADLESS', status: 'IDLE', attachCommand: null });
    const id = session.id;

    const screen = await suite.hub.gql(`query($id: ID!) { session(id: $id) { screen } }`, { id });
    expect(screen.errors?.[0]?.extensions?.code).toBe('NO_TERMINAL');
    const keys = await suite.hub.gql(
      `mutation($id: ID!) { sendKeys(sessionId: $id, keys: ["Enter"]) { id } }`,
      { id },
    );
    expect(keys.errors?.[0]?.extensions?.code).toBe('NO_TERMINAL');

    const turns = suite.hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { ${turnFields} } }`,
      { id },
    );
    const send = (text: string) =>
      suite.hub.data(
        `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
        { id, text },
      );
    await send('run: echo headless-$((6*7))');
    expect((await turns.next(45_000)).turns).toEqual({
      number: 1,
      prompt: 'run: echo headless-$((6*7))',
      status: 'COMPLETED',
      answer: 'ran: headless-42',
      actions: [{ kind: 'COMMAND', title: 'echo headless-$((6*7))', ok: true }],
    });
    await send('two\nlines');
    expect((await turns.next(45_000)).turns).toMatchObject({
      number: 2,
      prompt: 'two\nlines',
      answer: 'echo: two\nlines',
    });

    // Every line claude printed is in the log, typed, beside the hook events. claude prints a
    // turn's result line just after its Stop hook.
    const read = await vi.waitFor(
      async () => {
        const { session: found } = await suite.hub.data(
          `query($id: ID!) { session(id: $id) { events(limit: 1000) { eventName ... on StreamMessageEvent { type subtype message } } } }`,
          { id },
        );
        const results = found.events.filter((e: any) => e.type === 'result');
        if (results.length < 2) throw new Error('the second result line has not come');
        return found;
      },
      { timeout: 10_000, interval: 100 },
    );
    const names = read.events.map((e: any) => e.eventName);
    expect(names).toEqual(
      expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop']),
    );
    const lines = read.events.filter((e: any) => e.eventName === 'StreamMessage');
    const results = lines.filter((e: any) => e.type === 'result');
    expect(results.map((e: any) => [e.subtype, e.message.result])).toEqual([
      ['success', 'ran: headless-42'],
      ['success', 'echo: two\nlines'],
    ]);
    expect(lines.some((e: any) => e.type === 'system' && e.subtype === 'init')).toBe(true);
    expect(lines.some((e: any) => e.type === 'assistant')).toBe(true);

    const { stopSession } = await suite.hub.data(
      `mutation($id: ID!) { stopSession(id: $id) { status } }`,
      { id },
    );
    expect(stopSession.status).toBe('STOPPED');
  });
});
