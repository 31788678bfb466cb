import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { hubHome, type HubHome } from '../helpers/hub-process.js';
import { waitForScreen } from '../../harness/tmux-server.js';

const hookTimeoutSeconds = 10;

describe('claude while the hub is down', () => {
  let world: ClaudeWorld;
  /** Made in beforeAll: the hubs the tests start again in it outlive each test. */
  let home: HubHome;
  let socket: string;
  let args: string[];
  let hub: HubProcess;

  beforeAll(async () => {
    world = await startClaudeWorld();
    home = hubHome('down');
    ({ socket } = home);
    args = [
      ...hubArgs({ port: await freePort(), ...home }),
      '--hook-timeout',
      String(hookTimeoutSeconds),
    ];
    hub = await home.spawn(args, world.env);
  });

  it('finishes a tool-using turn without waiting out hook timeouts, and the hub catches up after', async () => {
    const cwd = world.makeCwd();
    const { createSession: session } = await gqlData(
      hub.url,
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: ACCEPT_EDITS }) { id tmuxSession } }`,
      { cwd },
    );
    await waitForScreen(socket, session.tmuxSession, /^─{20,}\s*\n❯/m);
    hub.process.kill('SIGTERM');
    await hub.process;

    // A person at the terminal types a prompt whose turn writes a file: UserPromptSubmit,
    // PreToolUse, PostToolUse and Stop all find the hub gone.
    const file = path.join(cwd, 'written.txt');
    const tmux = (...rest: string[]) => execa('tmux', ['-L', socket, ...rest]);
    await tmux('send-keys', '-t', `=${session.tmuxSession}:`, '-l', `write: ${file} carried on`);
    await waitForScreen(socket, session.tmuxSession, /carried on/);
    // Not synchronisation but a person's pause: claude takes an Enter that comes right behind
    // typed text as part of the text, not as submitting it.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const started = Date.now();
    await tmux('send-keys', '-t', `=${session.tmuxSession}:`, 'Enter');
    const screen = await waitForScreen(socket, session.tmuxSession, /wrote: /, 60_000);
    const elapsedMs = Date.now() - started;
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe('carried on');
    expect(elapsedMs).toBeLessThan(hookTimeoutSeconds * 1000);
    expect(screen).toMatch(/ECONNREFUSED|hook/i);

    // Back on the same port: the session is adopted and the turn shows up as missed events.
    hub = await home.spawn(args, world.env);
    const { session: adopted } = await gqlData(
      hub.url,
      `query($id: ID!) { session(id: $id) { status events(limit: 1000) { eventName } } }`,
      { id: session.id },
    );
    expect(adopted.status).toBe('IDLE');
    expect(adopted.events.map((event: { eventName: string }) => event.eventName)).toContain(
      'HubEventsMissed',
    );
    const { ask } = await gqlData(
      hub.url,
      `mutation($id: ID!) { ask(sessionId: $id, text: "and now?", timeoutSeconds: 60) { ... on AskReply { reply } } }`,
      { id: session.id },
    );
    expect(ask).toEqual({ reply: 'echo: and now?' });
  });

  it("answers claude's call of a hub tool at once with an error while the hub is down", async () => {
    const { createSession: session } = await gqlData(
      hub.url,
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
      { cwd: world.makeCwd() },
    );
    const listChannels = async () =>
      (
        await gqlData(
          hub.url,
          `mutation($id: ID!) { ask(sessionId: $id, text: "tool: mcp__hub__list_channels {}", timeoutSeconds: 60) { ... on AskReply { reply } } }`,
          { id: session.id },
        )
      ).ask;
    expect(await listChannels()).toEqual({
      reply: 'tool mcp__hub__list_channels said: No channel is open.',
    });
    hub.process.kill('SIGTERM');
    await hub.process;

    const tmux = (...rest: string[]) => execa('tmux', ['-L', socket, ...rest]);
    const call = 'tool: mcp__hub__send_to_channel {"channel":"ops","message":"anyone?"}';
    await tmux('send-keys', '-t', `=${session.tmuxSession}:`, '-l', call);
    await waitForScreen(socket, session.tmuxSession, /anyone\?/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const started = Date.now();
    await tmux('send-keys', '-t', `=${session.tmuxSession}:`, 'Enter');
    const screen = await waitForScreen(socket, session.tmuxSession, /tool error: /, 60_000);
    expect(Date.now() - started).toBeLessThan(hookTimeoutSeconds * 1000);
    expect(screen).toMatch(/tool error: .*(ECONNREFUSED|Unable to connect|fetch failed)/is);

    // Back: the same claude's next call is answered, with nothing to reconnect.
    hub = await home.spawn(args, world.env);
    expect(await listChannels()).toEqual({
      reply: 'tool mcp__hub__list_channels said: No channel is open.',
    });
  });
});
