import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import { gitComplaint, type GitRun } from './git.js';
import { boundDiff, maxDiffChars } from './diff-bounds.js';
import { TreeSnapshots } from './tree-snapshots.js';
import { refValueProblem } from './worktree-names.js';

/** The longest commit message commitWorktree takes, in characters. */
export const maxCommitMessageLength = 10_000;

/** Who commitWorktree's commits are by where git configures no one (user.name, user.email). */
export const hubIdentity = { name: 'claude-code-hub', email: 'hub@localhost' } as const;

/**
 * Why a commit message is refused, or null: empty, longer than maxCommitMessageLength, or
 * holding a control character other than a line break or a tab. Pure.
 */
export function commitMessageProblem(message: string): string | null {
  if (message.trim() === '') return 'must not be empty';
  if (message.length > maxCommitMessageLength) {
    return `must be at most ${maxCommitMessageLength} characters, got ${message.length}`;
  }
  const bad = /[\u0000-\u0008\u000b-\u001f\u007f]/.exec(message);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).padStart(4, '0');
    return `must not hold control characters other than line breaks and tabs (U+${code} at ${bad.index})`;
  }
  return null;
}

/** The options every diff runs with: no program the repository names runs, no colour. */
const diffOptions = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/**
 * What changed in a checkout, and a commit of it. Both see the whole work tree as `git add -A`
 * does: committed, staged, unstaged and untracked files (not the ignored ones).
 */
export class WorktreeChanges {
  readonly #git: GitRun;
  readonly #snapshots: Pick<TreeSnapshots, 'stage'>;

  constructor(git: GitRun) {
    this.#git = git;
    this.#snapshots = new TreeSnapshots(git);
  }

  /**
   * The checkout at `folder` against `base` (its HEAD when null) as one unified diff, bounded
   * by maxDiffChars. The work tree is staged into a temporary index, a copy of the checkout's
   * own (so unchanged files are not read again), and that index is diffed: one `git diff` sees
   * untracked files, deletions and binary files alike, and the checkout's own index, which
   * claude or a person may be using, is never touched.
   */
  async diff(folder: string, base: string | null): Promise<string> {
    const top = await this.top(folder);
    const commit =
      base === null ? await this.#resolve(top, 'HEAD') : await this.checkBase(top, base);
    const scratch = await mkdtemp(path.join(tmpdir(), 'cch-diff-'));
    try {
      const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
      await this.#snapshots.stage(top, env.GIT_INDEX_FILE);
      // Without a commit (a repository with none yet), git diffs the index against nothing.
      const args = ['diff', '--cached', ...diffOptions, ...(commit ? [commit] : []), '--'];
      const result = await this.#ok(args, top, 'diff the work tree', {
        env,
        maxOutput: maxDiffChars + 1,
      });
      return boundDiff(
        result.stdout === '' ? '' : `${result.stdout}\n`,
        maxDiffChars,
        !!result.cut,
      );
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /**
   * Commits everything in the worktree at `folder` (untracked files included) on `branch`,
   * which it must have checked out; returns the commit id. NOTHING_TO_COMMIT when nothing
   * changed. The author and committer are git's own (user.name, user.email) or, where git has
   * none, hubIdentity. Hooks that check a commit (pre-commit, commit-msg) do not run: a hub has
   * no person to answer them.
   */
  async commit(folder: string, branch: string, message: string): Promise<string> {
    const problem = commitMessageProblem(message);
    if (problem !== null) {
      throw new HubError(ErrorCode.BadInput, `message ${problem}`, { field: 'message' });
    }
    const head = await this.#git(['symbolic-ref', '--quiet', 'HEAD'], folder);
    if (head.stdout.trim() !== `refs/heads/${branch}`) {
      throw new HubError(
        ErrorCode.BadInput,
        `the worktree ${folder} has ${head.stdout.trim() || 'a detached HEAD'} checked out, not its branch ${branch}; check the branch out there to commit`,
      );
    }
    await this.#ok(['add', '--all'], folder, 'stage the work tree');
    const staged = await this.#git(['diff', '--cached', '--quiet', '--no-ext-diff'], folder);
    if (staged.exitCode === 0) {
      throw new HubError(
        ErrorCode.NothingToCommit,
        `the worktree ${folder} has no change since its last commit`,
      );
    }
    const identity: string[] = [];
    for (const [key, value] of [
      ['user.name', hubIdentity.name],
      ['user.email', hubIdentity.email],
    ] as const) {
      const set = await this.#git(['config', '--get', key], folder);
      if (set.exitCode !== 0 || set.stdout.trim() === '') identity.push('-c', `${key}=${value}`);
    }
    await this.#ok(
      [...identity, 'commit', '--quiet', '--no-verify', '--cleanup=whitespace', '-F', '-'],
      folder,
      'commit',
      { input: message },
    );
    const made = await this.#resolve(folder, 'HEAD');
    if (made === null) throw new HubError(ErrorCode.Internal, 'git made no commit');
    return made;
  }

  /** The top folder of the checkout `folder` is in; NOT_A_REPOSITORY when it is in none. */
  async top(folder: string): Promise<string> {
    if (!existsSync(folder)) {
      throw new HubError(ErrorCode.NotARepository, `${folder} is gone, so it has no diff`);
    }
    const where = await this.#git(['rev-parse', '--show-toplevel'], folder);
    const top = where.stdout.trim();
    if (where.exitCode !== 0 || top === '') {
      throw new HubError(
        ErrorCode.NotARepository,
        `${folder} is not in a git checkout (${gitComplaint(where)}), so it has no diff`,
      );
    }
    return top;
  }

  /** The commit a client's `base` names; BAD_USER_INPUT before git sees a hostile one. */
  async checkBase(top: string, base: string): Promise<string> {
    const problem = refValueProblem(base);
    const commit = problem === null ? await this.#resolve(top, base) : null;
    if (commit === null) {
      throw new HubError(
        ErrorCode.BadInput,
        `base ${problem ?? 'names no commit of the repository'}, got ${describeValue(base)}`,
        { field: 'base' },
      );
    }
    return commit;
  }

  async #resolve(cwd: string, name: string): Promise<string | null> {
    const found = await this.#git(
      ['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`],
      cwd,
    );
    return found.exitCode === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
  }

  /** git's result, or an error saying what could not be done and git's complaint. */
  async #ok(args: readonly string[], cwd: string, what: string, extra?: Parameters<GitRun>[2]) {
    const result = await this.#git(args, cwd, extra);
    if (result.exitCode !== 0) {
      throw new HubError(ErrorCode.Internal, `git could not ${what}: ${gitComplaint(result)}`);
    }
    return result;
  }
}
