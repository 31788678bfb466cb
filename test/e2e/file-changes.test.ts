import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { runCli } from '../helpers/cli-run.js';
import { git, makeRepo } from '../helpers/git-repo.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const changeFields = `path oldPath kind diff truncated
  actions { id kind toolName title }
  approvedBy { kind toolUseId token rule mode requestId }`;

interface Change {
  path: string;
  oldPath: string | null;
  kind: string;
  diff: string | null;
  truncated: boolean;
  actions: { id: string; kind: string; toolName: string; title: string }[];
  approvedBy: {
    kind: string;
    toolUseId: string;
    token: string | null;
    rule: string | null;
    mode: string | null;
    requestId: string | null;
  }[];
}

describe("a turn's file changes, with the real claude CLI and real git", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
    const create = (input: Record<string, unknown>) =>
      hub.data(
        `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }`,
        { input },
      );
    await create({
      name: 'ruled writes',
      decision: 'ALLOW',
      match: { tools: ['Write'], input: [{ path: 'file_path', pattern: '*/ruled.txt' }] },
    });
    await create({
      name: 'printf',
      decision: 'ALLOW',
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'printf *' }] },
    });
  });

  async function startSession(cwd: string, mode: string) {
    const { createSession } = await hub.data<{ createSession: { id: string } }>(
      `mutation($cwd: String!, $mode: PermissionMode) { createSession(input: { cwd: $cwd, permissionMode: $mode, trustWorkspace: true }) { id } }`,
      { cwd, mode },
    );
    const id = createSession.id;
    const send = (text: string) =>
      hub.data(
        `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
        {
          id,
          text,
        },
      );
    const ask = async (text: string) => {
      const { ask: answer } = await hub.data<{ ask: { reply: string } }>(
        `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { ... on AskReply { reply } } }`,
        { id, text },
      );
      return answer.reply;
    };
    const lastTurn = async () => {
      const { session } = await hub.data<{
        session: { turns: { number: number; status: string; changes: Change[] }[] };
      }>(
        `query($id: ID!) { session(id: $id) { turns(last: 1) { number status changes { ${changeFields} } } } }`,
        {
          id,
        },
      );
      return session.turns[0]!;
    };
    return { id, send, ask, lastTurn };
  }

  async function pending(sessionId: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const { permissionRequests } = await hub.data<{
        permissionRequests: { id: string; sessionId: string }[];
      }>(`{ permissionRequests(status: PENDING) { id sessionId } }`);
      const mine = permissionRequests.find((request) => request.sessionId === sessionId);
      if (mine) return mine.id;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no permission request was held');
  }

  it('lists a written file with its diff, its call, and the person who allowed it; a rule; a shell command', async () => {
    const repo = world.makeCwd('repo');
    makeRepo(repo);
    const session = await startSession(repo, 'DEFAULT');

    // A person allows a Write through the API.
    await session.send(`write: ${repo}/notes.txt first line`);
    const requestId = await pending(session.id);
    await hub.data(
      `mutation($id: ID!) { decidePermission(input: { requestId: $id, behavior: ALLOW }) { request { status } } }`,
      { id: requestId },
    );
    let turn = await waitForTurn(session.lastTurn, 1);
    expect(turn.changes).toEqual([
      {
        path: 'notes.txt',
        oldPath: null,
        kind: 'ADD',
        diff: expect.stringContaining('+first line'),
        truncated: false,
        actions: [
          {
            id: expect.any(String),
            kind: 'FILE_CHANGE',
            toolName: 'Write',
            title: `${repo}/notes.txt`,
          },
        ],
        approvedBy: [
          {
            kind: 'PERSON',
            toolUseId: turn.changes[0]!.actions[0]!.id,
            token: 'local',
            rule: null,
            mode: 'default',
            requestId,
          },
        ],
      },
    ]);
    expect(turn.changes[0]!.diff).toMatch(/^diff --git a\/notes\.txt b\/notes\.txt\nnew file mode/);

    // A rule allows the next; the first turn's file is no change of this turn.
    expect(await session.ask(`write: ${repo}/ruled.txt by the rule`)).toBe(
      `wrote: ${repo}/ruled.txt`,
    );
    turn = await session.lastTurn();
    expect(turn.number).toBe(2);
    expect(turn.changes.map((change) => [change.path, change.kind])).toEqual([
      ['ruled.txt', 'ADD'],
    ]);
    expect(turn.changes[0]!.approvedBy).toEqual([
      expect.objectContaining({ kind: 'RULE', rule: 'ruled writes', token: null }),
    ]);

    // A shell command changes a tracked file: no file tool names it, the snapshot finds it.
    expect(await session.ask(`run: printf 'from the shell\\n' >> README.md`)).toBe(
      'ran: (Bash completed with no output)',
    );
    turn = await session.lastTurn();
    expect(readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('hello\nfrom the shell\n');
    expect(turn.changes).toEqual([
      expect.objectContaining({
        path: 'README.md',
        kind: 'MODIFY',
        diff: expect.stringContaining(' hello\n+from the shell\n'),
        actions: [expect.objectContaining({ kind: 'COMMAND', toolName: 'Bash' })],
        approvedBy: [expect.objectContaining({ kind: 'RULE', rule: 'printf' })],
      }),
    ]);

    // The session's whole change: three files, each with the call that made it.
    const { session: all } = await hub.data<{ session: { changes: Change[] } }>(
      `query($id: ID!) { session(id: $id) { changes { ${changeFields} } } }`,
      { id: session.id },
    );
    expect(all.changes.map((change) => [change.path, change.kind, change.actions.length])).toEqual([
      ['README.md', 'MODIFY', 1],
      ['notes.txt', 'ADD', 1],
      ['ruled.txt', 'ADD', 1],
    ]);
    // The checkout's own index is untouched: nothing staged, the new files still untracked.
    expect(git(repo, 'diff', '--cached', '--name-only')).toBe('');
    expect(git(repo, 'ls-files', '--others')).toBe('notes.txt\nruled.txt');
  });

  it("diff --turn N prints a turn's files: each with its call and who allowed it, then its diff", async () => {
    const repo = world.makeCwd('cli');
    makeRepo(repo);
    const session = await startSession(repo, 'DEFAULT');
    const cli = (...argv: string[]) => runCli(hub.url, null, argv);

    // Turn 1: a person allows a Write; turn 2 changes nothing; turn 3: a rule allows a Write.
    await session.send(`write: ${repo}/notes.txt first line`);
    await hub.data(
      `mutation($id: ID!) { decidePermission(input: { requestId: $id, behavior: ALLOW }) { request { status } } }`,
      { id: await pending(session.id) },
    );
    await waitForTurn(session.lastTurn, 1);
    expect(await session.ask('nothing to change')).toBe('echo: nothing to change');
    expect(await session.ask(`write: ${repo}/ruled.txt by the rule`)).toBe(
      `wrote: ${repo}/ruled.txt`,
    );

    const first = await cli('diff', session.id, '--turn', '1');
    expect(first).toMatchObject({ code: 0, err: '' });
    const lines = first.out.split('\n');
    expect(lines[0]).toMatch(/^# notes\.txt ADD {2}Write toolu_\S+ allowed by token local$/);
    expect(lines.slice(1, 3)).toEqual([
      'diff --git a/notes.txt b/notes.txt',
      'new file mode 100644',
    ]);
    expect(lines).toContain('+first line');
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);

    expect(await cli('diff', session.id, '--turn', '2')).toEqual({
      code: 0,
      out: '# turn 2 changed no file',
      err: '',
    });
    const third = await cli('diff', session.id, '--turn', '3');
    expect(third.out).toMatch(
      /^# ruled\.txt ADD {2}Write toolu_\S+ allowed by rule ruled writes\ndiff --git a\/ruled\.txt b\/ruled\.txt\n[^]*\n\+by the rule\n\\ No newline at end of file$/,
    );

    // Refusals: no turn 0, no turn 99 (the error names the turns there are), not with --base.
    const zero = await cli('diff', session.id, '--turn', '0');
    expect(zero.code).toBe(2);
    expect(zero.err).toMatch(
      /^claude-code-hub diff: --turn must be a turn number \(1 or more\), got "0"\n/,
    );
    expect(await cli('diff', session.id, '--turn', '99')).toEqual({
      code: 1,
      out: '',
      err: `claude-code-hub diff: TURN_NOT_FOUND: session ${session.id} has turns 1 to 3, no turn 99`,
    });
    const both = await cli('diff', session.id, '--turn', '1', '--base', 'HEAD');
    expect(both.code).toBe(2);
    expect(both.out).toBe('');
    expect(both.err).toMatch(/^claude-code-hub diff: --turn and --base do not go together/);
  });

  it("takes a folder that is no checkout's changes from Write and Edit, allowed by the mode", async () => {
    const cwd = world.makeCwd('plain');
    const session = await startSession(cwd, 'ACCEPT_EDITS');
    const file = path.join(cwd, 'a.txt');
    expect(await session.ask(`write: ${file} hello world`)).toBe(`wrote: ${file}`);
    expect(await session.ask(`edit: ${file} hello goodbye`)).toBe(`edited: ${file}`);
    const turn = await session.lastTurn();
    expect(turn.changes).toEqual([
      expect.objectContaining({
        path: 'a.txt',
        kind: 'MODIFY',
        diff: 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-hello world\n\\ No newline at end of file\n+goodbye world\n\\ No newline at end of file\n',
        actions: [expect.objectContaining({ toolName: 'Edit' })],
        approvedBy: [expect.objectContaining({ kind: 'MODE', mode: 'acceptEdits' })],
      }),
    ]);
  });
});

/** The last turn once it is the `number`th and has completed. */
async function waitForTurn<T extends { number: number; status: string }>(
  read: () => Promise<T>,
  number: number,
): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const turn = await read();
    if (turn.number === number && turn.status !== 'RUNNING') return turn;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`turn ${number} did not complete`);
}
