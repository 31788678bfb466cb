import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, leftovers, tempDir } from '../helpers/leftovers.js';

/** The test's own tmux server: a person's, not the hub's. */
class PersonTmux {
  readonly socket = `cch-person-${process.pid}-${Date.now() % 100000}`;
  #windows = 0;

  run(...args: string[]) {
    return execa('tmux', ['-L', this.socket, '-f', '/dev/null', ...args]);
  }

  /** Where tmux put the server's socket, as claude's TMUX says it. */
  async socketPath(): Promise<string> {
    return (await this.run('display-message', '-p', '#{socket_path}')).stdout.trim();
  }

  /** Starts claude by hand in a new tmux session, as a person would; resolves with its pane id. */
  async startClaude(env: Record<string, string | undefined>, cwd: string): Promise<string> {
    const name = `work-${++this.#windows}`;
    const vars = ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'].flatMap((key) => [
      '-e',
      `${key}=${env[key]}`,
    ]);
    await this.run(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      '200',
      '-y',
      '50',
      '-c',
      cwd,
      ...vars,
      '-e',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      '-P',
      '-F',
      '#{pane_id}',
      '--',
      claudeBin,
      '--permission-mode',
      'default',
    );
    return (await this.run('display-message', '-p', '-t', `=${name}:`, '#{pane_id}')).stdout;
  }

  screen(pane: string): Promise<string> {
    return this.run('capture-pane', '-p', '-J', '-t', pane).then((result) => result.stdout);
  }

  /** Types a prompt as a person does: the keys, then Enter. */
  async type(pane: string, text: string): Promise<void> {
    await this.waitFor(pane, /❯/);
    await this.run('send-keys', '-t', pane, '-l', text);
    await this.waitFor(pane, new RegExp(text.slice(0, 20)));
    await this.run('send-keys', '-t', pane, 'Enter');
  }

  async waitFor(pane: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen(pane);
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`pane never showed ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  kill() {
    return execa('tmux', ['-L', this.socket, 'kill-server'], { reject: false });
  }
}

const sessionFields = 'id origin status tmuxPane tmuxSocket pid cwd attachCommand';

async function externalSession(hub: TestHub, where: (session: any) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { sessions } = await hub.data(`{ sessions { ${sessionFields} } }`);
    const found = sessions.find((session: any) => session.origin === 'EXTERNAL' && where(session));
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no such EXTERNAL session: ${JSON.stringify(sessions)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Asks the session to touch `target` (outside its cwd, so claude asks first), and allows the
 * request through the API; resolves with the request as it was pending.
 */
async function touchAllowed(hub: TestHub, sessionId: string, target: string) {
  const requests = hub.subscribe(
    'subscription { permissionRequests(pending: true) { id sessionId toolName status } }',
  );
  await hub.data(
    `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
    { id: sessionId, text: `run: touch ${target} && echo made` },
  );
  const [request] = (
    await requests.until((r) => r.permissionRequests.sessionId === sessionId)
  ).slice(-1);
  await hub.data(
    `mutation($id: ID!) { decidePermission(input: { requestId: $id, behavior: ALLOW }) { error { __typename } } }`,
    { id: request!.permissionRequests.id },
  );
  return request!.permissionRequests;
}

async function lastAnswer(hub: TestHub, id: string): Promise<string | null> {
  const { session } = await hub.data(
    `query($id: ID!) { session(id: $id) { lastAssistantMessage } }`,
    { id },
  );
  return session.lastAssistantMessage;
}

const userSettings = '{\n\t"permissions": { "allow": ["Bash(echo:*)"] },\n  "theme":"dark"}';

