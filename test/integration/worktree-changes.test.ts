import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutNote, maxDiffChars } from '../../src/git/diff-bounds.js';
import { hubIdentity } from '../../src/git/worktree-changes.js';
import { createLogger } from '../../src/log.js';
import type { SessionRecord } from '../../src/sessions/session.js';
import { SessionWorktrees } from '../../src/sessions/session-worktrees.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { commitFile, git, makeRepo } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/leftovers.js';
import { session as storedSession } from '../helpers/records.js';

const id = '11111111-1111-4111-8111-111111111111';

/**
 * A repository, and the session worktrees of a hub whose HOME has no git configuration (so
 * its commits are by the hub's identity unless the repository names one).
 */
async function setup() {
  const dir = tempDir('cch-changes-');
  const repo = path.join(dir, 'repo');
  const base = makeRepo(repo);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  const sessions = new SessionWorktrees(
    { root: path.join(dir, 'worktrees'), env: { PATH: process.env.PATH, HOME: home }, secrets: [] },
    { changes: { commit: () => undefined }, clock: new FakeClock(), log: createLogger('silent') },
  );
  const record = await sessions.make({ ...storedSession(id, 'IDLE', 0), cwd: repo }, {});
  const tree = record.worktree!.path;
  return { dir, repo, base, sessions, record, tree };
}

