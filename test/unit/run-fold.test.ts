import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { describeTool } from '../../src/runs/action.js';
import { RunFold } from '../../src/runs/run-fold.js';
import { completedTurns, sessionActions } from '../../src/runs/run-reader.js';
import { TurnIndex } from '../../src/runs/turn-index.js';
import {
  events,
  foldTurns,
  post,
  pre,
  prompt,
  sessionId,
  stop,
  type Step,
} from '../helpers/run-events.js';

function fold(list: StoredEvent[]) {
  const run = new RunFold(sessionId);
  return list.map((event) => run.apply(event));
}

describe('a run folded from hook events', () => {
  it('makes a command an action started then completed with one id, and completes the turn once', () => {
    const changes = fold(
      events(
        prompt('list it'),
        pre('t1', 'Bash', { command: 'ls -la' }),
        post('t1', 'Bash', { command: 'ls -la' }, { stdout: 'a\nb', stderr: '' }),
        stop('done'),
      ),
    );
    const actions = changes.flatMap((change) => change.actions);
    expect(actions.map((a) => [a.id, a.phase, a.kind, a.title, a.ok, a.seq])).toEqual([
      ['t1', 'STARTED', 'COMMAND', 'ls -la', null, 2],
      ['t1', 'COMPLETED', 'COMMAND', 'ls -la', true, 3],
    ]);
    expect(actions[1]!.detail).toMatchObject({ response: { stdout: 'a\nb' } });
    expect(actions[1]!.durationMs).toBe(7);
    expect(changes[0]!.started).toMatchObject({ id: 's1:1', number: 1, prompt: 'list it' });
    const completed = changes.flatMap((change) => (change.completed ? [change.completed] : []));
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      id: 's1:1',
      status: 'COMPLETED',
      answer: 'done',
      claudeSessionId: 'claude-1',
      completedSeq: 4,
      startedAt: 1_000,
      completedAt: 4_000,
    });
    expect(completed[0]!.actions.map((a) => a.phase)).toEqual(['COMPLETED']);
  });

  it('says which files a write added and an edit updated', () => {
    const [turn] = foldTurns(
      sessionId,
      events(
        prompt('write'),
        pre('w', 'Write', { file_path: '/x/new.txt', content: 'hi' }),
        post('w', 'Write', { file_path: '/x/new.txt' }, { type: 'create', filePath: '/x/new.txt' }),
        pre('e', 'Edit', { file_path: '/x/old.txt' }),
        post('e', 'Edit', { file_path: '/x/old.txt' }, { filePath: '/x/old.txt' }),
        stop('ok'),
      ),
    );
    expect(turn!.actions.map((a) => [a.kind, a.title, a.detail!.changes])).toEqual([
      ['FILE_CHANGE', '/x/new.txt', [{ path: '/x/new.txt', kind: 'add' }]],
      ['FILE_CHANGE', '/x/old.txt', [{ path: '/x/old.txt', kind: 'update' }]],
    ]);
  });

  it('starts and completes at once a call whose PreToolUse never arrived', () => {
    const [turn] = foldTurns(
      sessionId,
      events(prompt('go'), post('p', 'Read', { file_path: '/a' }, { ok: 1 }), stop('read')),
    );
    expect(turn!.actions).toEqual([
      expect.objectContaining({
        id: 'p',
        kind: 'READ',
        title: 'Read /a',
        phase: 'COMPLETED',
        ok: true,
        detail: { input: { file_path: '/a' }, response: { ok: 1 } },
        startedAt: 2_000 - 7,
        completedAt: 2_000,
        durationMs: 7,
      }),
    ]);
  });

  it('titles each kind of tool', () => {
    expect(describeTool('Read', { file_path: '/a' })).toEqual({ kind: 'READ', title: 'Read /a' });
    expect(describeTool('WebSearch', { query: 'q' })).toEqual({ kind: 'WEB_SEARCH', title: 'q' });
    expect(describeTool('Task', { subagent_type: 'Explore' })).toEqual({
      kind: 'SUBAGENT',
      title: 'Explore',
    });
    expect(describeTool('mcp__hub__send_to_channel', {})).toEqual({
      kind: 'MCP',
      title: 'hub/send_to_channel',
    });
    expect(describeTool('Glob', { pattern: '*' })).toEqual({ kind: 'TOOL', title: 'Glob' });
  });

  it('fails a tool call with its error, and turns a denial into a warning', () => {
    const [turn] = foldTurns(
      sessionId,
      events(
        prompt('go'),
        pre('f', 'Bash', { command: 'false' }),
        [
          'PostToolUseFailure',
          { tool_use_id: 'f', tool_name: 'Bash', tool_input: {}, error: 'exit 1' },
        ],
        pre('d', 'Bash', { command: 'touch /etc/x' }),
        ['HubPermissionResolved', { status: 'DENIED', tool_name: 'Bash', message: 'no' }],
        stop('could not'),
      ),
    );
    expect(turn!.status).toBe('COMPLETED');
    expect(turn!.actions.map((a) => [a.id, a.kind, a.ok, a.title, a.detail!.error])).toEqual([
      ['f', 'COMMAND', false, 'false', 'exit 1'],
      ['d', 'COMMAND', false, 'touch /etc/x', 'permission denied'],
      ['s1:5:warning', 'WARNING', false, 'permission denied: Bash', undefined],
    ]);
  });

  it('ends a turn interrupted, crashed or overtaken, closing its open calls', () => {
    const turns = foldTurns(
      sessionId,
      events(
        prompt('one'),
        pre('a', 'Bash', { command: 'sleep 60' }),
        ['HubTurnEnded', { reason: 'interrupted', error: null }],
        prompt('two'),
        pre('b', 'Bash', { command: 'sleep 60' }),
        ['HubTurnEnded', { reason: 'crashed', error: 'claude exited (137)' }],
        prompt('three'),
        prompt('four'),
      ),
    );
    expect(turns.map((t) => [t.number, t.prompt, t.status, t.error])).toEqual([
      [1, 'one', 'INTERRUPTED', 'the session was interrupted'],
      [2, 'two', 'FAILED', 'claude exited (137)'],
      [3, 'three', 'INTERRUPTED', 'a new prompt came before the turn ended'],
      [4, 'four', 'RUNNING', null],
    ]);
    expect(turns[0]!.actions[0]).toMatchObject({ ok: false, phase: 'COMPLETED', seq: 3 });
    expect(turns[1]!.actions[0]!.detail!.error).toBe('the turn ended failed: claude exited (137)');
  });

  it("ends a HEADLESS session's turns at claude's result line, with the answer, usage and the turn's own cost", () => {
    const line = (message: Record<string, unknown>, extra: object = {}): Step => [
      'StreamMessage',
      { type: message.type, subtype: message.subtype ?? null, message, ...extra },
    ];
    const usage = { input_tokens: 10, output_tokens: 2, service_tier: 'standard' };
    const result = (text: string, total: number, fields: object = {}) =>
      line({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: text,
        usage,
        total_cost_usd: total,
        ...fields,
      });
    const changes = fold(
      events(
        ['SessionStart', { source: 'startup' }],
        line({ type: 'system', subtype: 'init' }),
        prompt('one'),
        stop('answer one'),
        result('answer one', 0.1),
        prompt('two'),
        stop('answer two'),
        result('answer two', 0.25),
        prompt('three'),
        pre('a', 'Bash', { command: 'sleep 60' }),
        result('', 0.3, { subtype: 'error_during_execution', is_error: true }),
        ['HubTurnEnded', { reason: 'interrupted', error: null }],
        prompt('four'),
        result('', 0.5, { subtype: 'error_max_turns', is_error: true, errors: ['too many turns'] }),
        ['SessionStart', { source: 'resume' }],
        prompt('five'),
        stop('answer five'),
        ['HubTurnEnded', { reason: 'stopped', error: null }],
        prompt('six'),
        result('answer six', 0.02),
      ),
    );
    const completed = changes.flatMap((change) => (change.completed ? [change.completed] : []));
    expect(
      completed.map((t) => [t.prompt, t.status, t.answer, t.error, t.costUsd, t.completedSeq]),
    ).toEqual([
      ['one', 'COMPLETED', 'answer one', null, 0.1, 5],
      ['two', 'COMPLETED', 'answer two', null, 0.15, 8],
      ['three', 'FAILED', null, "claude's result: error_during_execution", 0.05, 11],
      ['four', 'FAILED', null, "claude's result: too many turns", 0.2, 14],
      ['five', 'COMPLETED', 'answer five', null, null, 18],
      ['six', 'COMPLETED', 'answer six', null, 0.02, 20],
    ]);
    expect(completed[0]!.usage).toEqual({
      input_tokens: 10,
      output_tokens: 2,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    expect(completed[2]!.actions[0]).toMatchObject({ ok: false, seq: 11 });

    const interrupted = foldTurns(
      sessionId,
      events(
        prompt('one'),
        pre('a', 'Bash', { command: 'sleep 60' }),
        line(
          { type: 'result', subtype: 'error_during_execution', is_error: true },
          { interrupted: true },
        ),
        ['HubTurnEnded', { reason: 'interrupted', error: null }],
      ),
    );
    expect(interrupted.map((t) => [t.status, t.error])).toEqual([
      ['INTERRUPTED', 'interrupted through the API'],
    ]);
  });

  it('replays the same actions from any seq, and completed turns after a time', async () => {
    const list = events(
      prompt('a'),
      pre('1', 'Bash', { command: 'x' }),
      post('1', 'Bash', {}, {}),
      stop('A'),
      prompt('b'),
      pre('2', 'Bash', { command: 'y' }),
      post('2', 'Bash', {}, {}),
      stop('B'),
    );
    const stream = (_id: string, after: number | null) =>
      (async function* () {
        yield* list.filter((event) => event.seq > (after ?? 0));
      })();
    const collect = async <T>(items: AsyncIterable<T>) => {
      const out: T[] = [];
      for await (const item of items) out.push(item);
      return out;
    };
    const all = await collect(sessionActions(stream, sessionId, 0));
    expect(all.map((a) => a.seq)).toEqual([2, 3, 6, 7]);
    const later = await collect(sessionActions(stream, sessionId, 3));
    expect(later).toEqual(all.slice(2));
    const turns = await collect(completedTurns(stream, sessionId, 4_000));
    expect(turns.map((t) => t.answer)).toEqual(['B']);
  });

  it('gives each phase its detail but keeps none of a completed action, folding for a stream of phases', () => {
    const output = 'x'.repeat(1000);
    const list = events(
      prompt('a'),
      pre('1', 'Bash', { command: 'cat a' }),
      pre('2', 'Bash', { command: 'cat b' }),
      post('1', 'Bash', { command: 'cat a' }, { stdout: output }),
      post('3', 'Read', { file_path: '/c' }, { file: 'c' }),
      ['PermissionDenied', { tool_use_id: '2', reason: 'no' }],
    );
    const run = new RunFold(sessionId, { details: 'phases' });
    const phases = list.flatMap((event) => run.apply(event).actions);
    // The same phases, detail and all, as a fold that keeps every detail.
    const all = new RunFold(sessionId);
    expect(phases).toEqual(list.flatMap((event) => all.apply(event).actions));
    expect(phases.find((a) => a.id === '1' && a.phase === 'COMPLETED')?.detail).toEqual({
      input: { command: 'cat a' },
      response: { stdout: output },
    });
    expect(run.current!.actions.map((a) => [a.id, a.phase, a.detail])).toEqual([
      ['1', 'COMPLETED', null],
      ['2', 'COMPLETED', null],
      ['3', 'COMPLETED', null],
      [`${sessionId}:6:warning`, 'COMPLETED', null],
    ]);
    // An open call keeps its input until it completes.
    const open = new RunFold(sessionId, { details: 'phases' });
    for (const event of list.slice(0, 3)) open.apply(event);
    expect(open.current!.actions.map((a) => a.detail)).toEqual([
      { input: { command: 'cat a' } },
      { input: { command: 'cat b' } },
    ]);
  });
});

/** A log held in an array: what `TurnIndex` reads, and how many events it read. */