describe('claudes started by hand, through the installed global hooks', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  const person = new PersonTmux();
  let settingsPath: string;
  let dataDir: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    settingsPath = path.join(world.env.CLAUDE_CONFIG_DIR!, 'settings.json');
    writeFileSync(settingsPath, userSettings, { mode: 0o640 });
    dataDir = tempDir('cch-data-');
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin], dataDir });
    // Before the hub stops: the claudes started by hand, with the person's tmux server.
    leftovers.add(() => person.kill());
    const { installHooks } = await hub.data(
      'mutation { installHooks { path installed current events url } }',
    );
    expect(installHooks).toMatchObject({ path: settingsPath, installed: true, current: true });
    expect(installHooks.events).toContain('PermissionRequest');
  });

  it('lists a claude started in a pane as EXTERNAL, follows its turns, types into it, decides its permissions and takes a client there', async () => {
    const cwd = world.makeCwd('by-hand');
    const pane = await person.startClaude(world.env, cwd);
    const session = await externalSession(hub, (found) => found.tmuxPane === pane);
    expect(session).toMatchObject({
      status: 'IDLE',
      cwd,
      tmuxSocket: await person.socketPath(),
      attachCommand: `tmux -S ${await person.socketPath()} attach -t ${pane}`,
    });
    expect(session.pid).toBeGreaterThan(0);
    const events = hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq eventName
        ... on UserPromptSubmitEvent { prompt } ... on StopEvent { lastAssistantMessage } } }`,
      { id: session.id },
    );

    // A prompt typed by the person: its events, its turn, then the session waits for a person.
    await person.type(pane, 'hello from the pane');
    await events.until((e) => e.sessionEvents.eventName === 'Stop');
    const { session: afterTurn } = await hub.data(
      `query($id: ID!) { session(id: $id) { status turns { prompt answer status } } }`,
      { id: session.id },
    );
    expect(afterTurn).toMatchObject({
      status: 'IDLE',
      turns: [
        { prompt: 'hello from the pane', answer: 'echo: hello from the pane', status: 'COMPLETED' },
      ],
    });
    const { attention } = await hub.data('{ attention { reason session { id } } }');
    expect(attention).toContainEqual({ reason: 'IDLE', session: { id: session.id } });

    // A message through the API is pasted into the person's pane, byte for byte.
    const text = `two lines, "quotes" and $HOME\n\`ticks\` \\ 日本語 🎉 -x`;
    await hub.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id: session.id, text },
    );
    const prompts = await events.until(
      (e) => e.sessionEvents.eventName === 'UserPromptSubmit' && e.sessionEvents.prompt === text,
    );
    expect(prompts.at(-1)!.sessionEvents.prompt).toBe(text);
    await events.until((e) => e.sessionEvents.lastAssistantMessage === `echo: ${text}`);

    // A permission request, decided through the API.
    const target = path.join(world.makeUntrustedCwd(), 'made-by-hand');
    expect(await touchAllowed(hub, session.id, target)).toMatchObject({
      toolName: 'Bash',
      status: 'PENDING',
    });
    await events.until((e) => e.sessionEvents.lastAssistantMessage === 'ran: made');
    expect(existsSync(target)).toBe(true);

    // interruptSession stops the running turn in the person's pane, as Escape there would.
    const slow = 'slow: 60000 take your time';
    await hub.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id: session.id, text: slow },
    );
    await events.until((e) => e.sessionEvents.prompt === slow);
    await person.waitFor(pane, /esc to interrupt/);
    const { interruptSession } = await hub.data(
      `mutation($id: ID!) { interruptSession(id: $id) { status } }`,
      { id: session.id },
    );
    expect(interruptSession.status).toBe('IDLE');
    expect(await person.screen(pane)).not.toMatch(/esc to interrupt/);

    // focusSession takes a client attached elsewhere on the person's server to the pane.
    await person.run('new-session', '-d', '-s', 'elsewhere');
    const control = execa('tmux', ['-L', person.socket, '-C', 'attach', '-t', 'elsewhere'], {
      stdin: 'pipe',
      reject: false,
    });
    leftovers.add(() => control.kill());
    const clientPane = async () =>
      (await person.run('list-clients', '-F', '#{client_name} #{pane_id}')).stdout.trim();
    await expect.poll(clientPane, { timeout: 10_000 }).toMatch(/ %\d+$/);
    expect(await clientPane()).not.toMatch(new RegExp(` ${pane}$`));
    const { focusSession } = await hub.data(`mutation($id: ID!) { focusSession(id: $id) { id } }`, {
      id: session.id,
    });
    expect(focusSession.id).toBe(session.id);
    expect(await clientPane()).toMatch(new RegExp(` ${pane}$`));

    // Stopping it ends claude; the hub never starts it again.
    const { stopSession } = await hub.data(
      `mutation($id: ID!) { stopSession(id: $id) { status } }`,
      { id: session.id },
    );
    expect(stopSession.status).toBe('STOPPED');
    const refused = await hub.gql(`mutation($id: ID!) { resumeSession(id: $id) { id } }`, {
      id: session.id,
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe('EXTERNAL_SESSION');
  });

  it('stores a session the hub started once, with the global hooks installed too', async () => {
    const outside = world.makeUntrustedCwd();
    const target = path.join(outside, 'made-by-managed');
    const { createSession: session } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: DEFAULT }) { id } }`,
      { cwd: world.makeCwd('managed') },
    );
    await touchAllowed(hub, session.id, target);
    await expect.poll(() => lastAnswer(hub, session.id), { timeout: 30_000 }).toBe('ran: made');
    expect(existsSync(target)).toBe(true);
    const { session: stored } = await hub.data(
      `query($id: ID!) { session(id: $id) { origin events(limit: 1000) { eventName } } }`,
      { id: session.id },
    );
    const count = (name: string) =>
      stored.events.filter((event: { eventName: string }) => event.eventName === name).length;
    expect(stored.origin).toBe('MANAGED');
    expect([
      count('SessionStart'),
      count('UserPromptSubmit'),
      count('PermissionRequest'),
      count('Stop'),
    ]).toEqual([1, 1, 1, 1]);
    const { sessions } = await hub.data('{ sessions { id origin } }');
    expect(sessions.filter((found: any) => found.id === session.id)).toEqual([
      { id: session.id, origin: 'MANAGED' },
    ]);
  });

  it('is found by a hub started after it, remembered across a restart on another port, and uninstalls to the very bytes it found', async () => {
    const cwd = world.makeCwd('before-the-hub');
    const pane = await person.startClaude(world.env, cwd);
    const known = await externalSession(hub, (session) => session.tmuxPane === pane);
    const later = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    const found = await externalSession(later, (session) => session.tmuxPane === pane, 5000);
    expect(found).toMatchObject({ id: known.id, status: 'IDLE', cwd, pid: known.pid });
    expect(found.tmuxSocket).toBe(await person.socketPath());

    // The same hub, back on another port: the installed hooks follow it, the session is kept.
    const { baseUrl } = hub;
    await hub.stop();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin], dataDir });
    expect(hub.baseUrl).not.toBe(baseUrl);
    const { hookInstallation } = await hub.data('{ hookInstallation { current url } }');
    expect(hookInstallation).toEqual({ current: true, url: `${hub.baseUrl}/hooks?from=global` });
    const { session: remembered } = await hub.data(
      `query($id: ID!) { session(id: $id) { ${sessionFields} } }`,
      { id: known.id },
    );
    expect(remembered).toEqual(known);

    // A claude that had not begun to watch its settings when they changed posts to the earlier
    // address: the hub answers there too, while a claude that ran then still runs.
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    const { url, headers } = settings.hooks.Notification[0].hooks[0];
    expect(url).toBe(`${hub.baseUrl}/hooks?from=global`);
    const { session: ids } = await hub.data(
      `query($id: ID!) { session(id: $id) { claudeSessionId } }`,
      { id: known.id },
    );
    const late = await fetch(url.replace(hub.baseUrl, baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: headers.Authorization,
        'x-claude-code-hub': headers['X-Claude-Code-Hub'],
      },
      body: JSON.stringify({
        session_id: ids.claudeSessionId,
        hook_event_name: 'Notification',
        message: 'posted to the earlier address',
        cwd,
      }),
    });
    expect(late.status).toBe(200);
    const { session: withLate } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { eventName payload } } }`,
      { id: known.id },
    );
    expect(withLate.events.at(-1)).toMatchObject({
      eventName: 'Notification',
      payload: { message: 'posted to the earlier address' },
    });

    await person.type(pane, 'after the restart');
    await expect
      .poll(() => lastAnswer(hub, known.id), { timeout: 30_000 })
      .toBe('echo: after the restart');

    const { uninstallHooks } = await hub.data(
      'mutation { uninstallHooks { installed path backupPath } }',
    );
    expect(uninstallHooks).toEqual({ installed: false, path: settingsPath, backupPath: null });
    expect(readFileSync(settingsPath, 'utf8')).toBe(userSettings);
  });
});

