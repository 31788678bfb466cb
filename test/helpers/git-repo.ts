import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** git in `dir` with a fixed author and none of the caller's GIT_* variables; its stdout. */
export function git(dir: string, ...args: string[]): string {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toUpperCase().startsWith('GIT_')),
  );
  return execFileSync(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args],
    { cwd: dir, env: { ...env, LC_ALL: 'C' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  ).trim();
}

/**
 * A repository in `dir` (made) with one commit of `README.md` and `src/app/main.txt` on
 * `main`, and an `origin` remote whose `origin/main` is that commit; returns that commit.
 */
export function makeRepo(dir: string): string {
  mkdirSync(path.join(dir, 'src', 'app'), { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(path.join(dir, 'README.md'), 'hello\n');
  writeFileSync(path.join(dir, 'src', 'app', 'main.txt'), 'main\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '--quiet', '-m', 'first');
  const first = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'update-ref', 'refs/remotes/origin/main', first);
  return first;
}

/** A commit of `file` with `content` on what is checked out in `dir`; returns it. */
export function commitFile(dir: string, file: string, content: string): string {
  writeFileSync(path.join(dir, file), content);
  git(dir, 'add', '--', file);
  git(dir, 'commit', '--quiet', '-m', `change ${file}`);
  return git(dir, 'rev-parse', 'HEAD');
}

/** The branches of the repository at `dir`, short names, sorted. */
export function branches(dir: string): string[] {
  return git(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/')
    .split('\n')
    .filter(Boolean)
    .sort();
}
