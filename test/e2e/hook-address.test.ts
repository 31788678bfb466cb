import { createServer, type Server } from 'node:http';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { hubHome } from '../helpers/hub-process.js';
import { subscribeToChannel, subscribeToEvents } from '../helpers/event-subscription.js';
import type { LiveQueue } from '../helpers/live-queue.js';
import { panePid } from '../../harness/tmux-server.js';
import { leftovers } from '../helpers/leftovers.js';

const eventFields = `seq eventName payload
  ... on SessionStartEvent { source }
  ... on PostToolUseEvent { toolResponse }
  ... on HubEventsMissedEvent { turnOver steps }`;

function subscribeTo(url: string, id: string, after: number | null): LiveQueue<any> {
  return subscribeToEvents(url, id, after, eventFields);
}

const sessionQuery = `query($id: ID!) { session(id: $id) { status error } }`;

async function statusOf(url: string, id: string): Promise<{ status: string; error: string }> {
  return (await gqlData(url, sessionQuery, { id })).session;
}

const send = (url: string, id: string, text: string) =>
  gqlData(
    url,
    `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
    {
      id,
      text,
    },
  );

/** Resolves once the hub counts a listener on the channel. */
async function waitForListener(url: string, channel: string): Promise<void> {
  for (;;) {
    const { channels } = await gqlData(url, '{ channels { name } }');
    if (channels.some((open: { name: string }) => open.name === channel)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Seqs 1..n without a gap or a duplicate. */
function expectContiguous(events: { seq: number }[]): void {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
}

describe('a hub that comes back on another port', () => {
  let world: ClaudeWorld;

  beforeAll(async () => {
    world = await startClaudeWorld();
  });

  /** A hub home (data dir, tmux socket) whose hubs listen on the port each start gives. */
  function home(name: string) {
    const where = hubHome(name);
    let hub: HubProcess | null = null;
    return {
      socket: where.socket,
      async start(port: number) {
        hub = await where.spawn(hubArgs({ port, ...where }), world.env);
        return hub;
      },
      async kill() {
        hub?.process.kill('SIGKILL');
        await hub?.process;
        hub = null;
      },
    };
  }

  async function createSession(url: string): Promise<{ id: string; tmuxSession: string }> {
    return (
      await gqlData(
        url,
        `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
        { cwd: world.makeCwd() },
      )
    ).createSession;
  }

  it('answers the hooks of its sessions on their old address: the same claude goes on', async () => {
    const where = home('moved');
    const oldPort = await freePort();
    const first = await where.start(oldPort);
    const session = await createSession(first.url);
    const pid = await panePid(where.socket, session.tmuxSession);
    const { ask } = await gqlData(
      first.url,
      `mutation($id: ID!) { ask(sessionId: $id, text: "tool: mcp__hub__list_channels {}", timeoutSeconds: 45) { ... on AskReply { reply } } }`,
      { id: session.id },
    );
    expect(ask).toEqual({ reply: 'tool mcp__hub__list_channels said: No channel is open.' });
    await where.kill();

    const second = await where.start(0);
    expect(new URL(second.url).port).not.toBe(String(oldPort));
    expect(await statusOf(second.url, session.id)).toEqual({ status: 'IDLE', error: null });
    const events = subscribeTo(second.url, session.id, 0);
    await send(second.url, session.id, 'run: echo after-the-move');
    let stops = 0;
    // The turn before the move (the MCP call) ended with a Stop too.
    const turn = await events.until((e) => e.eventName === 'Stop' && ++stops === 2, 45_000);
    expectContiguous(turn);
    expect(turn.findLast((e) => e.eventName === 'PostToolUse').toolResponse.stdout).toBe(
      'after-the-move',
    );
    // The claude that runs is the one launched by the first hub, never relaunched.
    expect(turn.filter((e) => e.eventName === 'SessionStart')).toHaveLength(1);
    expect(await panePid(where.socket, session.tmuxSession)).toBe(pid);
    // claude calls the hub's MCP server where it was launched too: the old address serves it.
    const ops = subscribeToChannel(second.url, 'ops');
    await waitForListener(second.url, 'ops');
    await send(
      second.url,
      session.id,
      'tool: mcp__hub__send_to_channel {"channel":"ops","message":"still here"}',
    );
    expect(await ops.next(45_000)).toMatchObject({ sessionId: session.id, text: 'still here' });
    ops.dispose();
    // The old address serves hooks and MCP, and nothing else.
    const api = await fetch(`http://127.0.0.1:${oldPort}/graphql`, { method: 'POST' });
    expect(api.status).toBe(404);
    events.dispose();
  });

  it('relaunches a session whose old port is taken with --resume once its turn is over', async () => {
    const where = home('taken');
    const oldPort = await freePort();
    const first = await where.start(oldPort);
    const session = await createSession(first.url);
    const live = subscribeTo(first.url, session.id, 0);
    await send(first.url, session.id, 'slow: 10000\nrun: echo while-moving');
    await live.until((e) => e.eventName === 'UserPromptSubmit');
    live.dispose();
    const pid = await panePid(where.socket, session.tmuxSession);
    await where.kill();

    // Another program now holds the old port: claude's hooks go there, not to any hub.
    const squatted: string[] = [];
    const squatter: Server = createServer((req, res) => {
      squatted.push(req.url ?? '');
      req.resume();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => squatter.listen(oldPort, '127.0.0.1', resolve));
    leftovers.add(() => new Promise((resolve) => squatter.close(resolve)));

    const second = await where.start(0);
    // While the turn runs, the session says what is wrong, never a silent IDLE.
    const disconnected = await statusOf(second.url, session.id);
    expect(disconnected.status).toBe('DISCONNECTED');
    expect(disconnected.error).toBe(
      `its hooks post to http://127.0.0.1:${oldPort}/hooks, where this hub cannot listen ` +
        `(cannot listen on 127.0.0.1:${oldPort}: EADDRINUSE); it is relaunched on ` +
        `${second.url.replace(/graphql$/, 'hooks')} with --resume once its turn is over`,
    );
    // A person watching the pane stays attached through the relaunch.
    const watcher = execa('tmux', ['-L', where.socket, '-C', 'attach', '-t', session.tmuxSession], {
      stdin: 'pipe',
      reject: false,
    });
    leftovers.add(() => void watcher.kill());

    await expect
      .poll(async () => (await statusOf(second.url, session.id)).status, {
        timeout: 45_000,
        interval: 200,
      })
      .toBe('IDLE');
    expect(await panePid(where.socket, session.tmuxSession)).not.toBe(pid);
    expect(squatted.length).toBeGreaterThan(0);
    const clients = await execa('tmux', [
      '-L',
      where.socket,
      'list-clients',
      '-t',
      session.tmuxSession,
      '-F',
      '#{client_control_mode}',
    ]);
    expect(clients.stdout.trim()).toBe('1');

    const events = subscribeTo(second.url, session.id, 0);
    await send(second.url, session.id, 'run: echo after-the-relaunch');
    const all = await events.until(
      (e) =>
        e.eventName === 'Stop' &&
        e.seq > 1 &&
        e.payload.last_assistant_message?.includes('after-the-relaunch'),
      45_000,
    );
    expectContiguous(all);
    const missed = all.find((e) => e.eventName === 'HubEventsMissed');
    expect(missed.turnOver).toBe(true);
    expect(missed.steps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'tool_result', text: 'while-moving', isError: false }),
      ]),
    );
    const starts = all.filter((e) => e.eventName === 'SessionStart');
    expect(starts.map((e) => e.source)).toEqual(['startup', 'resume']);
    expect(starts[1].payload.session_id).toBe(session.id);
    expect(starts[1].seq).toBeGreaterThan(missed.seq);
    expect(
      all.find((e) => e.eventName === 'PostToolUse' && e.seq > starts[1].seq).toolResponse.stdout,
    ).toBe('after-the-relaunch');
    // The resumed claude still has the turn it finished while nobody listened.
    expect(JSON.stringify(world.stub.requests.at(-1))).toContain('while-moving');
    events.dispose();
  });
});
