import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

interface Child {
  id: string;
  status: string;
  labels: string[];
  parent: string | null;
}

describe("sessions that run sessions through the hub's MCP tools, with the real claude CLI", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--max-orchestration-depth', '1'],
    });
  });

  const create = async (input: Record<string, unknown>) =>
    (
      await hub.data<{ createSession: { id: string; tmuxSession: string } }>(
        `mutation($input: CreateSessionInput!) { createSession(input: $input) { id tmuxSession } }`,
        { input: { cwd: world.makeCwd('orchestra'), permissionMode: 'ACCEPT_EDITS', ...input } },
      )
    ).createSession;
  const ask = async (id: string, text: string) =>
    (
      await hub.data<{ ask: { reply: string } }>(
        `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 90) { ... on AskReply { reply } } }`,
        { id, text },
      )
    ).ask.reply;
  /** A prompt on which the stand-in calls one of the hub's tools with `input`. */
  const call = (tool: string, input: Record<string, unknown>) =>
    `tool: mcp__hub__${tool} ${JSON.stringify(input)}`;
  const toolSaid = (reply: string, tool: string) => {
    const prefix = `tool mcp__hub__${tool} said: `;
    expect(reply.startsWith(prefix), reply).toBe(true);
    return reply.slice(prefix.length);
  };
  const audit = async () =>
    (
      await hub.data<{
        audit: { actor: string; action: string; sessionId: string | null; outcome: string }[];
      }>(`{ audit(last: 1000) { actor action sessionId outcome } }`)
    ).audit;

  it('starts two children, asks each and gets their answers as tool results, within its reach and depth', async () => {
    const parent = await create({ orchestrate: true, labels: ['team-a'] });
    const started: Child[] = [];
    for (const name of ['child-a', 'child-b']) {
      const cwd = world.makeCwd(name);
      const reply = await ask(
        parent.id,
        call('start_session', { cwd, name, orchestrate: name === 'child-b' }),
      );
      started.push(JSON.parse(toolSaid(reply, 'start_session')) as Child);
    }
    const [a, b] = started as [Child, Child];
    expect(a).toMatchObject({ status: 'IDLE', parent: parent.id });
    expect(a.labels).toEqual(['team-a', `parent:${parent.id}`]);

    const { session } = await hub.data<{
      session: {
        children: {
          id: string;
          name: string;
          permissionMode: string;
          parent: { id: string };
          orchestration: { reach: string; depth: number } | null;
        }[];
      };
    }>(
      `query($id: ID!) { session(id: $id) { children { id name permissionMode parent { id } orchestration { reach depth } } } }`,
      { id: parent.id },
    );
    expect(session.children).toEqual([
      {
        id: a.id,
        name: 'child-a',
        permissionMode: 'ACCEPT_EDITS',
        parent: { id: parent.id },
        orchestration: null,
      },
      {
        id: b.id,
        name: 'child-b',
        permissionMode: 'ACCEPT_EDITS',
        parent: { id: parent.id },
        orchestration: { reach: 'CHILDREN', depth: 1 },
      },
    ]);

    // Each child answers the parent's question; the answer comes back as the tool's result.
    for (const child of [a, b]) {
      const reply = await ask(
        parent.id,
        call('ask_session', { session: child.id, text: `what is in ${child.id}?` }),
      );
      expect(toolSaid(reply, 'ask_session')).toBe(`echo: what is in ${child.id}?`);
    }
    const list = async (args: Record<string, unknown>) =>
      JSON.parse(toolSaid(await ask(parent.id, call('list_sessions', args)), 'list_sessions'));
    const listed = await list({});
    expect(listed.sessions.map((s: Child) => s.id).sort()).toEqual([a.id, b.id].sort());
    // A page at a time: the second page goes on after the first.
    const first = await list({ limit: 1 });
    expect(first).toMatchObject({ total: 2, next: expect.any(String) });
    const second = await list({ limit: 1, after: first.next });
    expect([...first.sessions, ...second.sessions].map((s: Child) => s.id)).toEqual(
      listed.sessions.map((s: Child) => s.id),
    );
    expect(second.next).toBeNull();
    // A page is 200 at most, and a status must be one: the model is told so, and why.
    expect(await ask(parent.id, call('list_sessions', { limit: 201 }))).toMatch(
      /^tool error: .*200/s,
    );
    expect(await ask(parent.id, call('list_sessions', { status: 'asleep' }))).toMatch(
      /^tool error: BAD_USER_INPUT: no status is called "asleep"/,
    );

    // Out of reach: a session a client started is not the parent's to ask.
    const outsider = await create({});
    const refused = await ask(
      parent.id,
      call('ask_session', { session: outsider.id, text: 'obey' }),
    );
    expect(refused).toMatch(/^tool error: .*OUT_OF_REACH: session .* is not one you started/);
    const { messages } = (
      await hub.data<{ session: { messages: unknown[] } }>(
        `query($id: ID!) { session(id: $id) { messages { text } } }`,
        { id: outsider.id },
      )
    ).session;
    expect(messages).toEqual([]);

    // Too deep: child-b (depth 1) may not start a session of its own under a depth limit of 1.
    const tooDeep = await ask(b.id, call('start_session', { cwd: world.makeCwd('grandchild') }));
    expect(tooDeep).toMatch(/^tool error: .*DEPTH_LIMIT: you are at depth 1/);

    // stop_session ends a child.
    const stopped = await ask(parent.id, call('stop_session', { session: b.id }));
    expect(toolSaid(stopped, 'stop_session')).toBe('stopped: STOPPED');

    const entries = (await audit()).filter((entry) => entry.actor === `session:${parent.id}`);
    expect(entries.map((entry) => [entry.action, entry.sessionId, entry.outcome])).toEqual([
      ['start_session', a.id, 'ok'],
      ['start_session', b.id, 'ok'],
      ['ask_session', a.id, 'ok'],
      ['ask_session', b.id, 'ok'],
      ['ask_session', outsider.id, 'OUT_OF_REACH'],
      ['stop_session', b.id, 'ok'],
    ]);
    expect(
      (await audit()).filter((entry) => entry.actor === `session:${b.id}`).map((e) => e.outcome),
    ).toEqual(['DEPTH_LIMIT']);
  });

  it('offers a session without orchestrate none of the tools, and refuses a forged call', async () => {
    const plain = await create({});
    const reply = await ask(plain.id, call('list_sessions', {}));
    expect(reply).toMatch(/^tool error: /);
    expect(reply).not.toContain(plain.id);

    const { stdout } = await execa('tmux', [
      '-L',
      hub.config.tmuxSocket,
      'show-environment',
      '-t',
      plain.tmuxSession,
      'CLAUDE_HUB_HOOK_SECRET',
    ]);
    const secret = stdout.replace(/^CLAUDE_HUB_HOOK_SECRET=/, '');
    const mcp = (body: object) =>
      fetch(`${hub.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
      }).then((response) => response.json() as Promise<Record<string, any>>);
    const tools = await mcp({ method: 'tools/list', params: {} });
    expect(tools.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'list_channels',
      'send_to_channel',
    ]);
    const before = (await hub.data<{ sessions: unknown[] }>(`{ sessions { id } }`)).sessions.length;
    const forged = await mcp({
      method: 'tools/call',
      params: { name: 'start_session', arguments: { cwd: world.makeCwd('forged') } },
    });
    expect(JSON.stringify(forged)).toMatch(/start_session.*not found|not found.*start_session/i);
    expect((await hub.data<{ sessions: unknown[] }>(`{ sessions { id } }`)).sessions).toHaveLength(
      before,
    );
  });

  it('lets a permission rule refuse an orchestration tool: the child goes on', async () => {
    const parent = await create({ orchestrate: true });
    const child = JSON.parse(
      toolSaid(
        await ask(parent.id, call('start_session', { cwd: world.makeCwd('kept') })),
        'start_session',
      ),
    ) as Child;
    await hub.data(
      `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }`,
      {
        input: {
          name: 'children are not stopped by their parents',
          decision: 'DENY',
          message: 'ask a person to stop it',
          match: { tools: ['mcp__hub__stop_session'] },
        },
      },
    );
    const refused = await ask(parent.id, call('stop_session', { session: child.id }));
    expect(refused).toMatch(/^tool error: .*ask a person to stop it/);
    const { session } = await hub.data<{ session: { status: string } }>(
      `query($id: ID!) { session(id: $id) { status } }`,
      { id: child.id },
    );
    expect(session.status).toBe('IDLE');
  });
});
