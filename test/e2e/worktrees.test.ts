import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { runCli } from '../helpers/cli-run.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { branches, commitFile, git, makeRepo } from '../helpers/git-repo.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const sessionFields = `id status cwd worktree { path branch base repository removal { branchDeleted note } }`;
const create = `mutation($input: CreateSessionInput!) { createSession(input: $input) { ${sessionFields} } }`;
const stop = `mutation($id: ID!, $remove: Boolean) { stopSession(id: $id, removeWorktree: $remove) { ${sessionFields} } }`;
const ask = `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { __typename ... on AskReply { reply } } }`;

interface Session {
  id: string;
  status: string;
  cwd: string;
  worktree: {
    path: string;
    branch: string;
    base: string;
    repository: string;
    removal: { branchDeleted: boolean; note: string } | null;
  } | null;
}

describe('a git worktree per session, with the real claude CLI', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let root: string;
  let repo: string;
  let local: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    root = path.join(world.makeCwd('trees'), 'worktrees');
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--worktree-root', root],
    });
    repo = world.makeCwd('repo');
    const pushed = makeRepo(repo);
    // The branch must start here, at a commit no remote-tracking branch has.
    local = commitFile(repo, 'README.md', 'local\n');
    expect(git(repo, 'rev-parse', 'origin/main')).toBe(pushed);
  });

  async function start(input: Record<string, unknown>): Promise<Session> {
    const { createSession } = await hub.data<{ createSession: Session }>(create, {
      // claude asks to trust each new git checkout, a worktree too, whatever folder holds it.
      input: { permissionMode: 'ACCEPT_EDITS', trustWorkspace: true, ...input },
    });
    return createSession;
  }

  async function write(session: Session, file: string, content: string): Promise<void> {
    const { ask: answer } = await hub.data(ask, {
      id: session.id,
      text: `write: ${file} ${content}`,
    });
    expect(answer).toEqual({ __typename: 'AskReply', reply: `wrote: ${file}` });
  }

  const cli = (...argv: string[]) => runCli(hub.url, null, argv);

  it('gives two sessions on one repository a worktree and branch each: each sees only its own writes', async () => {
    const one = await start({ cwd: repo, name: 'first task', worktree: {} });
    const two = await start({ cwd: repo, worktree: { branch: 'feature/two' } });

    expect(one).toMatchObject({
      status: 'IDLE',
      cwd: path.join(root, `${path.basename(repo)}-${one.id.slice(0, 8)}`),
      worktree: {
        path: path.join(root, `${path.basename(repo)}-${one.id.slice(0, 8)}`),
        branch: 'claude/first-task',
        base: local,
        repository: repo,
        removal: null,
      },
    });
    expect(two.worktree).toMatchObject({ branch: 'feature/two', base: local, repository: repo });
    expect(two.cwd).toBe(two.worktree!.path);

    await write(one, path.join(one.cwd, 'notes.txt'), 'from-one');
    await write(two, path.join(two.cwd, 'notes.txt'), 'from-two');
    expect(readFileSync(path.join(one.cwd, 'notes.txt'), 'utf8')).toBe('from-one');
    expect(readFileSync(path.join(two.cwd, 'notes.txt'), 'utf8')).toBe('from-two');
    expect(existsSync(path.join(repo, 'notes.txt'))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(one.cwd, 'symbolic-ref', '--short', 'HEAD')).toBe('claude/first-task');
    expect(git(two.cwd, 'symbolic-ref', '--short', 'HEAD')).toBe('feature/two');
    // The hooks report the folder claude runs in.
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(names: ["SessionStart"]) { cwd } } }`,
      { id: two.id },
    );
    expect(session.events).toEqual([{ cwd: two.cwd }]);

    // stopSession keeps the worktree; removeWorktree removes it, and its unchanged branch.
    const stopped = (await hub.data<{ stopSession: Session }>(stop, { id: one.id })).stopSession;
    expect(stopped).toMatchObject({ status: 'STOPPED', worktree: { removal: null } });
    expect(readFileSync(path.join(one.cwd, 'notes.txt'), 'utf8')).toBe('from-one');
    const removed = (await hub.data<{ stopSession: Session }>(stop, { id: one.id, remove: true }))
      .stopSession;
    expect(removed.worktree!.removal).toEqual({
      branchDeleted: true,
      note: 'branch claude/first-task deleted: no commits beyond its base',
    });
    expect(existsSync(one.worktree!.path)).toBe(false);
    expect(branches(repo)).toEqual(['feature/two', 'main']);

    // A branch with a commit of its own is kept.
    commitFile(two.cwd, 'notes.txt', 'committed\n');
    const kept = (await hub.data<{ stopSession: Session }>(stop, { id: two.id, remove: true }))
      .stopSession;
    expect(kept).toMatchObject({
      status: 'STOPPED',
      worktree: {
        removal: {
          branchDeleted: false,
          note: `branch feature/two kept: 1 commit(s) beyond its base ${local.slice(0, 12)}, not merged`,
        },
      },
    });
    expect(existsSync(two.worktree!.path)).toBe(false);
    expect(branches(repo)).toEqual(['feature/two', 'main']);

    // Its worktree is gone, so it does not resume.
    const resumed = await hub.gql(`mutation($id: ID!) { resumeSession(id: $id) { id } }`, {
      id: two.id,
    });
    expect(resumed.errors?.[0]).toMatchObject({
      message: expect.stringContaining(
        `ran in the worktree ${two.worktree!.path}, which was removed`,
      ),
      extensions: { code: 'WORKTREE_REMOVED' },
    });
  });

  it('starts claude in the same subfolder of the worktree as cwd is of the checkout, and resumes there', async () => {
    const session = await start({ cwd: path.join(repo, 'src', 'app'), worktree: {} });
    expect(session.cwd).toBe(path.join(session.worktree!.path, 'src', 'app'));
    expect(session.worktree!.branch).toBe(`claude/${session.id.slice(0, 8)}`);
    await write(session, path.join(session.cwd, 'sub.txt'), 'in-sub');
    expect(readFileSync(path.join(session.cwd, 'main.txt'), 'utf8')).toBe('main\n');

    await hub.data(stop, { id: session.id });
    const { resumeSession } = await hub.data(
      `mutation($id: ID!) { resumeSession(id: $id) { status cwd } }`,
      { id: session.id },
    );
    expect(resumeSession).toEqual({ status: 'IDLE', cwd: session.cwd });
    await hub.data(stop, { id: session.id });
  });

  it('refuses a folder in no repository, and hostile branch names, leaving nothing', async () => {
    const before = (await hub.data(`{ sessions { id } }`)).sessions.length;
    const plain = world.makeCwd('plain');
    const notRepo = await hub.gql(create, { input: { cwd: plain, worktree: {} } });
    expect(notRepo.errors?.[0]).toMatchObject({
      message: expect.stringMatching(new RegExp(`^cwd ${plain} is not in a git checkout`)),
      extensions: { code: 'NOT_A_REPOSITORY' },
    });

    const marker = path.join(plain, 'ran');
    for (const branch of [`--upload-pack=touch ${marker}`, `$(touch ${marker})`, 'a..b']) {
      const refused = await hub.gql(create, { input: { cwd: repo, worktree: { branch } } });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(refused.errors?.[0]?.message).toContain('worktree.branch');
    }
    const badBase = await hub.gql(create, {
      input: { cwd: repo, worktree: { base: 'no-such-commit' } },
    });
    expect(badBase.errors?.[0]).toMatchObject({
      message: 'worktree.base names no commit of the repository, got "no-such-commit" (string)',
      extensions: { code: 'BAD_USER_INPUT' },
    });

    expect(existsSync(marker)).toBe(false);
    expect(readdirSync(plain)).toEqual([]);
    expect((await hub.data(`{ sessions { id } }`)).sessions).toHaveLength(before);
    expect(branches(repo).filter((b) => !b.startsWith('claude/') && b !== 'feature/two')).toEqual([
      'main',
    ]);
    expect(readdirSync(root).length).toBe(
      Number(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)!.length) - 1,
    );
  });

  it('removes the worktree and branch of a session whose start failed', async () => {
    const result = await hub.gql(create, {
      input: {
        cwd: repo,
        name: 'doomed',
        permissionMode: 'BYPASS_PERMISSIONS',
        trustWorkspace: true,
        worktree: {},
      },
    });
    if (process.getuid?.() !== 0) return; // only root is refused bypass mode
    expect(result.errors?.[0]?.extensions?.code).toBe('SESSION_START_FAILED');
    const id = result.errors?.[0]?.extensions?.sessionId;
    const { session } = await hub.data<{ session: Session }>(
      `query($id: ID!) { session(id: $id) { ${sessionFields} } }`,
      { id },
    );
    expect(session).toMatchObject({
      status: 'CRASHED',
      worktree: {
        branch: 'claude/doomed',
        removal: {
          branchDeleted: true,
          note: 'branch claude/doomed deleted: made for a session that never started',
        },
      },
    });
    expect(existsSync(session.worktree!.path)).toBe(false);
    expect(branches(repo)).not.toContain('claude/doomed');
  });

  it('makes and removes worktrees from the command line: new --worktree, stop --remove-worktree', async () => {
    const made = await cli('new', '--cwd', repo, '--trust', '--branch', 'from-cli');
    expect(made.code).toBe(0);
    const id = made.out.trim();
    const folder = path.join(root, `${path.basename(repo)}-${id.slice(0, 8)}`);
    expect(made.err).toContain(`worktree ${folder} on from-cli`);
    expect(existsSync(folder)).toBe(true);

    expect(await cli('stop', id, '--remove-worktree')).toEqual({
      code: 0,
      out: `${id} STOPPED`,
      err: 'worktree removed; branch from-cli deleted: no commits beyond its base',
    });
    expect(existsSync(folder)).toBe(false);
    expect(branches(repo)).not.toContain('from-cli');
  });

  it('shows what claude wrote in Session.diff and commits it with commitWorktree; diff and commit on the command line', async () => {
    const session = await start({ cwd: repo, name: 'review', worktree: {} });
    await write(session, path.join(session.cwd, 'review.txt'), 'from-claude');
    const diffOf = async (base: string | null = null) =>
      (
        await hub.data<{ session: { diff: string } }>(
          `query($id: ID!, $base: String) { session(id: $id) { diff(base: $base) } }`,
          { id: session.id, base },
        )
      ).session.diff;
    const commit = `mutation($id: ID!, $message: String!) { commitWorktree(sessionId: $id, message: $message) }`;

    const diff = await diffOf();
    // Only its file: the session's worktree holds no other change.
    expect(diff).toMatch(/^diff --git a\/review.txt b\/review.txt\nnew file mode 100644\n/);
    expect(diff.match(/^diff --git /gm)).toHaveLength(1);
    expect(diff).toContain('--- /dev/null\n+++ b/review.txt\n@@ -0,0 +1 @@\n+from-claude');
    expect((await cli('diff', session.id)).out).toBe(diff.trimEnd());

    const { commitWorktree: made } = await hub.data<{ commitWorktree: string }>(commit, {
      id: session.id,
      message: 'What claude wrote',
    });
    expect(git(repo, 'rev-parse', 'claude/review')).toBe(made);
    expect(git(repo, 'show', '--name-status', '--format=%s%n%P', made)).toBe(
      `What claude wrote\n${local}\n\nA\treview.txt`,
    );
    expect(await diffOf(made)).toBe('');
    expect(await cli('diff', session.id, '--base', made)).toEqual({ code: 0, out: '', err: '' });
    const again = await hub.gql(commit, { id: session.id, message: 'again' });
    expect(again.errors?.[0]?.extensions?.code).toBe('NOTHING_TO_COMMIT');

    writeFileSync(path.join(session.cwd, 'by-hand.txt'), 'by hand\n');
    const byHand = await cli('commit', session.id, '-m', 'Add a file by hand');
    expect(byHand).toEqual({ code: 0, out: git(repo, 'rev-parse', 'claude/review'), err: '' });
    expect(git(repo, 'rev-parse', 'claude/review^')).toBe(made);
    expect(await cli('commit', session.id, '-m', 'nothing')).toMatchObject({
      code: 1,
      err: expect.stringContaining('NOTHING_TO_COMMIT'),
    });
    await hub.data(stop, { id: session.id });
  });
});
