import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest `.git` (a checkout's folder, or a linked worktree's file) in `folder` or above it;
 * null when there is none, and then `folder` is in no checkout. What git's own discovery looks
 * for, found with a few stats: asking git costs a process (ms of the hub's loop to start), and
 * a session in no checkout would ask again at every turn, in case of a `git init` since.
 */
export function nearestGitEntry(folder: string): string | null {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const entry = path.join(dir, '.git');
    if (existsSync(entry)) return entry;
    if (path.dirname(dir) === dir) return null;
  }
}
