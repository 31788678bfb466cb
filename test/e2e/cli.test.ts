import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { LiveQueue } from '../helpers/live-queue.js';
import { leftovers, tempDir } from '../helpers/leftovers.js';

const root = new URL('../..', import.meta.url).pathname;
const token = 'cli-admin-secret-0123456789';

/** The prompt that makes the stand-in call the hub's send_to_channel tool. */
const sendToChannel = (channel: string, message: string) =>
  `tool: mcp__hub__send_to_channel ${JSON.stringify({ channel, message })}`;

describe('the claude-code-hub command line against a running hub', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let id: string;

  /** Runs the bin's script, compiled from the current sources in beforeAll. */
  const cli = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
    execa('node', ['dist/main.js', ...args], {
      cwd: root,
      reject: false,
      input: options.input ?? '',
      env: { CLAUDE_HUB_URL: hub.url, CLAUDE_HUB_TOKEN: token, NO_COLOR: '1', ...options.env },
    });

  beforeAll(async () => {
    await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root });
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      token,
      args: ['--claude-bin', claudeBin, '--token', token],
    });
  });

  /** `channel listen` in the background, each line of its stdout queued as it comes. */
  const listen = (args: string[]) => background(['channel', 'listen', ...args]);

  /** A command in the background, each line of its stdout and stderr queued as it comes. */
  function background(args: string[]) {
    const child = cli(args);
    // Killed when the test ends, if it still runs.
    leftovers.add(() => child.kill());
    const linesOf = (stream: NodeJS.ReadableStream) => {
      const lines = new LiveQueue<string>();
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop()!;
        for (const line of parts) lines.push(line);
      });
      return lines;
    };
    return { child, lines: linesOf(child.stdout!), errors: linesOf(child.stderr!) };
  }

  it('creates a session, lists it, and asks it something', async () => {
    const created = await cli([
      'new',
      '--cwd',
      world.makeCwd(),
      '--name',
      'from-cli',
      '--permission-mode',
      'DEFAULT',
    ]);
    expect(created.exitCode).toBe(0);
    id = created.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.stderr).toMatch(/^IDLE; watch it with: tmux -L \S+ attach -t \S+$/);

    const listed = await cli(['ls']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+LAST\s+CWD\s+ATTACH$/);
    expect(listed.stdout).toContain(id);
    const json = (await cli(['ls', '--json'])).stdout.split('\n').map((line) => JSON.parse(line));
    expect(json).toEqual([
      expect.objectContaining({ id, name: 'from-cli', status: 'IDLE', origin: 'MANAGED' }),
    ]);
    // Outside tmux (no $TMUX) it asks for the client active last: none is attached here.
    const went = await cli(['go', id], { env: { TMUX: '' } });
    expect(went.exitCode).toBe(1);
    expect(went.stderr).toBe(
      'claude-code-hub go: NO_TMUX_CLIENT: no tmux client is attached to the tmux server that holds the session',
    );

    const asked = await cli(['ask', id, 'what is 6 x 7?']);
    expect(asked).toMatchObject({ exitCode: 0, stdout: 'echo: what is 6 x 7?' });
    const fromStdin = await cli(['ask', id, '-'], { input: 'read from\nstandard input' });
    expect(fromStdin).toMatchObject({ exitCode: 0, stdout: 'echo: read from\nstandard input' });
    const late = await cli(['ask', id, 'slow: 4000 take your time', '--timeout', '1']);
    expect(late.exitCode).toBe(3);
    expect(late.stderr).toBe('no reply within 1 s; the message goes on');
  });

  it('approves a permission request found through attention, and refuses a second decision', async () => {
    const watchJson = background(['attention', '--watch', '--json']);
    const watchText = background(['attention', '--watch']);
    // Each says on stderr when it watches; what needs a person from then on comes on stdout.
    for (const { errors } of [watchJson, watchText]) {
      await errors.until((line) => line.startsWith('watching:'), 30_000);
    }
    // The slow turn above may still be running: the message waits its turn.
    // A command that changes something, so claude asks (echo alone is allowed without asking).
    const sent = await cli(['send', id, `run: touch ${world.makeCwd()}/made && echo cli-ok`]);
    expect(sent.exitCode).toBe(0);
    expect(sent.stdout).toMatch(/^[0-9a-f-]{36} (QUEUED|SENT)$/);
    const requestId: string = await vi.waitFor(
      async () => {
        const attention = await cli(['attention', '--json']);
        expect(attention.exitCode).toBe(0);
        const items = attention.stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        const item = items.find((entry) => entry.reason === 'PERMISSION');
        expect(item, attention.stdout).toBeDefined();
        return item.permissionRequest.id;
      },
      { timeout: 60_000, interval: 300 },
    );
    expect((await cli(['attention'])).stdout).toMatch(
      /^REASON\s+WAITING\s+SESSION\s+WHAT\nPERMISSION\s/,
    );
    // The watchers printed the request as it came, with what is needed to decide it.
    const raised = JSON.parse(
      (await watchJson.lines.until((line) => line.includes(requestId), 30_000)).at(-1)!,
    );
    expect(raised).toMatchObject({
      reason: 'PERMISSION',
      session: { id },
      permissionRequest: { id: requestId, toolName: 'Bash' },
    });
    expect(
      (await watchText.lines.until((line) => line.includes(requestId), 30_000)).at(-1),
    ).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d PERMISSION ${id.slice(0, 8)} \\(from-cli\\) ${requestId} Bash `,
      ),
    );
    const approved = await cli(['approve', requestId]);
    expect(approved).toMatchObject({ exitCode: 0, stdout: `${requestId} ALLOWED Bash` });
    // The turn ends: the session is raised again, with claude's last words.
    const finished = JSON.parse(
      (
        await watchJson.lines.until((line) => {
          const item = JSON.parse(line);
          return item.reason === 'IDLE' && item.lastAssistantMessage === 'ran: cli-ok';
        }, 30_000)
      ).at(-1)!,
    );
    expect(finished.session.id).toBe(id);
    for (const { child } of [watchJson, watchText]) {
      child.kill('SIGINT');
      expect((await child).exitCode).toBe(0);
    }
    const again = await cli(['deny', requestId, '--message', 'too late']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/^ALREADY_DECIDED: /);
  }, 120_000);

  it('stops, tails the whole stream as JSON lines, and resumes', async () => {
    // Wait for the approved tool's turn to finish before stopping.
    await expect
      .poll(async () => JSON.parse((await cli(['ls', '--json'])).stdout).status, {
        timeout: 60_000,
        interval: 300,
      })
      .toBe('IDLE');
    expect(await cli(['stop', id])).toMatchObject({ exitCode: 0, stdout: `${id} STOPPED` });
    const tailed = await cli(['tail', id, '--after', '0', '--json']);
    expect(tailed.exitCode).toBe(0);
    const events = tailed.stdout.split('\n').map((line) => JSON.parse(line));
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    const names = events.map((event) => event.eventName);
    expect(names[0]).toBe('SessionStart');
    expect(names.at(-1)).toBe('SessionEnd');
    const ran = events.find((event) => event.eventName === 'PostToolUse');
    expect(JSON.stringify(ran.payload.tool_response)).toContain('cli-ok');
    const readable = await cli(['tail', id, '--after', '0']);
    expect(readable.stdout).toMatch(/^#1 \d\d:\d\d:\d\d SessionStart$/m);
    expect(readable.stdout).toMatch(/^#\d+ \d\d:\d\d:\d\d PostToolUse Bash \(\d+ ms\) .*cli-ok/m);

    const actions = await cli(['tail', id, '--actions']);
    expect(actions.exitCode).toBe(0);
    expect(actions.stdout).toMatch(/^▸ command  touch \S+ && echo cli-ok$/m);
    expect(actions.stdout).toMatch(/^✓ command  touch \S+ && echo cli-ok  \d+\.\d s$/m);
    const since = ['--after', '2000-01-01T00:00:00Z'];
    const turns = await cli(['turns', id, ...since, '--json']);
    expect(turns.exitCode).toBe(0);
    const followed = turns.stdout.split('\n').map((line) => JSON.parse(line));
    expect(followed.map((turn) => turn.number)).toEqual(followed.map((_, i) => i + 1));
    expect(followed.at(-1)).toMatchObject({
      status: 'COMPLETED',
      answer: 'ran: cli-ok',
      actions: [{ kind: 'COMMAND', ok: true }],
      resume: expect.stringMatching(/^claude --resume [0-9a-f-]{36}$/),
    });
    expect((await cli(['turns', id, ...since])).stdout).toMatch(
      /^\S{8} #\d+ COMPLETED .*→ ran: cli-ok \(\d+\.\d s, 1 action, \d+ in \/ \d+ out tokens\)$/m,
    );

    expect(await cli(['resume', id])).toMatchObject({ exitCode: 0, stdout: `${id} IDLE` });
    expect(await cli(['stop', id])).toMatchObject({ exitCode: 0 });
  });

  it('installs the global hooks into its config dir, reports them, and uninstalls them byte for byte', async () => {
    const configDir = realpathSync(tempDir('cch-cli-hooks-'));
    const settingsPath = path.join(configDir, 'settings.json');
    // Tabs, odd spacing, no final newline, and a hook of the user's own on an event the hub uses.
    const original =
      '{\t"model" :"sonnet",\n  "hooks": {"Stop": [ {"matcher": "",\n' +
      '     "hooks": [{"type":"command","command":"echo mine"}]}]},\n"env":{ "A": "1" } }';
    writeFileSync(settingsPath, original, { mode: 0o640 });
    const env = { CLAUDE_CONFIG_DIR: configDir };
    const hookUrl = `${hub.baseUrl}/hooks?from=global`;
    const installed = await cli(['hooks', 'install'], { env });
    expect(installed.stderr).toBe('');
    expect(installed.exitCode).toBe(0);
    const [line, backup] = installed.stdout.split('\n');
    const events = Number(/^installed (\d+) events in /.exec(line!)?.[1]);
    expect(events).toBeGreaterThan(10);
    expect(line).toBe(`installed ${events} events in ${settingsPath}; they post to ${hookUrl}`);
    expect(backup).toBe(`the file as it was is kept in ${settingsPath}.claude-code-hub.bak`);

    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(settings).toMatchObject({ model: 'sonnet', env: { A: '1' } });
    expect(Object.keys(settings.hooks)).toHaveLength(events);
    const stop = settings.hooks.Stop.flatMap((group: { hooks: unknown[] }) => group.hooks);
    expect(stop).toEqual([
      { type: 'command', command: 'echo mine' },
      expect.objectContaining({
        type: 'http',
        url: hookUrl,
        headers: expect.objectContaining({ 'X-Claude-Code-Hub': 'global' }),
      }),
    ]);
    const { hookInstallation } = await hub.data(
      `query($dir: String) { hookInstallation(dir: $dir) { path installed current } }`,
      { dir: configDir },
    );
    expect(hookInstallation).toEqual({ path: settingsPath, installed: true, current: true });

    const status = await cli(['hooks', 'status'], { env });
    expect(status).toMatchObject({
      exitCode: 0,
      stdout: `${settingsPath}: ${events} events post to ${hookUrl}\nthe hub at ${hub.baseUrl} answers`,
    });

    // No hub needed: the file is read and restored here.
    const unreachable = { ...env, CLAUDE_HUB_URL: 'http://127.0.0.1:9/graphql' };
    const removed = await cli(['hooks', 'uninstall'], { env: unreachable });
    expect(removed).toMatchObject({
      exitCode: 0,
      stdout: `removed ${events} hub hooks from ${settingsPath}; restored it byte for byte`,
    });
    expect(readFileSync(settingsPath, 'utf8')).toBe(original);
    const after = await cli(['hooks', 'status'], { env });
    expect(after).toMatchObject({ exitCode: 1, stdout: `${settingsPath}: no hub hooks` });
    const bad = await cli(['hooks', 'reinstall'], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(
      /^claude-code-hub hooks: unknown hooks action "reinstall": expected install, uninstall or status\n/,
    );
    expect((await cli(['hooks', 'status', '--scope', 'global'], { env })).stderr).toMatch(
      /^claude-code-hub hooks: --scope must be user or project, got "global"\n/,
    );
  });

  it('listens on a channel, resumes with --after, lists the channel and sends into it', async () => {
    const session = (await cli(['new', '--cwd', world.makeCwd()])).stdout.trim();
    const first = listen(['ops', '--json', '--description', 'the ops room']);
    await vi.waitFor(
      async () => {
        const listed = await cli(['channel', 'ls']);
        expect(listed).toMatchObject({
          exitCode: 0,
          stdout: 'NAME  LISTENERS  LAST  DESCRIPTION\nops   1          -     the ops room',
        });
      },
      { timeout: 10_000, interval: 100 },
    );
    const listed = await cli(['channels', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual({
      name: 'ops',
      description: 'the ops room',
      listeners: 1,
      lastMessageAt: null,
    });
    // A second, readable listener keeps the channel open while the first is away.
    const keeper = listen(['ops']);
    // A command's process takes about a second to start on a busy machine.
    await vi.waitFor(
      async () => {
        expect(JSON.parse((await cli(['channels', '--json'])).stdout).listeners).toBe(2);
      },
      { timeout: 10_000, interval: 100 },
    );

    const sent = await cli(['channel', 'send', session, 'ops', '-'], {
      input: sendToChannel('ops', 'deploy finished'),
    });
    expect(sent.exitCode).toBe(0);
    expect(sent.stdout).toMatch(/^[0-9a-f-]{36} (QUEUED|SENT)$/);
    const heard = JSON.parse(await first.lines.next(60_000));
    expect(heard).toEqual({
      seq: 1,
      channel: 'ops',
      sessionId: session,
      text: 'deploy finished',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await keeper.lines.next()).toBe(
      `#1 ${heard.at.slice(11, 19)} ${session.slice(0, 8)} deploy finished`,
    );
    const { session: found } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(names: ["UserPromptSubmit"]) {
        ... on UserPromptSubmitEvent { prompt } } messages { channel } } }`,
      { id: session },
    );
    expect(found.events).toEqual([
      {
        prompt: `[message from channel "ops"; answer there with the send_to_channel tool]\n${sendToChannel('ops', 'deploy finished')}`,
      },
    ]);
    expect(found.messages).toEqual([{ channel: 'ops' }]);

    first.child.kill('SIGINT');
    expect(await first.child).toMatchObject({ exitCode: 0, stderr: '' });
    for (const text of ['two', 'three\nlines']) {
      const queued = await cli(['channel', 'send', session, 'ops', sendToChannel('ops', text)]);
      expect(queued.exitCode).toBe(0);
    }
    expect(await keeper.lines.next(60_000)).toMatch(/^#2 \d\d:\d\d:\d\d \S{8} two$/);
    expect(await keeper.lines.next(60_000)).toMatch(/^#3 \d\d:\d\d:\d\d \S{8} three$/);
    expect(await keeper.lines.next()).toBe('  lines');

    // Back with --after 1: exactly the two it missed, then live ones.
    const back = listen(['ops', '--after', '1', '--json']);
    const missed = [await back.lines.next(), await back.lines.next()].map((line) =>
      JSON.parse(line),
    );
    expect(missed).toMatchObject([
      { seq: 2, text: 'two' },
      { seq: 3, text: 'three\nlines' },
    ]);
    await cli(['channel', 'send', session, 'ops', sendToChannel('ops', 'four')]);
    expect(JSON.parse(await back.lines.next(60_000))).toMatchObject({ seq: 4, text: 'four' });
    expect((await cli(['channel', 'ls'])).stdout).toMatch(/\nops\s+2\s+\d+s\s+the ops room$/);

    back.child.kill('SIGTERM');
    keeper.child.kill('SIGINT');
    expect(await back.child).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await keeper.child).toMatchObject({ exitCode: 0, stderr: '' });
    expect(keeper.lines.received).toHaveLength(5);
    // The last listener left: the channel is closed.
    await vi.waitFor(async () => expect((await cli(['channel', 'ls'])).stdout).toBe(''), {
      timeout: 10_000,
      interval: 100,
    });

    const badName = await cli(['channel', 'send', session, 'not a name', 'hi']);
    expect(badName.exitCode).toBe(1);
    expect(badName.stderr).toMatch(
      /^claude-code-hub channel send: BAD_USER_INPUT: channel name "not a name" is not 1-64 letters/,
    );
    const unreachable = await cli(['channel', 'listen', 'ops'], {
      env: { CLAUDE_HUB_URL: 'http://127.0.0.1:9/graphql' },
    });
    expect(unreachable.exitCode).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^claude-code-hub channel listen: UNREACHABLE: cannot reach http:\/\/127\.0\.0\.1:9\/graphql: .*ECONNREFUSED/,
    );
    await cli(['stop', session]);
  }, 180_000);

  it('schedules a prompt into a session, lists it and removes it', async () => {
    const added = await cli([
      'schedule',
      'add',
      '--cron',
      '0 6 * * *',
      '--text',
      'morning',
      '--session',
      id,
    ]);
    expect(added.exitCode, added.stderr).toBe(0);
    const [schedule, , next] = added.stdout.split(' ');
    expect(next).toMatch(/T06:00:00\.000Z$/);
    const listed = await cli(['schedule', 'ls', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      id: schedule,
      sessionId: id,
      text: 'morning',
      overlap: 'WAIT',
    });
    expect((await cli(['schedule', 'rm', schedule!])).stdout).toBe(`${schedule} removed`);
    expect((await cli(['schedule', 'ls'])).stdout).toBe('');
    expect((await cli(['schedule'])).stderr).toMatch(
      /^claude-code-hub schedule: expected add, ls or rm\n/,
    );
  });

  it('exits 2 with usage on bad usage, 1 on a refused token, and works as the package bin', async () => {
    const missing = await cli(['send', id]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(
      /^claude-code-hub send: expected 2 arguments, got 1\n\nUsage: claude-code-hub send /,
    );
    const unknownOption = await cli(['ls', '--colour']);
    expect(unknownOption.exitCode).toBe(2);
    expect((await cli(['turns', 'a', 'b'])).stderr).toMatch(
      /^claude-code-hub turns: expected 0 to 1 arguments, got 2/,
    );
    expect((await cli(['turns', '--after', 'yesterday'])).stderr).toMatch(
      /^claude-code-hub turns: --after must be an ISO 8601 time/,
    );
    expect((await cli(['channel', 'listen', 'ops', '--after', 'two'])).stderr).toMatch(
      /^claude-code-hub channel listen: --after must be a whole number \(0 or more\), got "two"\n\nUsage: claude-code-hub channel listen <name> /,
    );
    const watchAndGo = await cli(['attention', '--watch', '--go']);
    expect(watchAndGo.exitCode).toBe(2);
    expect(watchAndGo.stderr).toMatch(
      /^claude-code-hub attention: --go goes with neither --json nor --watch\n/,
    );
    const group = await cli(['channel']);
    expect(group.exitCode).toBe(2);
    expect(group.stderr).toMatch(/^claude-code-hub channel: expected listen, send or ls\n/);
    expect((await cli(['channel', 'frob'])).stderr).toMatch(
      /^claude-code-hub channel: unknown channel command "frob": expected listen, send or ls\n/,
    );
    const unknown = await cli(['frobnicate']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^claude-code-hub: unknown command "frobnicate"/);
    for (const command of [
      'ls',
      'new',
      'send',
      'ask',
      'tail',
      'stop',
      'resume',
      'approve',
      'deny',
      'attention',
      'go',
      'hooks',
      'channel listen',
      'channel send',
      'channel ls',
      'channels',
      'schedule add',
    ]) {
      const help = await cli([...command.split(' '), '--help']);
      expect(help.exitCode, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`^Usage: claude-code-hub ${command} `));
    }
    const refused = await cli(['ls'], { env: { CLAUDE_HUB_TOKEN: 'wrong-token-0123456789' } });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe('claude-code-hub ls: UNAUTHENTICATED: unknown token');
    // The bin of the package, built by the install step.
    const bin = await execa(
      'npx',
      ['--no-install', 'claude-code-hub', 'ls', '--json', '--url', hub.url, '--token', token],
      {
        cwd: root,
        reject: false,
      },
    );
    expect(bin.exitCode).toBe(0);
    expect(JSON.parse(bin.stdout.split('\n')[0]!)).toMatchObject({ id });
  });
});
