import { describe, expect, it } from 'vitest';
import { approvalOf } from '../../src/changes/approvals.js';
import type { ChangeMark } from '../../src/changes/change-marks.js';
import { editChanges } from '../../src/changes/edit-changes.js';
import { gitChanges } from '../../src/changes/git-changes.js';
import { marksAfter } from '../../src/changes/work-tree-marks.js';
import { parseNameStatus, splitPatch, type TreeChange } from '../../src/git/tree-snapshots.js';
import {
  PermissionStatus,
  type PermissionRecord,
} from '../../src/permissions/permission-request.js';
import { ActionKind, ActionPhase, type Action } from '../../src/runs/action.js';

function action(
  id: string,
  fields: Partial<Action> & { input?: unknown; response?: unknown },
): Action {
  const { input, response, ...rest } = fields;
  return {
    id,
    sessionId: 's',
    turnId: 's:1',
    seq: 5,
    kind: ActionKind.Command,
    phase: ActionPhase.Completed,
    title: id,
    toolName: 'Bash',
    ok: true,
    detail: { input: input ?? {}, ...(response === undefined ? {} : { response }) },
    startedAt: 1000,
    completedAt: 2000,
    durationMs: 1000,
    ...rest,
  };
}

function request(fields: Partial<PermissionRecord>): PermissionRecord {
  return {
    id: 'r1',
    sessionId: 's',
    eventSeq: 3,
    toolName: 'Bash',
    toolInput: {},
    suggestions: null,
    requestedAt: 1500,
    status: PermissionStatus.Allowed,
    decidedAt: 1600,
    message: null,
    ...fields,
  };
}

describe('git output read as changes', () => {
  it('reads --name-status -z, renames with both paths', () => {
    expect(parseNameStatus('M\0a b.txt\0R087\0old.txt\0new.txt\0A\0x\0D\0y\0T\0z\0')).toEqual([
      { path: 'a b.txt', oldPath: null, kind: 'MODIFY' },
      { path: 'new.txt', oldPath: 'old.txt', kind: 'RENAME' },
      { path: 'x', oldPath: null, kind: 'ADD' },
      { path: 'y', oldPath: null, kind: 'DELETE' },
      { path: 'z', oldPath: null, kind: 'MODIFY' },
    ]);
    expect(parseNameStatus('')).toEqual([]);
  });

  it('splits a patch at each file, a line that merely mentions diff --git kept in its file', () => {
    const one = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-diff --git a/q b/q\n+y\n';
    const two = 'diff --git a/z b/z\nnew file mode 100644\n';
    expect(splitPatch(one + two)).toEqual([one, two]);
    expect(splitPatch('')).toEqual([]);
  });
});

describe('how a call was allowed', () => {
  const write = action('t1', {
    toolName: 'Write',
    kind: ActionKind.FileChange,
    input: { file_path: '/r/a' },
  });

  it('names the rule or the token of the request decided for the call', () => {
    expect(
      approvalOf(write, 'default', [request({ toolUseId: 't1', decidedBy: 'rule writes ok' })]),
    ).toMatchObject({
      kind: 'RULE',
      rule: 'writes ok',
      requestId: 'r1',
      mode: 'default',
    });
    const asked = request({
      toolName: 'Write',
      toolInput: { file_path: '/r/a' },
      decidedBy: 'token ci bot',
    });
    expect(approvalOf(write, 'default', [asked])).toMatchObject({
      kind: 'PERSON',
      token: 'ci bot',
    });
  });

  it("takes claude's dialog for a request that ran without the hub's yes", () => {
    for (const status of [PermissionStatus.Expired, PermissionStatus.AnsweredInTerminal]) {
      const held = request({ toolName: 'Write', toolInput: { file_path: '/r/a' }, status });
      expect(approvalOf(write, 'default', [held]).kind).toBe('TERMINAL');
    }
  });

  it('ignores a request for other input, or made outside the call', () => {
    const other = request({ toolName: 'Write', toolInput: { file_path: '/r/b' } });
    const later = request({
      toolName: 'Write',
      toolInput: { file_path: '/r/a' },
      requestedAt: 2500,
    });
    expect(approvalOf(write, 'default', [other, later]).kind).toBe('NO_PROMPT');
  });

  it('credits the mode only where it lets the call through unasked', () => {
    expect(approvalOf(write, 'acceptEdits', []).kind).toBe('MODE');
    expect(approvalOf(action('b', {}), 'acceptEdits', []).kind).toBe('NO_PROMPT');
    expect(approvalOf(action('b', {}), 'bypassPermissions', []).kind).toBe('MODE');
  });
});

