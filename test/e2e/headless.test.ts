import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs } from '../../harness/hub-process.js';
import { transcriptPathFor } from '../../src/sessions/transcript.js';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';
import { startClaudeWorld } from '../helpers/claude-world.js';
import { startHub } from '../helpers/hub.js';
import { hubHome } from '../helpers/hub-process.js';
import { tempDir } from '../helpers/leftovers.js';

const sendMessage = `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`;
const turnFields = 'number prompt status answer actions { kind title ok }';

describe('a HEADLESS session: claude -p over stream-json, behind the same API', () => {
  const suite = claudeHubSuite();

  it('holds a conversation with a tool, answers ask, keeps every stream line, and stops', async () => {
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
    const send = (text: string) => suite.hub.data(sendMessage, { id, text });
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
    const { ask } = await suite.hub.data(
      `mutation($id: ID!) { ask(sessionId: $id, text: "still there?", timeoutSeconds: 60) { __typename ... on AskReply { reply message { status } } } }`,
      { id },
    );
    expect(ask).toEqual({
      __typename: 'AskReply',
      reply: 'echo: still there?',
      message: { status: 'DELIVERED' },
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
        if (results.length < 3) throw new Error('the last result line has not come');
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
      ['success', 'echo: still there?'],
    ]);
    expect(lines.some((e: any) => e.type === 'system' && e.subtype === 'init')).toBe(true);
    expect(lines.some((e: any) => e.type === 'assistant')).toBe(true);

    // Each turn has the usage its result line reported, and its own part of the process's cost
    // (total_cost_usd counts from claude's start).
    const { session: costs } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { turns { costUsd usage } } }`,
      { id },
    );
    expect(costs.turns.map((t: any) => t.usage)).toEqual(
      results.map((r: any) => ({
        input_tokens: r.message.usage.input_tokens,
        output_tokens: r.message.usage.output_tokens,
        cache_read_input_tokens: r.message.usage.cache_read_input_tokens,
        cache_creation_input_tokens: r.message.usage.cache_creation_input_tokens,
      })),
    );
    expect(costs.turns.every((t: any) => t.costUsd > 0)).toBe(true);
    const spent = costs.turns.reduce((sum: number, t: any) => sum + t.costUsd, 0);
    expect(spent).toBeCloseTo(results.at(-1).message.total_cost_usd, 8);

    const { stopSession } = await suite.hub.data(
      `mutation($id: ID!) { stopSession(id: $id) { status } }`,
      { id },
    );
    expect(stopSession.status).toBe('STOPPED');
  });
});

describe('HEADLESS permissions, interrupts and restarts', () => {
  const suite = claudeHubSuite();
  const send = (id: string, text: string) => suite.hub.data(sendMessage, { id, text });
  const create = async (permissionMode: string) =>
    (
      await suite.hub.data(
        `mutation($cwd: String!, $mode: PermissionMode) { createSession(input: { cwd: $cwd, runtime: HEADLESS, permissionMode: $mode }) { id } }`,
        { cwd: suite.world.makeCwd(), mode: permissionMode },
      )
    ).createSession.id as string;

  it('asks for a permission through the API: one allowed runs its tool, one denied does not', async () => {
    const id = await create('DEFAULT');
    const requests = suite.hub.subscribe(
      `subscription { permissionRequests { id sessionId status toolName } }`,
    );
    const turns = suite.hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { number answer actions { kind ok } } }`,
      { id },
    );
    const decide = async (behavior: string) => {
      const request = (
        await requests.until(
          (r) => r.permissionRequests.sessionId === id && r.permissionRequests.status === 'PENDING',
          45_000,
        )
      ).at(-1)!.permissionRequests;
      expect(request.toolName).toBe('Bash');
      await suite.hub.data(
        `mutation($input: DecidePermissionInput!) { decidePermission(input: $input) { error { code } } }`,
        { input: { requestId: request.id, behavior, message: 'not this one' } },
      );
    };
    const dir = suite.world.makeUntrustedCwd();
    await send(id, `run: touch ${dir}/allowed`);
    await decide('ALLOW');
    expect((await turns.next(45_000)).turns).toMatchObject({
      number: 1,
      actions: [{ kind: 'COMMAND', ok: true }],
    });
    expect(existsSync(`${dir}/allowed`)).toBe(true);

    await send(id, `run: touch ${dir}/denied`);
    await decide('DENY');
    const denied = (await turns.next(45_000)).turns;
    expect(denied.number).toBe(2);
    expect(denied.answer).toMatch(/^tool error: .*not this one/s);
    expect(denied.actions.map((a: any) => a.kind)).toEqual(['COMMAND', 'WARNING']);
    expect(existsSync(`${dir}/denied`)).toBe(false);
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
  });

  it('interrupts a long command, and takes the next message', async () => {
    const id = await create('ACCEPT_EDITS');
    const turns = suite.hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { number status answer error actions { ok } } }`,
      { id },
    );
    const actions = suite.hub.subscribe(
      `subscription($id: ID!) { sessionActions(id: $id) { phase } }`,
      { id },
    );
    await send(id, 'run: timeout 30 tail -f /dev/null');
    await actions.until((a) => a.sessionActions.phase === 'STARTED', 45_000);
    const { interruptSession } = await suite.hub.data(
      `mutation($id: ID!) { interruptSession(id: $id) { status } }`,
      { id },
    );
    expect(interruptSession.status).toBe('IDLE');
    // The turn ends at claude's result line, which the hub marks as the one it interrupted.
    expect((await turns.next(30_000)).turns).toMatchObject({
      number: 1,
      status: 'INTERRUPTED',
      error: 'interrupted through the API',
      actions: [{ ok: false }],
    });
    await send(id, 'after the interrupt');
    expect((await turns.next(45_000)).turns).toMatchObject({
      number: 2,
      status: 'COMPLETED',
      answer: 'echo: after the interrupt',
    });
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
  });
});

describe('HEADLESS crashes, stops and resumes', () => {
  const suite = claudeHubSuite();
  const send = (id: string, text: string) => suite.hub.data(sendMessage, { id, text });
  const sessionOf = async (id: string) =>
    (
      await suite.hub.data(
        `query($id: ID!) { session(id: $id) { status restartCount turns { number status answer } } }`,
        { id },
      )
    ).session;

  it('restarts a claude that crashed with --resume, and resumes one that was stopped', async () => {
    const cwd = suite.world.makeCwd();
    const { createSession } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, runtime: HEADLESS, permissionMode: ACCEPT_EDITS }) { id } }`,
      { cwd },
    );
    const id = createSession.id as string;
    const turns = suite.hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { number answer } }`,
      { id },
    );
    await send(id, 'remember the word heron');
    expect((await turns.next(45_000)).turns.number).toBe(1);
    // claude writes its transcript after the turn's Stop: a crash before that loses the turn.
    const transcript = transcriptPathFor(suite.world.env, cwd, id);
    await vi.waitFor(
      () => expect(readFileSync(transcript, 'utf8')).toContain('echo: remember the word heron'),
      { timeout: 10_000, interval: 100 },
    );

    const { stdout } = await execa('pgrep', ['-f', `session-id ${id}`]);
    process.kill(Number(stdout.split('\n')[0]), 'SIGKILL');
    await vi.waitFor(
      async () => {
        const read = await sessionOf(id);
        if (read.restartCount < 1 || read.status !== 'IDLE') throw new Error(read.status);
      },
      { timeout: 30_000, interval: 200 },
    );
    await send(id, 'which word?');
    expect((await turns.next(45_000)).turns).toEqual({ number: 2, answer: 'echo: which word?' });
    // The restarted claude sent the conversation from before the crash.
    expect(JSON.stringify(suite.world.stub.requests.at(-1))).toContain('remember the word heron');

    const stopped = await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { status } }`, {
      id,
    });
    expect(stopped.stopSession.status).toBe('STOPPED');
    const resumed = await suite.hub.data(
      `mutation($id: ID!) { resumeSession(id: $id) { status runtime } }`,
      { id },
    );
    expect(resumed.resumeSession).toEqual({ status: 'IDLE', runtime: 'HEADLESS' });
    // The stream of the session's turns ended with it; a new one follows the resumed session.
    const after = suite.hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { number answer } }`,
      { id },
    );
    await send(id, 'and now?');
    expect((await after.next(45_000)).turns).toEqual({ number: 3, answer: 'echo: and now?' });
    expect(JSON.stringify(suite.world.stub.requests.at(-1))).toContain('which word?');
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
  });
});

describe('a HEADLESS session across a hub restart', () => {
  it('goes on with its conversation: its claude ends with the hub process and is resumed when the hub is back', async () => {
    const world = await startClaudeWorld();
    const home = hubHome('headless');
    const args = [...hubArgs({ port: 0, ...home }), '--default-runtime', 'headless'];
    const send = (url: string, id: string, text: string) => gqlData(url, sendMessage, { id, text });
    const turnsOf = async (url: string, id: string, count: number) =>
      vi.waitFor(
        async () => {
          const { session } = await gqlData(
            url,
            `query($id: ID!) { session(id: $id) { runtime status restartCount error turns { number status answer } } }`,
            { id },
          );
          if (session.turns.filter((t: any) => t.status === 'COMPLETED').length < count)
            throw new Error(`${session.status}, ${session.turns.length} turns`);
          return session;
        },
        { timeout: 45_000, interval: 200 },
      );
    let hub = await home.spawn(args, world.env);
    const { createSession } = await gqlData(
      hub.url,
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id runtime } }`,
      { cwd: world.makeCwd() },
    );
    const { id } = createSession;
    expect(createSession.runtime).toBe('HEADLESS');
    await send(hub.url, id, 'remember the word heron');
    await turnsOf(hub.url, id, 1);
    hub.process.kill('SIGTERM');
    await hub.process;

    hub = await home.spawn(args, world.env);
    await send(hub.url, id, 'which word?');
    const session = await turnsOf(hub.url, id, 2);
    // Resumed, not restarted: nothing crashed.
    expect(session).toMatchObject({
      runtime: 'HEADLESS',
      status: 'IDLE',
      restartCount: 0,
      error: null,
    });
    expect(session.turns.at(-1)).toEqual({
      number: 2,
      status: 'COMPLETED',
      answer: 'echo: which word?',
    });
    expect(JSON.stringify(world.stub.requests.at(-1))).toContain('remember the word heron');
    await gqlData(hub.url, `mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
  });
});

describe('a HEADLESS permission nobody decides', () => {
  it('is denied when its hold ends: there is no terminal dialog to fall back to', async () => {
    const world = await startClaudeWorld();
    const hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--permission-hold', '1'],
    });
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, runtime: HEADLESS, permissionMode: DEFAULT }) { id } }`,
      { cwd: world.makeCwd() },
    );
    const id = createSession.id as string;
    const turns = hub.subscribe(`subscription($id: ID) { turns(sessionId: $id) { answer } }`, {
      id,
    });
    const target = path.join(world.makeUntrustedCwd(), 'nobody-decided');
    await hub.data(sendMessage, { id, text: `run: touch ${target}` });
    expect((await turns.next(45_000)).turns.answer).toMatch(
      /^tool error: .*no decision within 1 s/s,
    );
    expect(existsSync(target)).toBe(false);
    const { permissionRequests } = await hub.data(
      `query { permissionRequests { sessionId status } }`,
    );
    expect(permissionRequests).toEqual([{ sessionId: id, status: 'EXPIRED' }]);
    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
  });
});