/** The files a diff names, in order. */
const filesOf = (diff: string) =>
  [...diff.matchAll(/^diff --git a\/(.+) b\//gm)].map((match) => match[1]);

describe("a session's diff and commit in real git", () => {
  it('shows committed, uncommitted and untracked changes against the base; base narrows it', async () => {
    const { base, sessions, record, tree } = await setup();
    const committed = commitFile(tree, 'README.md', 'committed\n');
    writeFileSync(path.join(tree, 'src', 'app', 'main.txt'), 'edited, not staged\n');
    writeFileSync(path.join(tree, 'new file.txt'), 'untracked\n');
    writeFileSync(path.join(tree, '.gitignore'), 'ignored.log\n');
    writeFileSync(path.join(tree, 'ignored.log'), 'never shown\n');
    const index = git(tree, 'ls-files', '--stage');

    const whole = await sessions.diff(record, null);
    expect(filesOf(whole)).toEqual(['.gitignore', 'README.md', 'new file.txt', 'src/app/main.txt']);
    expect(whole).toContain('-hello\n+committed\n');
    expect(whole).toContain('-main\n+edited, not staged\n');
    expect(whole).toContain('new file mode 100644');
    // git ends a name with a blank in it with a tab.
    expect(whole).toContain('+++ b/new file.txt\t\n@@ -0,0 +1 @@\n+untracked\n');
    expect(whole).not.toContain('never shown');
    expect(whole.endsWith('\n')).toBe(true);
    // The worktree's own index is as it was: nothing was staged in it.
    expect(git(tree, 'ls-files', '--stage')).toBe(index);
    expect(git(tree, 'status', '--porcelain')).toContain('?? "new file.txt"');

    const since = await sessions.diff(record, committed);
    expect(filesOf(since)).toEqual(['.gitignore', 'new file.txt', 'src/app/main.txt']);
    expect(await sessions.diff(record, 'main')).toBe(whole);

    // A session without a worktree: its checkout against HEAD.
    const plain = { ...record, worktree: null, cwd: path.join(tree, 'src') };
    expect(filesOf(await sessions.diff(plain, null))).toEqual([
      '.gitignore',
      'new file.txt',
      'src/app/main.txt',
    ]);
  });

  it('refuses a hostile or unknown base before git sees it, and a folder in no repository', async () => {
    const { dir, repo, sessions, record, tree } = await setup();
    const marker = path.join(dir, 'ran');
    for (const base of [
      `--output=${marker}`,
      '-p',
      `$(touch ${marker})`,
      'HEAD;touch ran',
      'no-such-commit',
      'HEAD@{1}',
      '',
    ]) {
      await expect(sessions.diff(record, base), base).rejects.toMatchObject({
        message: expect.stringMatching(/^base .+, got /),
        extensions: { code: 'BAD_USER_INPUT', field: 'base' },
      });
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(path.join(tree, 'ran'))).toBe(false);
    expect(existsSync(path.join(repo, 'ran'))).toBe(false);

    const outside = { ...record, worktree: null, cwd: path.join(dir, 'home') };
    await expect(sessions.diff(outside, null)).rejects.toMatchObject({
      extensions: { code: 'NOT_A_REPOSITORY' },
    });
  });

  it('cuts a diff past its bound at a line, with a line saying so', async () => {
    const { sessions, record, tree } = await setup();
    const line = `${'x'.repeat(99)}\n`;
    writeFileSync(path.join(tree, 'big.txt'), line.repeat(Math.ceil(maxDiffChars / 100) + 100));
    const diff = await sessions.diff(record, null);
    expect(diff.length).toBeLessThanOrEqual(maxDiffChars + cutNote(maxDiffChars).length);
    expect(diff.endsWith(`\n+${line}${cutNote(maxDiffChars)}`)).toBe(true);
  });

  it('commits everything on the branch as the hub, after which the diff against it is empty', async () => {
    const { base, sessions, record, tree } = await setup();
    const committed = commitFile(tree, 'README.md', 'committed\n');
    writeFileSync(path.join(tree, 'src', 'app', 'main.txt'), 'edited\n');
    writeFileSync(path.join(tree, 'new.txt'), 'untracked\n');
    unlinkSync(path.join(tree, 'README.md'));
    const before = await sessions.diff(record, committed);

    const message = 'Session work\n\n#1: keeps lines starting with #\tand tabs';
    const commit = await sessions.commit(record, message);

    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(tree, 'rev-parse', `refs/heads/${record.worktree!.branch}`)).toBe(commit);
    expect(git(tree, 'rev-parse', `${commit}^`)).toBe(committed);
    expect(git(tree, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', commit)).toBe(
      `${hubIdentity.name} <${hubIdentity.email}>|${hubIdentity.name} <${hubIdentity.email}>|${message}`,
    );
    expect(git(tree, 'show', '--name-status', '--format=', commit).split('\n')).toEqual([
      'D\tREADME.md',
      'A\tnew.txt',
      'M\tsrc/app/main.txt',
    ]);
    expect(git(tree, 'status', '--porcelain')).toBe('');
    expect(await sessions.diff(record, commit)).toBe('');
    expect(await sessions.diff(record, committed)).toBe(before);
    expect(filesOf(await sessions.diff(record, null))).toEqual([
      'README.md',
      'new.txt',
      'src/app/main.txt',
    ]);
    expect(git(tree, 'rev-list', '--count', `${base}..HEAD`)).toBe('2');

    await expect(sessions.commit(record, 'again')).rejects.toMatchObject({
      message: `the worktree ${tree} has no change since its last commit`,
      extensions: { code: 'NOTHING_TO_COMMIT' },
    });
  });

  it("takes the repository's identity when it configures one", async () => {
    const { repo, sessions, record, tree } = await setup();
    git(repo, 'config', 'user.name', 'Repo Person');
    git(repo, 'config', 'user.email', 'person@example.com');
    writeFileSync(path.join(tree, 'new.txt'), 'x\n');
    const commit = await sessions.commit(record, 'by the repository identity');
    expect(git(tree, 'log', '-1', '--format=%an <%ae>', commit)).toBe(
      'Repo Person <person@example.com>',
    );
  });

  it('refuses a bad message, a session without a worktree, and a worktree on another branch', async () => {
    const { sessions, record, tree } = await setup();
    writeFileSync(path.join(tree, 'new.txt'), 'x\n');
    for (const [message, problem] of [
      ['', /^message must not be empty$/],
      [' \n\t', /^message must not be empty$/],
      ['x'.repeat(10_001), /^message must be at most 10000 characters, got 10001$/],
      ['a\u001b[31mred', /^message must not hold control characters .+U\+001b at 1/],
      ['a\rb', /U\+000d/],
    ] as const) {
      await expect(sessions.commit(record, message)).rejects.toMatchObject({
        message: expect.stringMatching(problem),
        extensions: { code: 'BAD_USER_INPUT', field: 'message' },
      });
    }
    const plain: SessionRecord = { ...record, worktree: null };
    await expect(sessions.commit(plain, 'work')).rejects.toMatchObject({
      extensions: { code: 'NO_WORKTREE', sessionId: id },
    });
    git(tree, 'checkout', '--quiet', '--detach');
    await expect(sessions.commit(record, 'work')).rejects.toMatchObject({
      message: expect.stringContaining('a detached HEAD checked out, not its branch claude/'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(git(tree, 'rev-list', '--count', 'HEAD')).toBe('1');
  });
});
