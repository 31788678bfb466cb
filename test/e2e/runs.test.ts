import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { panePid } from '../../harness/tmux-server.js';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';
import { startHub } from '../helpers/hub.js';
import { openSse } from '../helpers/sse.js';
import { tempDir } from '../helpers/leftovers.js';

const actionFields = 'id turnId seq kind phase title toolName ok detail durationMs';
const turnFields = `id number prompt status ok answer error usage resume startedAt completedAt
  actions { ${actionFields} }`;

describe('turns and actions of a real claude session', () => {
  const suite = claudeHubSuite();

  const create = async (cwd: string) =>
    (
      await suite.hub.data(
        `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: ACCEPT_EDITS }) { id claudeSessionId } }`,
        { cwd },
      )
    ).createSession;
  const send = (id: string, text: string) =>
    suite.hub.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      {
        id,
        text,
      },
    );
  const actionsOf = (id: string, after?: number) =>
    suite.hub.subscribe(
      `subscription($id: ID!, $after: Int) { sessionActions(id: $id, after: $after) { ${actionFields} } }`,
      { id, after },
    );

  it('reads a command, a file written and one edited as actions, each turn completed once with its answer, usage and a resume line claude takes', async () => {
    const since = new Date().toISOString();
    const cwd = suite.world.makeCwd();
    const session = await create(cwd);
    const turns = suite.hub.subscribe(
      `subscription($after: DateTime) { turns(after: $after) { ${turnFields} } }`,
      {
        after: since,
      },
    );
    const live = actionsOf(session.id);

    await send(session.id, 'run: echo runs-$((6*7))');
    const command = (await live.until((a) => a.sessionActions.phase === 'COMPLETED', 45_000)).map(
      (a) => a.sessionActions,
    );
    expect(command.map((a) => [a.kind, a.phase, a.title, a.toolName, a.ok])).toEqual([
      ['COMMAND', 'STARTED', 'echo runs-$((6*7))', 'Bash', null],
      ['COMMAND', 'COMPLETED', 'echo runs-$((6*7))', 'Bash', true],
    ]);
    expect(command[1].id).toBe(command[0].id);
    expect(command[1].detail.response.stdout).toBe('runs-42');
    expect(command[1].seq).toBeGreaterThan(command[0].seq);

    const first = (await turns.until((t) => t.turns.number === 1, 45_000)).at(-1)!.turns;
    expect(first).toMatchObject({
      number: 1,
      prompt: 'run: echo runs-$((6*7))',
      status: 'COMPLETED',
      ok: true,
      answer: 'ran: runs-42',
      error: null,
      resume: `claude --resume ${session.claudeSessionId}`,
    });
    expect(first.actions.map((a: any) => [a.id, a.phase, a.ok])).toEqual([
      [command[0].id, 'COMPLETED', true],
    ]);
    expect(first.usage.output_tokens).toBeGreaterThan(0);
    expect(first.usage.input_tokens).toBeGreaterThan(0);

    const file = path.join(cwd, 'notes.txt');
    await send(session.id, `write: ${file} first`);
    const added = (await live.until((a) => a.sessionActions.phase === 'COMPLETED', 45_000)).at(
      -1,
    )!.sessionActions;
    expect(existsSync(file)).toBe(true);
    expect(added).toMatchObject({ kind: 'FILE_CHANGE', title: file, ok: true });
    expect(added.detail.changes).toEqual([{ path: file, kind: 'add' }]);
    await turns.until((t) => t.turns.number === 2, 45_000);

    await send(session.id, `edit: ${file} first second`);
    const updated = (await live.until((a) => a.sessionActions.phase === 'COMPLETED', 45_000)).at(
      -1,
    )!.sessionActions;
    expect(updated).toMatchObject({ kind: 'FILE_CHANGE', toolName: 'Edit', title: file, ok: true });
    expect(updated.detail.changes).toEqual([{ path: file, kind: 'update' }]);
    expect(readFileSync(file, 'utf8')).toBe('second');
    const third = (await turns.until((t) => t.turns.number === 3, 45_000)).at(-1)!.turns;
    expect(third.answer).toBe(`edited: ${file}`);

    // The same turns as plain SSE, for one session and for all.
    const headers = { accept: 'text/event-stream' };
    for (const where of [`/sessions/${session.id}/turns`, '/turns']) {
      const sse = openSse(`${suite.hub.baseUrl}${where}?after=${since}`, { headers });
      expect(await sse.status).toBe(200);
      const messages = [await sse.next(), await sse.next(), await sse.next()];
      expect(messages.map((m) => m.event)).toEqual(['turn', 'turn', 'turn']);
      expect(messages[0]!.id).toBe(first.id);
      const plain = messages.map((m) => JSON.parse(m.data));
      expect(plain.map((t) => t.number)).toEqual([1, 2, 3]);
      expect(plain[0]).toMatchObject({
        id: first.id,
        status: 'COMPLETED',
        answer: 'ran: runs-42',
        usage: first.usage,
        resume: first.resume,
        startedAt: first.startedAt,
        completedAt: first.completedAt,
      });
      expect(plain[0].actions[0]).toMatchObject({ id: command[0].id, kind: 'COMMAND', ok: true });
      sse.abort();
    }

    // A subscriber that comes afterwards gets the same phases, and from a seq only the later ones.
    const replayed = actionsOf(session.id);
    const seen = live.received.map((a) => a.sessionActions);
    for (const action of seen) expect((await replayed.next()).sessionActions).toEqual(action);
    const fromSeq = actionsOf(session.id, seen[1].seq);
    expect((await fromSeq.next()).sessionActions).toEqual(seen[2]);

    const { session: read } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { currentTurn { id } turns(last: 2) { ${turnFields} } } }`,
      { id: session.id },
    );
    expect(read.currentTurn).toBeNull();
    expect(read.turns.map((t: any) => t.number)).toEqual([2, 3]);
    expect(read.turns[1]).toEqual(third);
    const { turn } = await suite.hub.data(`query($id: ID!) { turn(id: $id) { ${turnFields} } }`, {
      id: first.id,
    });
    expect(turn).toEqual(first);
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });

    // The resume line, run by hand, continues the conversation.
    const [program, ...args] = first.resume.split(' ');
    expect(program).toBe('claude');
    const resumed = await execa(claudeBin, [...args, '-p', 'what ran?'], {
      cwd,
      env: suite.world.env,
      input: '',
    });
    expect(resumed.stdout).toBe('echo: what ran?');
    expect(JSON.stringify(suite.world.stub.requests.at(-1))).toContain('runs-42');
  });

  it('completes a failing command not ok, with its error', async () => {
    const session = await create(suite.world.makeCwd());
    const live = actionsOf(session.id);
    await send(session.id, 'run: ls no-such-dir-for-runs');
    const [started, completed] = (
      await live.until((a) => a.sessionActions.phase === 'COMPLETED', 45_000)
    ).map((a) => a.sessionActions);
    expect(started).toMatchObject({ kind: 'COMMAND', phase: 'STARTED' });
    expect(completed).toMatchObject({ id: started.id, kind: 'COMMAND', ok: false });
    expect(completed.detail.error).toContain('No such file or directory');
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it('turns a permission denied through the API into a warning, and the turn completes once', async () => {
    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: DEFAULT }) { id } }`,
      { cwd: suite.world.makeCwd() },
    );
    const live = actionsOf(session.id);
    const requests = suite.hub.subscribe(
      `subscription { permissionRequests { id sessionId status } }`,
    );
    const target = path.join(suite.world.makeUntrustedCwd(), 'denied.txt');
    await send(session.id, `run: touch ${target}`);
    const request = (
      await requests.until(
        (r) =>
          r.permissionRequests.sessionId === session.id &&
          r.permissionRequests.status === 'PENDING',
        45_000,
      )
    ).at(-1)!.permissionRequests;
    await suite.hub.data(
      `mutation($input: DecidePermissionInput!) { decidePermission(input: $input) { error { code } } }`,
      { input: { requestId: request.id, behavior: 'DENY', message: 'not there' } },
    );
    const phases = (await live.until((a) => a.sessionActions.kind === 'WARNING', 30_000)).map(
      (a) => a.sessionActions,
    );
    expect(phases.map((a) => [a.kind, a.phase, a.ok, a.title])).toEqual([
      ['COMMAND', 'STARTED', null, `touch ${target}`],
      ['COMMAND', 'COMPLETED', false, `touch ${target}`],
      ['WARNING', 'COMPLETED', false, 'permission denied: Bash'],
    ]);
    expect(phases[2].detail.reason).toBe('not there');
    const turns = await vi.waitFor(
      async () => {
        const { session: read } = await suite.hub.data(
          `query($id: ID!) { session(id: $id) { turns { status answer actions { kind ok } } } }`,
          { id: session.id },
        );
        if (read.turns[0]?.status === 'RUNNING') throw new Error('the turn still runs');
        return read.turns;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      status: 'COMPLETED',
      actions: [
        { kind: 'COMMAND', ok: false },
        { kind: 'WARNING', ok: false },
      ],
    });
    expect(existsSync(target)).toBe(false);
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it('replays the same actions and turns after a hub restart', async () => {
    const dataDir = tempDir('cch-runs-');
    const args = ['--claude-bin', claudeBin];
    const before = await startHub({ env: suite.world.env, args, dataDir });
    let id: string;
    let live: unknown[];
    let turns: unknown;
    const turnsQuery = `query($id: ID!) { session(id: $id) { turns { ${turnFields} } } }`;
    ({ id } = (
      await before.data(
        `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: ACCEPT_EDITS }) { id } }`,
        { cwd: suite.world.makeCwd() },
      )
    ).createSession);
    const actions = before.subscribe(
      `subscription($id: ID!) { sessionActions(id: $id) { ${actionFields} } }`,
      { id },
    );
    await before.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id, text: 'run: echo before-restart' },
    );
    await actions.until((a) => a.sessionActions.phase === 'COMPLETED', 45_000);
    live = actions.received.map((a) => a.sessionActions);
    turns = await vi.waitFor(
      async () => {
        const read = (await before.data(turnsQuery, { id })).session.turns;
        if (read[0]?.status !== 'COMPLETED') throw new Error('the turn still runs');
        return read;
      },
      { timeout: 30_000, interval: 100 },
    );
    await before.stop();
    const after = await startHub({ env: suite.world.env, args, dataDir });
    const replayed = after.subscribe(
      `subscription($id: ID!) { sessionActions(id: $id) { ${actionFields} } }`,
      { id },
    );
    await replayed.waitForComplete(30_000);
    expect(replayed.received.map((a) => a.sessionActions)).toEqual(live);
    expect((await after.data(turnsQuery, { id })).session.turns).toEqual(turns);
  });

  it('fails the turn of a claude that crashes mid-command, and completes its open call not ok', async () => {
    const cwd = suite.world.makeCwd();
    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: ACCEPT_EDITS }) { id tmuxSession } }`,
      { cwd },
    );
    const live = actionsOf(session.id);
    await send(session.id, 'run: timeout 30 tail -f /dev/null');
    const started = (await live.until((a) => a.sessionActions.phase === 'STARTED', 45_000)).at(
      -1,
    )!.sessionActions;
    process.kill(await panePid(suite.hub.config.tmuxSocket, session.tmuxSession), 'SIGKILL');
    const completed = (await live.until((a) => a.sessionActions.phase === 'COMPLETED', 30_000)).at(
      -1,
    )!.sessionActions;
    expect(completed).toMatchObject({ id: started.id, ok: false });
    expect(completed.detail.error).toMatch(/^the turn ended failed: claude exited/);
    const { session: read } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { turns { status ok error } } }`,
      { id: session.id },
    );
    expect(read.turns).toEqual([
      { status: 'FAILED', ok: false, error: expect.stringMatching(/^claude exited/) },
    ]);
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });

  it('continues a conversation made by hand, and refuses an id claude does not know', async () => {
    const cwd = suite.world.makeCwd();
    const id = randomUUID();
    const byHand = await execa(claudeBin, ['-p', 'remember the word heron', '--session-id', id], {
      cwd,
      env: suite.world.env,
      input: '',
    });
    expect(byHand.stdout).toBe('echo: remember the word heron');
    const created = `mutation($input: CreateSessionInput!) { createSession(input: $input) { id claudeSessionId status } }`;
    const { createSession: session } = await suite.hub.data(created, {
      input: { cwd, resume: `\`claude --resume ${id}\`` },
    });
    expect(session).toEqual({ id, claudeSessionId: id, status: 'IDLE' });
    const turns = suite.hub.subscribe(
      `subscription($id: ID) { turns(sessionId: $id) { number prompt answer resume } }`,
      { id },
    );
    await send(id, 'which word?');
    expect((await turns.next(45_000)).turns).toEqual({
      number: 1,
      prompt: 'which word?',
      answer: 'echo: which word?',
      resume: `claude --resume ${id}`,
    });
    // claude sent the conversation made by hand along with the new prompt.
    expect(JSON.stringify(suite.world.stub.requests.at(-1))).toContain('remember the word heron');
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });

    const unknown = await suite.hub.gql(created, { input: { cwd, resume: randomUUID() } });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('CONVERSATION_NOT_FOUND');
    const garbled = await suite.hub.gql(created, { input: { cwd, resume: 'claude --resume me' } });
    expect(garbled.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('completes an interrupted command not ok, and its turn INTERRUPTED', async () => {
    const cwd = suite.world.makeCwd();
    const session = await create(cwd);
    const live = actionsOf(session.id);
    await send(session.id, 'run: timeout 30 tail -f /dev/null');
    const started = (await live.until((a) => a.sessionActions.phase === 'STARTED', 45_000)).at(
      -1,
    )!.sessionActions;
    expect(started).toMatchObject({ kind: 'COMMAND', title: 'timeout 30 tail -f /dev/null' });
    await suite.hub.data(`mutation($id: ID!) { interruptSession(id: $id) { status } }`, {
      id: session.id,
    });
    const completed = (await live.until((a) => a.sessionActions.phase === 'COMPLETED', 30_000)).at(
      -1,
    )!.sessionActions;
    expect(completed).toMatchObject({ id: started.id, ok: false });
    const { session: read } = await suite.hub.data(
      `query($id: ID!) { session(id: $id) { currentTurn { id } turns { status ok actions { id ok } } } }`,
      { id: session.id },
    );
    expect(read.currentTurn).toBeNull();
    expect(read.turns).toEqual([
      { status: 'INTERRUPTED', ok: false, actions: [{ id: started.id, ok: false }] },
    ]);
    await suite.hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id: session.id });
  });
});
