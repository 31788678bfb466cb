import path from 'node:path';
import { applyPatch, formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import { boundDiff } from '../git/diff-bounds.js';
import { ActionKind, type Action } from '../runs/action.js';
import type { TreeChangeDiff } from '../git/tree-snapshots.js';

/** A changed file with the calls that changed it. */
export interface ChangedFile extends TreeChangeDiff {
  readonly actions: readonly Action[];
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The file a file tool worked on, absolute (a relative one resolved against `cwd`). */
export function actionFile(action: Action, cwd: string): string | null {
  if (action.kind !== ActionKind.FileChange) return null;
  const input = record(action.detail?.input);
  const named =
    text(input.file_path) ??
    text(input.notebook_path) ??
    text(record(action.detail?.response).filePath);
  return named === null || named === '' ? null : path.resolve(cwd, named);
}

/** What a completed file tool left in the file, and what was there before (null: none). */
function contents(action: Action): { before: string | null; after: string | null } {
  const input = record(action.detail?.input);
  const response = record(action.detail?.response);
  const before = text(response.originalFile);
  if (action.toolName === 'Write')
    return { before, after: text(response.content) ?? text(input.content) };
  const hunks = response.structuredPatch;
  if (before !== null && Array.isArray(hunks)) {
    const patched = applyPatch(before, { hunks } as unknown as StructuredPatch);
    if (patched !== false) return { before, after: patched };
  }
  return { before, after: null };
}

/**
 * A turn's changed files as its file tools (Write, Edit, NotebookEdit) say: for a folder that
 * is no git checkout. Each file's diff runs from what the first call found to what the last
 * left; a file no call says the content of (a notebook) has no diff. Paths are relative to
 * `cwd` where they lie in it. Pure.
 */
export function editChanges(
  actions: readonly Action[],
  cwd: string,
  perFile: number,
): ChangedFile[] {
  const byFile = new Map<string, Action[]>();
  for (const action of actions) {
    if (action.ok !== true) continue;
    const file = actionFile(action, cwd);
    if (file === null) continue;
    const mine = byFile.get(file);
    if (mine) mine.push(action);
    else byFile.set(file, [action]);
  }
  return [...byFile].map(([file, calls]) => {
    const relative = path.relative(cwd, file);
    const shown = relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
    const first = contents(calls[0]!);
    const last = contents(calls.at(-1)!);
    const created = record(calls[0]!.detail?.response).type === 'create';
    const kind = created ? 'ADD' : 'MODIFY';
    if (last.after === null) {
      return { path: shown, oldPath: null, kind, diff: null, truncated: false, actions: calls };
    }
    const patch = structuredPatch(
      created ? '/dev/null' : `a/${shown}`,
      `b/${shown}`,
      first.before ?? '',
      last.after,
      undefined,
      undefined,
      { context: 3 },
    );
    const whole = `diff --git a/${shown} b/${shown}\n${formatPatch(patch, {
      includeIndex: false,
      includeUnderline: false,
      includeFileHeaders: true,
    })}`;
    const diff = boundDiff(whole, perFile, false);
    return { path: shown, oldPath: null, kind, diff, truncated: diff !== whole, actions: calls };
  });
}