describe('changes from file tools', () => {
  it('diffs from what the first call found to what the last left, paths from the cwd', () => {
    const made = action('w', {
      toolName: 'Write',
      kind: ActionKind.FileChange,
      input: { file_path: '/work/a.txt', content: 'one\ntwo\n' },
      response: { type: 'create', content: 'one\ntwo\n', originalFile: null },
    });
    const edited = action('e', {
      toolName: 'Edit',
      kind: ActionKind.FileChange,
      input: { file_path: '/work/a.txt', old_string: 'two', new_string: 'three' },
      response: {
        originalFile: 'one\ntwo\n',
        structuredPatch: [
          { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' one', '-two', '+three'] },
        ],
      },
    });
    const failed = action('f', {
      toolName: 'Write',
      kind: ActionKind.FileChange,
      ok: false,
      input: { file_path: '/x' },
    });
    expect(editChanges([made, edited, failed], '/work', 1000)).toEqual([
      {
        path: 'a.txt',
        oldPath: null,
        kind: 'ADD',
        diff: 'diff --git a/a.txt b/a.txt\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+three\n',
        truncated: false,
        actions: [made, edited],
      },
    ]);
  });

  it('cuts a long diff and says so; a file outside the cwd keeps its absolute path', () => {
    const big = action('w', {
      toolName: 'Write',
      kind: ActionKind.FileChange,
      input: { file_path: '/elsewhere/b.txt' },
      response: { type: 'create', content: 'x\n'.repeat(100), originalFile: null },
    });
    const [change] = editChanges([big], '/work', 60);
    expect(change).toMatchObject({ path: '/elsewhere/b.txt', truncated: true });
    expect(change!.diff!.endsWith('[diff cut at 60 characters: what follows is not shown]')).toBe(
      true,
    );
  });
});

describe('changes from snapshots, each credited to its calls', () => {
  const mark = (seq: number, tree: string): ChangeMark => ({ seq, tree, at: seq });
  const spans: Record<string, TreeChange[]> = {
    't0>t1': [{ path: 'made-by-shell.txt', oldPath: null, kind: 'ADD' }],
    't1>t2': [{ path: 'notes.txt', oldPath: null, kind: 'ADD' }],
    't2>t3': [{ path: 'new-name.txt', oldPath: 'old-name.txt', kind: 'RENAME' }],
  };
  const snapshots = {
    changed: async (_top: string, from: string, to: string) => spans[`${from}>${to}`] ?? [],
    changes: async () =>
      [
        ...Object.values(spans).flat(),
        { path: 'by-nobody.txt', oldPath: null, kind: 'ADD' as const },
      ].map((change) => ({ ...change, diff: '', truncated: false })),
  };

  it('names the call at whose end a file had changed, and the file tool that names it', async () => {
    const shell = action('sh', { seq: 11, startedAt: 1 });
    const write = action('wr', {
      seq: 13,
      startedAt: 2,
      toolName: 'Write',
      kind: ActionKind.FileChange,
      input: { file_path: '/repo/notes.txt' },
    });
    const move = action('mv', { seq: 15, startedAt: 3 });
    const files = await gitChanges(
      snapshots,
      {
        top: '/repo',
        from: mark(10, 't0'),
        marks: [mark(11, 't1'), mark(13, 't2'), mark(15, 't3'), mark(16, 't3')],
      },
      [shell, write, move],
      { perFile: 1000, total: 1000 },
    );
    expect(files.map((file) => [file.path, file.actions.map((a) => a.id)])).toEqual([
      ['made-by-shell.txt', ['sh']],
      ['notes.txt', ['wr']],
      ['new-name.txt', ['mv']],
      ['by-nobody.txt', []],
    ]);
  });
});

describe('which events take a snapshot', () => {
  const event = (eventName: string, tool?: string) => ({
    eventName,
    payload: { hook_event_name: eventName, session_id: 's', ...(tool ? { tool_name: tool } : {}) },
  });

  it("a turn's start and end, and calls that may change files", () => {
    expect(marksAfter(event('UserPromptSubmit'))).toBe(true);
    expect(marksAfter(event('Stop'))).toBe(true);
    expect(marksAfter(event('PostToolUse', 'Bash'))).toBe(true);
    expect(marksAfter(event('PostToolUseFailure', 'mcp__other__tool'))).toBe(true);
    expect(marksAfter(event('PostToolUse', 'Read'))).toBe(false);
    expect(marksAfter(event('PostToolUse', 'mcp__hub__send_to_channel'))).toBe(false);
    expect(marksAfter(event('PreToolUse', 'Bash'))).toBe(false);
    expect(marksAfter(event('Notification'))).toBe(false);
  });
});
