import { execa } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import type { LiveQueue } from '../helpers/live-queue.js';

const askQuery = `mutation($id: ID!, $text: String!, $channel: String) {
  ask(sessionId: $id, text: $text, timeoutSeconds: 90, channel: $channel) {
    __typename
    ... on AskReply { reply message { channel status promptSeq } }
    ... on AskFailed { message { error } }
  }
}`;
const listen = `subscription($channel: String!, $after: Int, $description: String) {
  channelMessages(channel: $channel, after: $after, description: $description) { seq channel sessionId text at }
}`;

/** The prompt that makes the stand-in call one of the hub's MCP tools with this input. */
const callTool = (tool: string, input: object) =>
  `tool: mcp__hub__${tool} ${JSON.stringify(input)}`;

describe('channels: Claude answers to named channels through the hub MCP server', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let session: { id: string; tmuxSession: string };

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--channel', 'pager:the on-call pager'],
    });
    session = await create();
  });

  async function create(input = ''): Promise<{ id: string; tmuxSession: string }> {
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd ${input} }) { id tmuxSession } }`,
      { cwd: world.makeCwd() },
    );
    return createSession;
  }

  async function ask(id: string, text: string, channel: string | null = null) {
    const { ask: outcome } = await hub.data(askQuery, { id, text, channel });
    expect(outcome.__typename, JSON.stringify(outcome)).toBe('AskReply');
    return outcome as { reply: string; message: { channel: string | null; promptSeq: number } };
  }

  async function events(id: string, name: string) {
    const { session: found } = await hub.data(
      `query($id: ID!, $name: String!) { session(id: $id) { events(limit: 1000, names: [$name]) {
        seq eventName ... on ChannelMessageEvent { channel text channelSeq }
        ... on UserPromptSubmitEvent { prompt } } } }`,
      { id, name },
    );
    return found.events as any[];
  }

  function channelMessages(channel: string, after: number | null = null): LiveQueue<any> {
    return hub.subscribe(listen, { channel, after, description: `${channel} bridge` });
  }

  it('delivers a send_to_channel call to the listener, the typed event and the model', async () => {
    const ops = channelMessages('ops');
    await vi.waitFor(async () => {
      const { channels } = await hub.data(`{ channels { name description listeners } }`);
      expect(channels).toEqual([
        { name: 'ops', description: 'ops bridge', listeners: 1 },
        { name: 'pager', description: 'the on-call pager', listeners: 0 },
      ]);
    });

    const outcome = await ask(
      session.id,
      callTool('send_to_channel', { channel: 'ops', message: 'deploy finished: 3 hosts' }),
    );
    expect(outcome.reply).toBe('tool mcp__hub__send_to_channel said: sent to ops (message 1)');

    const { channelMessages: got } = await ops.next();
    expect(got).toMatchObject({
      seq: 1,
      channel: 'ops',
      sessionId: session.id,
      text: 'deploy finished: 3 hosts',
    });
    expect(Date.parse(got.at)).toBeGreaterThan(Date.now() - 120_000);
    expect(await events(session.id, 'ChannelMessage')).toEqual([
      expect.objectContaining({
        eventName: 'ChannelMessage',
        channel: 'ops',
        text: 'deploy finished: 3 hosts',
        channelSeq: 1,
      }),
    ]);
    const { channels } = await hub.data(`{ channels { name lastMessageAt } }`);
    expect(channels[0]).toEqual({ name: 'ops', lastMessageAt: got.at });
    ops.dispose();
    // The last listener left: the channel closes, as an adapter's pipe goes with the adapter.
    await vi.waitFor(async () => {
      const { channels: open } = await hub.data(`{ channels { name } }`);
      expect(open).toEqual([{ name: 'pager' }]);
    });
  });

  it('answers a call to a closed channel with a tool error naming the open ones', async () => {
    const outcome = await ask(
      session.id,
      callTool('send_to_channel', { channel: 'nowhere', message: 'hello?' }),
    );
    expect(outcome.reply).toMatch(
      /^tool error: channel "nowhere" is not open; open channels: pager\n/,
    );
    const listed = await ask(session.id, callTool('list_channels', {}));
    expect(listed.reply).toBe('tool mcp__hub__list_channels said: pager - the on-call pager');
  });

  it('gives a listener that comes back with `after` exactly what it missed, then live ones', async () => {
    const keeper = channelMessages('deploys');
    const first = channelMessages('deploys');
    await vi.waitFor(async () => {
      const { channels } = await hub.data(`{ channels { name listeners } }`);
      expect(channels).toContainEqual({ name: 'deploys', listeners: 2 });
    });
    const send = (message: string) =>
      ask(session.id, callTool('send_to_channel', { channel: 'deploys', message }));
    await send('one');
    expect((await first.next()).channelMessages.text).toBe('one');
    first.dispose();
    await send('two');
    await send('three');
    const back = channelMessages('deploys', 1);
    expect((await back.next()).channelMessages).toMatchObject({ seq: 2, text: 'two' });
    expect((await back.next()).channelMessages).toMatchObject({ seq: 3, text: 'three' });
    await send('four');
    expect((await back.next()).channelMessages).toMatchObject({ seq: 4, text: 'four' });
    expect(keeper.received.map((m) => m.channelMessages.seq)).toEqual([1, 2, 3, 4]);
    back.dispose();
    keeper.dispose();
  });

  it('runs the hub tools without a prompt in every permission mode, headless too', async () => {
    const alerts = channelMessages('alerts');
    const kinds = [
      'permissionMode: PLAN',
      'permissionMode: ACCEPT_EDITS',
      'permissionMode: DONT_ASK',
      'runtime: HEADLESS',
    ];
    for (const [index, kind] of kinds.entries()) {
      const other = await create(`, ${kind}`);
      const outcome = await ask(
        other.id,
        callTool('send_to_channel', { channel: 'alerts', message: kind }),
      );
      expect(outcome.reply, kind).toBe(
        `tool mcp__hub__send_to_channel said: sent to alerts (message ${index + 1})`,
      );
      expect((await alerts.next()).channelMessages).toMatchObject({
        sessionId: other.id,
        text: kind,
      });
      const { session: found } = await hub.data(
        `query($id: ID!) { session(id: $id) { pendingPermissions { id } } }`,
        { id: other.id },
      );
      expect(found.pendingPermissions).toEqual([]);
    }
    alerts.dispose();
  });

  it('serialises messages from two channels into one busy session, each under its channel header', async () => {
    const busy = await create();
    const enqueue = `mutation($id: ID!, $text: String!, $channel: String) {
      enqueueMessage(sessionId: $id, text: $text, channel: $channel) { id status channel } }`;
    await hub.data(enqueue, { id: busy.id, text: 'slow: 2500\nbusy for a while', channel: null });
    const slack = await hub.data(enqueue, {
      id: busy.id,
      text: 'is the build green?',
      channel: 'slack',
    });
    const telegram = await hub.data(enqueue, {
      id: busy.id,
      text: 'reply with the status',
      channel: 'telegram',
    });
    expect(slack.enqueueMessage).toMatchObject({ status: 'QUEUED', channel: 'slack' });
    expect(telegram.enqueueMessage).toMatchObject({ status: 'QUEUED', channel: 'telegram' });

    const prompts = await vi.waitFor(
      async () => {
        const submitted = await events(busy.id, 'UserPromptSubmit');
        const stops = await events(busy.id, 'Stop');
        if (stops.length < 3) throw new Error(`${stops.length} turns so far`);
        return submitted;
      },
      { timeout: 90_000, interval: 250 },
    );
    expect(prompts.map((event) => event.prompt)).toEqual([
      'slow: 2500\nbusy for a while',
      '[message from channel "slack"; answer there with the send_to_channel tool]\nis the build green?',
      '[message from channel "telegram"; answer there with the send_to_channel tool]\nreply with the status',
    ]);
    const { session: found } = await hub.data(
      `query($id: ID!) { session(id: $id) { messages { text channel status } } }`,
      { id: busy.id },
    );
    expect(found.messages).toEqual([
      { text: 'slow: 2500\nbusy for a while', channel: null, status: 'DELIVERED' },
      { text: 'is the build green?', channel: 'slack', status: 'DELIVERED' },
      { text: 'reply with the status', channel: 'telegram', status: 'DELIVERED' },
    ]);
    const reply = await ask(busy.id, 'and now?', 'slack');
    expect(reply.message.channel).toBe('slack');
    await expect(
      hub.data(askQuery, { id: busy.id, text: 'x', channel: 'not a name' }),
    ).rejects.toThrow(/channel name .*not a name.* is not 1-64 letters/);
  });

  it('refuses an MCP call without a running session secret, and acts only for the secret given', async () => {
    const mcp = (authorization: string | null, body: object) =>
      fetch(`${hub.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization && { authorization }),
        },
        body: JSON.stringify(body),
      });
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'send_to_channel', arguments: { channel: 'pager', message: 'forged' } },
    };
    const anonymous = await mcp(null, call);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const guessed = await mcp('Bearer not-a-session-secret', call);
    expect(guessed.status).toBe(401);

    // A secret is its session's only: a process of session B (which can read B's environment)
    // can send as B, never as A.
    const other = await create();
    const { stdout: secret } = await execa('tmux', [
      '-L',
      hub.config.tmuxSocket,
      'show-environment',
      '-t',
      other.tmuxSession,
      'CLAUDE_HUB_HOOK_SECRET',
    ]);
    const pager = channelMessages('pager');
    await vi.waitFor(async () => {
      const { channels } = await hub.data(`{ channels { name listeners } }`);
      expect(channels).toContainEqual({ name: 'pager', listeners: 1 });
    });
    const sent = await mcp(`Bearer ${secret.replace(/^CLAUDE_HUB_HOOK_SECRET=/, '')}`, call);

    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({
      result: { content: [{ type: 'text', text: 'sent to pager (message 1)' }] },
    });
    expect((await pager.next()).channelMessages).toMatchObject({
      sessionId: other.id,
      text: 'forged',
    });
    // Bad input gets a clear error and stores nothing.
    const bare = secret.replace(/^CLAUDE_HUB_HOOK_SECRET=/, '');
    const missing = await mcp(`Bearer ${bare}`, {
      ...call,
      params: { name: 'send_to_channel', arguments: { channel: 'pager' } },
    });
    expect(await missing.json()).toMatchObject({
      result: {
        isError: true,
        content: [{ text: expect.stringMatching(/Invalid arguments .* at message/) }],
      },
    });
    const notJson = await fetch(`${hub.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bare}`, 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await events(other.id, 'ChannelMessage')).toHaveLength(1);
    expect(
      (await events(session.id, 'ChannelMessage')).map((event) => event.channel),
    ).not.toContain('pager');
    pager.dispose();

    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { status } }`, { id: other.id });
    const stale = await mcp(`Bearer ${bare}`, call);
    expect(stale.status).toBe(401);
  });
});
