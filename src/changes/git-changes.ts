import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { DiffBounds, TreeSnapshots } from '../git/tree-snapshots.js';
import { ActionPhase, type Action } from '../runs/action.js';
import type { ChangeMark } from './change-marks.js';
import { actionFile, type ChangedFile } from './edit-changes.js';

/** Marks that bound some work: changes run from `from` to the last of `marks`. */
export interface ChangeWindow {
  /** The top folder of the checkout. */
  readonly top: string;
  readonly from: ChangeMark;
  /** The marks after `from`, oldest first; the last is where the window ends. */
  readonly marks: readonly ChangeMark[];
}

/** `file` from the checkout's top, following symlinks in the folders above it; null outside. */
function fromTop(top: string, file: string): string | null {
  let relative = path.relative(top, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    try {
      relative = path.relative(
        top,
        path.join(realpathSync(path.dirname(file)), path.basename(file)),
      );
    } catch {
      return null;
    }
  }
  return relative.startsWith('..') || path.isAbsolute(relative) ? null : relative;
}

/**
 * What changed in a checkout between two marks, file by file, and the calls that changed each:
 * a file tool that names the file, and any call at whose end the file had changed since the
 * mark before (a shell command, an MCP tool, a subagent); calls that ran side by side may both
 * be named for a change one of them made.
 */
export async function gitChanges(
  snapshots: Pick<TreeSnapshots, 'changes' | 'changed'>,
  window: ChangeWindow,
  actions: readonly Action[],
  bounds: DiffBounds,
): Promise<ChangedFile[]> {
  const { top, from, marks } = window;
  const end = marks.at(-1) ?? from;
  const whole = await snapshots.changes(top, from.tree, end.tree, bounds);
  if (whole.length === 0) return [];
  const byFile = new Map<string, Map<string, Action>>();
  const add = (file: string, action: Action) => {
    const mine = byFile.get(file) ?? new Map<string, Action>();
    byFile.set(file, mine.set(action.id, action));
  };
  const endedAt = new Map<number, Action[]>();
  for (const action of actions) {
    if (action.phase !== ActionPhase.Completed) continue;
    const ended = endedAt.get(action.seq);
    if (ended) ended.push(action);
    else endedAt.set(action.seq, [action]);
    const file = actionFile(action, top);
    const relative = file === null ? null : fromTop(top, file);
    if (relative !== null) add(relative, action);
  }
  let previous = from;
  for (const mark of marks) {
    const ended = endedAt.get(mark.seq);
    if (ended && mark.tree !== previous.tree) {
      // A span as wide as the whole window (one call changed everything) needs no git again.
      const span =
        previous.tree === from.tree && mark.tree === end.tree
          ? whole
          : await snapshots.changed(top, previous.tree, mark.tree);
      for (const change of span) {
        for (const action of ended) {
          add(change.path, action);
          if (change.oldPath !== null) add(change.oldPath, action);
        }
      }
    }
    previous = mark;
  }
  return whole.map((change) => {
    const made = new Map([
      ...(byFile.get(change.path) ?? []),
      ...(change.oldPath === null ? [] : (byFile.get(change.oldPath) ?? [])),
    ]);
    const ordered = [...made.values()].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);
    return { ...change, actions: ordered };
  });
}
