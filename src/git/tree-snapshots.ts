import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, HubError } from '../errors.js';
import { gitComplaint, type GitRun } from './git.js';
import { boundDiff } from './diff-bounds.js';

/** How a file changed between two trees. */
export type TreeChangeKind = 'ADD' | 'MODIFY' | 'DELETE' | 'RENAME';

/** One file changed between two trees, by its path from the checkout's top. */
export interface TreeChange {
  readonly path: string;
  /** Where a RENAME came from; null otherwise. */
  readonly oldPath: string | null;
  readonly kind: TreeChangeKind;
}

/** A TreeChange with its unified diff, cut when long. */
export interface TreeChangeDiff extends TreeChange {
  /** Null where the whole diff was cut before this file. */
  readonly diff: string | null;
  readonly truncated: boolean;
}

/** How much of a diff changes() returns: per file, and all files together. */
export interface DiffBounds {
  readonly perFile: number;
  readonly total: number;
}

const kinds: Readonly<Record<string, TreeChangeKind>> = {
  A: 'ADD',
  M: 'MODIFY',
  T: 'MODIFY',
  D: 'DELETE',
  R: 'RENAME',
};

/** The options every diff runs with: renames found, no program the repository names, no colour. */
const diffOptions = [
  '-r',
  '-M',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/**
 * `git diff-tree -z --name-status` output as changes: `M\0path\0`, `R100\0old\0new\0`. Pure.
 */
export function parseNameStatus(output: string): TreeChange[] {
  const parts = output.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i < parts.length;) {
    const status = parts[i++] ?? '';
    if (status === '') continue;
    const kind = kinds[status[0]!] ?? 'MODIFY';
    if (status[0] === 'R' || status[0] === 'C') {
      const oldPath = parts[i++] ?? '';
      changes.push({ path: parts[i++] ?? '', oldPath, kind: status[0] === 'R' ? kind : 'ADD' });
    } else {
      changes.push({ path: parts[i++] ?? '', oldPath: null, kind });
    }
  }
  return changes;
}

/** A patch of many files split at each `diff --git` line, in git's order. Pure. */
export function splitPatch(patch: string): string[] {
  if (patch === '') return [];
  const starts: number[] = [];
  const header = /^diff --git /gm;
  for (let match = header.exec(patch); match; match = header.exec(patch)) starts.push(match.index);
  return starts.map((start, i) => patch.slice(start, starts[i + 1] ?? patch.length));
}

/**
 * Snapshots of a checkout's work tree as git trees, and what changed between two of them. A
 * snapshot stages the whole work tree (tracked, changed and untracked files, not ignored ones)
 * into an index of the hub's own, then writes it as a tree: the checkout's own index is never
 * touched, and the hub's index keeps the files' stat data, so a snapshot re-reads only the
 * files that changed since the last.
 */
export class TreeSnapshots {
  readonly #git: GitRun;

  constructor(git: GitRun) {
    this.#git = git;
  }

  /** The top folder of the checkout `folder` is in; null when it is in none (or is gone). */
  async top(folder: string): Promise<string | null> {
    if (!existsSync(folder)) return null;
    const where = await this.#git(['rev-parse', '--show-toplevel'], folder);
    const top = where.stdout.trim();
    return where.exitCode === 0 && top !== '' ? top : null;
  }

  /** The work tree at `top` as a tree id, staged through the index file `indexFile` (see stage). */
  async snapshot(top: string, indexFile: string): Promise<string> {
    await this.stage(top, indexFile);
    const tree = await this.#ok(['write-tree'], top, 'write the work tree', {
      GIT_INDEX_FILE: indexFile,
    });
    return tree.stdout.trim();
  }

  /**
   * Stages the whole work tree at `top` (`git add --all`) into the index file `indexFile`, made
   * from the checkout's own index the first time, so unchanged files are not read again; the
   * checkout's own index is never touched.
   */
  async stage(top: string, indexFile: string): Promise<void> {
    const env = { GIT_INDEX_FILE: indexFile };
    if (!existsSync(indexFile)) {
      await mkdir(path.dirname(indexFile), { recursive: true });
      const own = await this.#git(
        ['rev-parse', '--path-format=absolute', '--git-path', 'index'],
        top,
      );
      // A checkout without an index yet: git starts this one empty.
      if (own.exitCode === 0) await copyFile(own.stdout.trim(), indexFile).catch(() => {});
    }
    await this.#ok(['add', '--all'], top, 'stage the work tree', env);
  }

  /** The files changed from tree `from` to tree `to`, renames found. */
  async changed(top: string, from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return [];
    const names = await this.#ok(
      ['diff-tree', '-z', '--name-status', ...diffOptions, from, to],
      top,
      'list the changed files',
    );
    return parseNameStatus(names.stdout);
  }

  /** changed() with each file's unified diff, bounded per file and in all. */
  async changes(
    top: string,
    from: string,
    to: string,
    bounds: DiffBounds,
  ): Promise<TreeChangeDiff[]> {
    if (from === to) return [];
    // The list and the patch side by side: two git processes at once, not one after the other.
    const [files, patch] = await Promise.all([
      this.changed(top, from, to),
      this.#git(['diff-tree', '-p', ...diffOptions, from, to], top, {
        maxOutput: bounds.total + 1,
      }),
    ]);
    if (files.length === 0) return [];
    if (patch.exitCode !== 0) {
      throw new HubError(
        ErrorCode.Internal,
        `git could not diff the trees: ${gitComplaint(patch)}`,
      );
    }
    const pieces = splitPatch(patch.stdout === '' ? '' : `${patch.stdout}\n`);
    return files.map((file, i) => {
      const piece = pieces[i];
      // The last piece of a cut patch is cut too; those after it were never read.
      const cut = !!patch.cut && i >= pieces.length - 1;
      if (piece === undefined) return { ...file, diff: null, truncated: true };
      const diff = boundDiff(piece, bounds.perFile, cut);
      return { ...file, diff, truncated: cut || diff !== piece };
    });
  }

  async #ok(args: readonly string[], cwd: string, what: string, env?: Record<string, string>) {
    const result = await this.#git(args, cwd, env ? { env } : undefined);
    if (result.exitCode !== 0) {
      throw new HubError(ErrorCode.Internal, `git could not ${what}: ${gitComplaint(result)}`);
    }
    return result;
  }
}
