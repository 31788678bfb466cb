import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';

const enqueue = `mutation($id: ID!, $text: String!) { enqueueMessage(sessionId: $id, text: $text) { id status } }`;
const askQuery = `mutation($id: ID!, $text: String!, $timeout: Int) {
  ask(sessionId: $id, text: $text, timeoutSeconds: $timeout) {
    __typename
    ... on AskReply { reply durationMs message { status promptSeq } events { seq eventName } }
    ... on AskTimeout { waitedMs message { id status } }
    ... on AskFailed { message { error } }
  }
}`;

/** Reads (a query) until `done` holds, returning what passed. */
function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`not yet: ${JSON.stringify(value).slice(0, 1500)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 200 },
  );
}

describe('messages that always arrive', () => {
  let world: ClaudeWorld;
  let hub: TestHub;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--max-queued-messages', '20'],
    });
  });

  const create = async (extra = '') =>
    (
      await hub.data(
        `mutation($cwd: String!) { createSession(input: { cwd: $cwd ${extra} }) { id tmuxSession status } }`,
        { cwd: world.makeCwd() },
      )
    ).createSession as { id: string; tmuxSession: string; status: string };
  const prompts = async (id: string) =>
    (
      await hub.data(
        `query($id: ID!) { session(id: $id) { events(limit: 1000) { seq eventName payload } } }`,
        { id },
      )
    ).session.events as { seq: number; eventName: string; payload: any }[];

  it('delivers 15 messages from three clients to a busy session once each, in order, one per turn', async () => {
    const session = await create();
    await hub.data(enqueue, { id: session.id, text: 'slow: 1500\nkeep busy' });
    const clients = ['A', 'B', 'C'].map(async (client) => {
      for (let i = 1; i <= 5; i++) {
        const { enqueueMessage } = await hub.data(enqueue, {
          id: session.id,
          text: `client ${client} message ${i}`,
        });
        expect(enqueueMessage.status).toBe('QUEUED');
      }
    });
    await Promise.all(clients);
    const messages = await until(
      async () =>
        (
          await hub.data(
            `query($id: ID!) { session(id: $id) { messages(last: 50) { text status error promptSeq } } }`,
            { id: session.id },
          )
        ).session.messages as any[],
      (all) => all.every((m) => m.status === 'DELIVERED' || m.status === 'FAILED'),
      120_000,
    );
    expect(messages).toHaveLength(16);
    expect(messages.filter((m) => m.status !== 'DELIVERED')).toEqual([]);

    const events = await until(
      () => prompts(session.id),
      (all) => all.filter((e) => e.eventName === 'Stop').length === 16,
      30_000,
    );
    const submitted = events
      .filter((e) => e.eventName === 'UserPromptSubmit')
      .map((e) => e.payload.prompt as string);
    expect(submitted).toHaveLength(16);
    expect(new Set(submitted).size).toBe(16);
    for (const client of ['A', 'B', 'C']) {
      expect(submitted.filter((p) => p.startsWith(`client ${client}`))).toEqual(
        [1, 2, 3, 4, 5].map((i) => `client ${client} message ${i}`),
      );
    }
    // Each its own turn: a Stop between any two prompts.
    const names = events
      .map((e) => e.eventName)
      .filter((n) => n === 'UserPromptSubmit' || n === 'Stop');
    expect(names).toEqual(
      Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 'UserPromptSubmit' : 'Stop')),
    );
    expect(messages.map((m) => m.promptSeq)).toEqual(
      events.filter((e) => e.eventName === 'UserPromptSubmit').map((e) => e.seq),
    );
  });

  it('carries every kind of text, and says how claude normalises what it cannot keep', async () => {
    const session = await create();
    const punctuation = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`;
    const cases = [
      `every ASCII punctuation character: ${punctuation}`,
      '中文、日本語、한국어 and emoji 🚀🎉👩‍💻🇯🇵',
      'a path like /usr/bin/env inside a sentence, and -- a leading dash below\n- item',
      Array.from({ length: 1600 }, (_, i) => `line ${i} ${'x'.repeat(50)}`).join('\n'),
    ];
    expect(cases.at(-1)!.length).toBeGreaterThan(90_000);
    for (const text of cases) {
      const result = (await hub.data(askQuery, { id: session.id, text, timeout: 120 })).ask;
      expect(result.__typename).toBe('AskReply');
      expect(result.message.status).toBe('DELIVERED');
      const events = await prompts(session.id);
      expect(events.find((e) => e.seq === result.message.promptSeq)!.payload.prompt).toBe(text);
    }
    // What the input box changes, documented in the README: CR/CRLF -> LF, tab -> 4 spaces, NFC.
    const result = (
      await hub.data(askQuery, { id: session.id, text: 'crlf\r\nline\ttab e\u0301', timeout: 60 })
    ).ask;
    const events = await prompts(session.id);
    expect(events.find((e) => e.seq === result.message.promptSeq)!.payload.prompt).toBe(
      'crlf\nline    tab \u00e9',
    );

    // Text that starts like a slash command but names none is a prompt; a leading space makes sure.
    for (const text of ['/usr/bin/env is where?', ' /usr/bin/env is where?']) {
      const slashy = (await hub.data(askQuery, { id: session.id, text, timeout: 60 })).ask;
      expect(slashy).toMatchObject({ __typename: 'AskReply', reply: `echo: ${text}` });
    }

    for (const text of ['', '  \n\t ']) {
      const refused = await hub.gql(enqueue, { id: session.id, text });
      expect(refused.errors?.[0]).toMatchObject({
        message: 'text must not be empty or only whitespace',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    // Typing 90 KB into claude's input box takes most of a minute alone, more on a busy machine.
  }, 180_000);

  it('ask returns the reply, or a timeout result while the message still completes', async () => {
    const session = await create();
    const reply = (
      await hub.data(askQuery, { id: session.id, text: 'run: echo asked', timeout: 60 })
    ).ask;
    expect(reply).toMatchObject({
      __typename: 'AskReply',
      reply: 'ran: asked',
      message: { status: 'DELIVERED' },
    });
    expect(reply.events.map((e: any) => e.eventName)).toEqual(
      expect.arrayContaining(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']),
    );
    expect(reply.events[0].eventName).toBe('UserPromptSubmit');
    expect(reply.events.at(-1).eventName).toBe('Stop');
    expect(reply.durationMs).toBeGreaterThan(0);

    const timeout = (
      await hub.data(askQuery, { id: session.id, text: 'slow: 3000\nlate answer', timeout: 1 })
    ).ask;
    expect(timeout.__typename).toBe('AskTimeout');
    expect(timeout.waitedMs).toBeGreaterThanOrEqual(950); // timers may fire a millisecond early
    const events = await until(
      () => prompts(session.id),
      (all) =>
        all.at(-1)?.eventName === 'Stop' &&
        all.at(-1)?.payload.last_assistant_message === 'echo: slow: 3000\nlate answer',
      30_000,
    );
    expect(events.filter((e) => e.payload.prompt === 'slow: 3000\nlate answer')).toHaveLength(1);
  });

  it('interruptSession ends a slow turn and the session takes the next message', async () => {
    const session = await create();
    await hub.data(enqueue, { id: session.id, text: 'slow: 20000\nnever mind' });
    await until(
      async () =>
        (await hub.data(`query($id: ID!) { session(id: $id) { status } }`, { id: session.id }))
          .session.status,
      (s) => s === 'BUSY',
      20_000,
    );
    const { interruptSession } = await hub.data(
      `mutation($id: ID!) { interruptSession(id: $id) { status } }`,
      { id: session.id },
    );
    expect(interruptSession.status).toBe('IDLE');
    const next = (
      await hub.data(askQuery, { id: session.id, text: 'after the interrupt', timeout: 60 })
    ).ask;
    expect(next, JSON.stringify(next)).toMatchObject({
      __typename: 'AskReply',
      reply: 'echo: after the interrupt',
    });
    const events = await prompts(session.id);
    expect(events.find((e) => e.seq === next.message.promptSeq)!.payload.prompt).toBe(
      'after the interrupt',
    );
  });

  it('refuses keys outside the allow-list and messages past the queue bound', async () => {
    const session = await create();
    const bad = await hub.gql(
      `mutation($id: ID!) { sendKeys(sessionId: $id, keys: ["Enter", "C-c"]) { id } }`,
      { id: session.id },
    );
    expect(bad.errors?.[0]?.extensions?.code).toBe('KEY_NOT_ALLOWED');
    expect(bad.errors?.[0]?.message).toMatch(
      /^key "C-c" \(string\) is not allowed; use one of Enter, Escape/,
    );
    await hub.data(enqueue, { id: session.id, text: 'slow: 5000\nbusy' });
    const results = [];
    for (let i = 0; i < 21; i++)
      results.push(await hub.gql(enqueue, { id: session.id, text: `filler ${i}` }));
    const refused = results.filter((r) => r.errors);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.errors![0]!.extensions!.code).toBe('QUEUE_FULL');
    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it('answers the workspace-trust dialog when asked to, and reports the API-key dialog as BLOCKED', async () => {
    const trusted = (
      await hub.data(
        `mutation($cwd: String!) { createSession(input: { cwd: $cwd, trustWorkspace: true }) { id status } }`,
        {
          cwd: world.makeUntrustedCwd(),
        },
      )
    ).createSession;
    expect(trusted.status).toBe('IDLE');
    const reply = (await hub.data(askQuery, { id: trusted.id, text: 'trusted now', timeout: 60 }))
      .ask;
    expect(reply.reply).toBe('echo: trusted now');

    const keyWorld = await startClaudeWorld(undefined, { approveKey: false });
    const keyHub = await startHub({ env: keyWorld.env, args: ['--claude-bin', claudeBin] });
    const { createSession } = await keyHub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { status blockedReason screen } }`,
      {
        cwd: keyWorld.makeCwd(),
      },
    );
    expect(createSession).toMatchObject({ status: 'BLOCKED', blockedReason: 'API_KEY' });
    expect(createSession.screen).toContain('Detected a custom API key');
  });
});
