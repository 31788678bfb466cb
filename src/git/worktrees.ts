import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import { gitComplaint, gitEnvironment, gitRunner, type GitRun } from './git.js';
import {
  cwdInWorktree,
  defaultBranch,
  firstFreeBranch,
  refValueProblem,
  repositoryTop,
  worktreeFolder,
} from './worktree-names.js';

/** A git worktree the hub made for one session, on a branch of its own. */
export interface SessionWorktree {
  /** The worktree's top folder, under --worktree-root. */
  readonly path: string;
  /** The branch it has checked out, made for it (short name: `claude/fix-login`). */
  readonly branch: string;
  /** The commit the branch started at, resolved when the worktree was made. */
  readonly base: string;
  /** What base was named as: the client's text, or the branch checked out in cwd; null when detached. */
  readonly baseRef: string | null;
  /** The main repository's top folder. */
  readonly repository: string;
  /** claude's folder in the worktree, relative to its top ('' for the top). */
  readonly subfolder: string;
  /** Set once the hub removed the worktree. */
  removal: WorktreeRemoval | null;
}

/** What removing a worktree did, and what became of its branch. */
export interface WorktreeRemoval {
  readonly at: number;
  readonly branchDeleted: boolean;
  /** Said for people: why the branch went or stayed. */
  readonly note: string;
}

/** What a client asks of a session's worktree; each field has a default. */
export interface WorktreeRequest {
  readonly branch?: string | null | undefined;
  readonly base?: string | null | undefined;
}

/** BAD_USER_INPUT before any git runs, for a branch or base git must never see. */
export function checkWorktreeRequest(request: WorktreeRequest): void {
  for (const field of ['branch', 'base'] as const) {
    const value = request[field];
    if (value === undefined || value === null) continue;
    const problem = refValueProblem(value);
    if (problem !== null) {
      throw new HubError(
        ErrorCode.BadInput,
        `worktree.${field} ${problem}, got ${describeValue(value)}`,
        { field: `worktree.${field}` },
      );
    }
  }
}

/** When a branch with commits of its own is deleted along with its worktree. */
export type BranchDeletion = 'IF_MERGED' | 'ALWAYS';

/**
 * The git worktrees of sessions: made from the commit checked out in a session's cwd (or a base
 * the client names) on a new branch, under one root folder; removed on request, with their
 * branch when nothing on it would be lost. Every value reaches git as one argument of an array,
 * after `--end-of-options` or `--` where git takes them.
 */
export class Worktrees {
  readonly #root: string;
  readonly #git: GitRun;

  /** `env`: the hub's environment less its secrets; git gets it less every GIT_* variable. */
  constructor(options: {
    readonly root: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly git?: GitRun;
  }) {
    this.#root = options.root;
    this.#git = options.git ?? gitRunner(gitEnvironment(options.env));
  }