describe('the hook endpoint, for global hooks', () => {
  let hub: TestHub;
  const secrets = { read: 'read-secret-0123456789', hook: 'hook-secret-0123456789' };

  beforeAll(async () => {
    const dir = tempDir('cch-tokens-');
    const file = writeTokensFile(dir, tokensByScope(secrets, ''));
    hub = await startHub({ args: ['--tokens-file', file], token: secrets.read });
  });

  const post = (authorization: string | null) =>
    fetch(`${hub.baseUrl}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify({
        session_id: '33333333-2222-4333-8444-555555555555',
        hook_event_name: 'Stop',
        cwd: '/tmp',
      }),
    });

  it('takes a hook token, and refuses a read token or none', async () => {
    for (const authorization of [null, `Bearer ${secrets.read}`]) {
      const refused = await post(authorization);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const taken = await post(`Bearer ${secrets.hook}`);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({});
    const { sessions } = await hub.data('{ sessions { id origin status } }');
    expect(sessions).toEqual([
      { id: '33333333-2222-4333-8444-555555555555', origin: 'EXTERNAL', status: 'IDLE' },
    ]);
    // A hook token is for hooks only.
    const asHook = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets.hook}` },
      body: JSON.stringify({ query: '{ sessions { id } }' }),
    });
    expect(asHook.status).toBe(403);
    expect(await asHook.json()).toMatchObject({ code: 'FORBIDDEN' });
  });
});