describe('a HEADLESS claude that prints a line that is not JSON', () => {
  it('keeps the line as a not_json StreamMessage with a warning, and goes on', async () => {
    const world = await startClaudeWorld();
    // A wrapper that prints a banner before claude's stream, as some installs do.
    const wrapper = path.join(tempDir('cch-wrapper-'), 'claude');
    writeFileSync(wrapper, `#!/bin/sh\necho 'claude wrapper 1.0'\nexec '${claudeBin}' "$@"\n`, {
      mode: 0o755,
    });
    const hub = await startHub({ env: world.env, args: ['--claude-bin', wrapper] });
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, runtime: HEADLESS }) { id } }`,
      { cwd: world.makeCwd() },
    );
    const { id } = createSession;
    const turns = hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { status answer } }`,
      { id },
    );
    await hub.data(sendMessage, { id, text: 'still fine?' });
    expect((await turns.next(45_000)).turns).toEqual({
      status: 'COMPLETED',
      answer: 'echo: still fine?',
    });
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { ... on StreamMessageEvent { type subtype message } } } }`,
      { id },
    );
    const lines = session.events.filter((e: any) => e.type !== undefined);
    expect(lines[0]).toEqual({ type: 'not_json', subtype: null, message: 'claude wrapper 1.0' });
    expect(lines.filter((e: any) => e.type === 'result')).toHaveLength(1);
    expect(hub.logs.some((l) => l.includes('claude printed a line that is not JSON'))).toBe(true);
    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
  });
});
