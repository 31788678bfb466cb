import path from 'node:path';

/**
 * The names a session's worktree gets, and the checks a client's branch and base pass before
 * git sees them. Pure: git itself checks the rest (`check-ref-format`, `rev-parse --verify`).
 */

/** The prefix of the branches the hub names itself. */
export const branchPrefix = 'claude/';

/** Longest branch or base a client may give. */
export const maxRefLength = 200;

/** How many `-2`, `-3`... a default branch tries before giving up. */
export const maxBranchSuffix = 100;

/**
 * Why a branch or base given by a client is refused before git runs, or null. A value starting
 * with `-` would be an option to git; `@{` asks git to expand a reflog entry (`@{-1}` is the
 * branch checked out before), so the value named would not be the value given; control
 * characters and blanks name no ref.
 */
export function refValueProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > maxRefLength) return `must be at most ${maxRefLength} characters`;
  if (value.startsWith('-')) return 'must not start with "-"';
  if (value.includes('@{')) return 'must not hold "@{"';
  if (/[\u0000-\u0020\u007f]/.test(value)) return 'must not hold blanks or control characters';
  return null;
}

/**
 * The branch a session gets when its client names none: `claude/<name>` with the session's
 * name reduced to letters, digits, `.`, `_` and `-`, or `claude/<first 8 of the id>` when
 * nothing of the name is left.
 */
export function defaultBranch(name: string | null, id: string): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.lock$/i, '')
    .slice(0, 60)
    .replace(/[-.]+$/g, '');
  return `${branchPrefix}${slug || id.slice(0, 8)}`;
}

/** `wanted`, or `wanted-2`, `wanted-3`... the first that `taken` says is free; null if none is. */
export function firstFreeBranch(wanted: string, taken: (branch: string) => boolean): string | null {
  if (!taken(wanted)) return wanted;
  for (let n = 2; n <= maxBranchSuffix; n++) {
    const candidate = `${wanted}-${n}`;
    if (!taken(candidate)) return candidate;
  }
  return null;
}

/** The folder of a session's worktree: `<root>/<repository's name>-<first 8 of the id>`. */
export function worktreeFolder(root: string, repository: string, id: string): string {
  const repo = path.basename(repository).replace(/[^A-Za-z0-9._-]+/g, '-') || 'repo';
  return path.join(root, `${repo}-${id.slice(0, 8)}`);
}

/**
 * Where claude starts in the worktree: the same subfolder of it as `cwd` is of its checkout.
 * `prefix` is what `git rev-parse --show-prefix` printed (`sub/dir/`, or empty at the top).
 */
export function cwdInWorktree(worktree: string, prefix: string): string {
  const sub = prefix.replace(/\/+$/, '');
  return sub === '' ? worktree : path.join(worktree, sub);
}

/**
 * The main repository's top folder from `git rev-parse --path-format=absolute
 * --git-common-dir` and `--show-toplevel`: the folder holding the common `.git`, or the
 * checkout's own top when the repository keeps its git folder elsewhere (a bare one, a
 * submodule).
 */
export function repositoryTop(commonDir: string, toplevel: string): string {
  return path.basename(commonDir) === '.git' ? path.dirname(commonDir) : toplevel;
}