  /**
   * Makes the worktree of session `id` for a client in `cwd`: NOT_A_REPOSITORY when cwd is in
   * no git checkout, BAD_USER_INPUT for a branch git refuses or that exists, or a base that
   * names no commit. Returns it with the folder claude starts in (cwd's own subfolder of it).
   */
  async create(
    cwd: string,
    request: WorktreeRequest,
    session: { readonly id: string; readonly name: string | null },
  ): Promise<{ worktree: SessionWorktree; cwd: string }> {
    checkWorktreeRequest(request);
    const git = this.#git;
    const where = await git(
      [
        'rev-parse',
        '--path-format=absolute',
        '--show-toplevel',
        '--show-prefix',
        '--git-common-dir',
      ],
      cwd,
    );
    const [toplevel = '', prefix = '', commonDir = ''] = where.stdout.split('\n');
    if (where.exitCode !== 0 || toplevel === '') {
      throw new HubError(
        ErrorCode.NotARepository,
        `cwd ${cwd} is not in a git checkout (${gitComplaint(where)}), so it has no worktree to branch`,
      );
    }
    const repository = repositoryTop(commonDir, toplevel);
    const { base, baseRef } = await this.#base(cwd, request.base ?? null);
    const branch = await this.#branch(cwd, request.branch ?? null, session);
    mkdirSync(this.#root, { recursive: true, mode: 0o700 });
    let folder = worktreeFolder(this.#root, repository, session.id);
    if (existsSync(folder)) folder = `${folder}${session.id.slice(8)}`;
    const added = await git(
      ['worktree', 'add', '--quiet', '--no-track', '-b', branch, '--', folder, base],
      cwd,
    );
    if (added.exitCode !== 0) {
      throw new HubError(
        ErrorCode.SessionStartFailed,
        `git could not make the worktree: ${gitComplaint(added)}`,
      );
    }
    const claudeCwd = cwdInWorktree(folder, prefix);
    // A folder git does not track (empty, or not in base) is made, so claude starts there.
    mkdirSync(claudeCwd, { recursive: true });
    return {
      worktree: {
        path: folder,
        branch,
        base,
        baseRef,
        repository,
        subfolder: path.relative(folder, claudeCwd),
        removal: null,
      },
      cwd: claudeCwd,
    };
  }

  /**
   * Removes the worktree (`git worktree remove --force`: changes in it are gone) and deletes
   * its branch when it has no commit beyond its base or is merged into what base named (with
   * `ALWAYS`, in any case); otherwise the branch stays, and the note says so.
   */
  async remove(
    worktree: SessionWorktree,
    now: number,
    deletion: BranchDeletion = 'IF_MERGED',
  ): Promise<WorktreeRemoval> {
    const git = this.#git;
    const repo = worktree.repository;
    if (existsSync(worktree.path)) {
      const removed = await git(['worktree', 'remove', '--force', '--', worktree.path], repo);
      if (removed.exitCode !== 0) {
        throw new HubError(
          ErrorCode.Internal,
          `git could not remove the worktree ${worktree.path}: ${gitComplaint(removed)}`,
        );
      }
    } else {
      // Deleted by hand: git forgets it.
      await git(['worktree', 'prune'], repo);
    }
    const ref = `refs/heads/${worktree.branch}`;
    const tip = await this.#commit(repo, ref);
    if (tip === null) {
      return { at: now, branchDeleted: false, note: `branch ${worktree.branch} was gone already` };
    }
    const why =
      deletion === 'ALWAYS'
        ? 'made for a session that never started'
        : await this.#spent(worktree, tip);
    if (why === null) {
      const ahead = await git(['rev-list', '--count', `${worktree.base}..${tip}`], repo);
      return {
        at: now,
        branchDeleted: false,
        note: `branch ${worktree.branch} kept: ${ahead.stdout.trim() || 'some'} commit(s) beyond its base ${worktree.base.slice(0, 12)}, not merged`,
      };
    }
    const deleted = await git(['update-ref', '-d', ref, tip], repo);
    return deleted.exitCode === 0
      ? { at: now, branchDeleted: true, note: `branch ${worktree.branch} deleted: ${why}` }
      : {
          at: now,
          branchDeleted: false,
          note: `branch ${worktree.branch} kept: ${gitComplaint(deleted)}`,
        };
  }

  /** Why the branch at `tip` may go (nothing on it is lost), or null when it must stay. */
  async #spent(worktree: SessionWorktree, tip: string): Promise<string | null> {
    const repo = worktree.repository;
    const within = async (commit: string) =>
      (await this.#git(['merge-base', '--is-ancestor', tip, commit], repo)).exitCode === 0;
    if (await within(worktree.base)) return 'no commits beyond its base';
    const target = worktree.baseRef === null ? null : await this.#commit(repo, worktree.baseRef);
    if (target !== null && (await within(target))) return `merged into ${worktree.baseRef}`;
    return null;
  }

  /** The commit a name resolves to in the repository at `cwd`, or null. */
  async #commit(cwd: string, name: string): Promise<string | null> {
    const found = await this.#git(
      ['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`],
      cwd,
    );
    return found.exitCode === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
  }

  /** The commit to branch from: the one `base` names, else the one checked out in cwd. */
  async #base(cwd: string, base: string | null): Promise<{ base: string; baseRef: string | null }> {
    if (base !== null) {
      const commit = await this.#commit(cwd, base);
      if (commit === null) {
        throw new HubError(
          ErrorCode.BadInput,
          `worktree.base names no commit of the repository, got ${describeValue(base)}`,
          { field: 'worktree.base' },
        );
      }
      return { base: commit, baseRef: base };
    }
    const head = await this.#commit(cwd, 'HEAD');
    if (head === null) {
      throw new HubError(
        ErrorCode.BadInput,
        `the checkout at ${cwd} has no commit yet to branch from`,
        { field: 'worktree.base' },
      );
    }
    const symbolic = await this.#git(['symbolic-ref', '--quiet', 'HEAD'], cwd);
    return { base: head, baseRef: symbolic.exitCode === 0 ? symbolic.stdout.trim() : null };
  }

  /** The new branch: the one named (refused when git refuses it or it exists), else a free default. */
  async #branch(
    cwd: string,
    branch: string | null,
    session: { readonly id: string; readonly name: string | null },
  ): Promise<string> {
    const existing = await this.#git(['for-each-ref', '--format=%(refname)', 'refs/heads/'], cwd);
    const taken = new Set(
      existing.stdout
        .split('\n')
        .filter((ref) => ref.startsWith('refs/heads/'))
        .map((ref) => ref.slice('refs/heads/'.length)),
    );
    if (branch !== null) {
      const name = await this.#validBranch(cwd, branch);
      if (name === null) {
        throw new HubError(
          ErrorCode.BadInput,
          `worktree.branch is not a valid branch name, got ${describeValue(branch)}`,
          { field: 'worktree.branch' },
        );
      }
      if (taken.has(name)) {
        throw new HubError(
          ErrorCode.BadInput,
          `worktree.branch ${describeValue(name)} exists already; name a new one, or none`,
          { field: 'worktree.branch' },
        );
      }
      return name;
    }
    const wanted =
      (await this.#validBranch(cwd, defaultBranch(session.name, session.id))) ??
      defaultBranch(null, session.id);
    const free = firstFreeBranch(wanted, (name) => taken.has(name));
    if (free === null) {
      throw new HubError(
        ErrorCode.BadInput,
        `branches ${wanted} to ${wanted}-100 all exist; name one with worktree.branch`,
        { field: 'worktree.branch' },
      );
    }
    return free;
  }

  /** The branch name as git writes it (`check-ref-format --branch`), or null when git refuses it. */
  async #validBranch(cwd: string, branch: string): Promise<string | null> {
    if (refValueProblem(branch) !== null) return null;
    const checked = await this.#git(['check-ref-format', '--branch', branch], cwd);
    return checked.exitCode === 0 && checked.stdout.trim() !== '' ? checked.stdout.trim() : null;
  }
}
