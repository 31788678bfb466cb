import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { describeTool } from '../../src/runs/action.js';
import { RunFold, runEventNames, type Turn } from '../../src/runs/run-fold.js';
import { completedTurns, everyCompletedTurn, sessionActions } from '../../src/runs/run-reader.js';
import { SubscriberQueue } from '../../src/events/subscriber-queue.js';
import { TurnIndex } from '../../src/runs/turn-index.js';
import { sumUsage } from '../../src/runs/turn-usage.js';

const sessionId = 's1';

/** Events as the log gives them: seq from 1, a second apart. */
function events(...list: [string, Record<string, unknown>?][]): StoredEvent[] {
  return list.map(([name, fields = {}], i) => {
    const payload = {
      session_id: 'claude-1',
      hook_event_name: name,
      transcript_path: '/t.jsonl',
      ...fields,
    };
    return {
      sessionId,
      seq: i + 1,
      eventName: name,
      receivedAt: 1_000 * (i + 1),
      raw: JSON.stringify(payload),
      payload,
    };
  });
}

type Step = [string, Record<string, unknown>?];
const prompt = (text: string): Step => ['UserPromptSubmit', { prompt: text }];
const pre = (id: string, tool: string, input: object) =>
  ['PreToolUse', { tool_use_id: id, tool_name: tool, tool_input: input }] as Step;
const post = (id: string, tool: string, input: object, response: unknown) =>
  [
    'PostToolUse',
    {
      tool_use_id: id,
      tool_name: tool,
      tool_input: input,
      tool_response: response,
      duration_ms: 7,
    },
  ] as Step;
const stop = (answer: string) => ['Stop', { last_assistant_message: answer }] as Step;

/** The session's turns, oldest first (the running one last), every action with its detail. */
function foldTurns(id: string, list: Iterable<StoredEvent>): Turn[] {
  const run = new RunFold(id);
  const turns: Turn[] = [];
  for (const event of list) {
    const { completed } = run.apply(event);
    if (completed) turns.push(completed);
  }
  return run.current ? [...turns, run.current] : turns;
}

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
function arrayLog(list: StoredEvent[]) {
  const log = {
    list,
    eventsRead: 0,
    read: async (
      _id: string,
      options: { after?: number; limit?: number; names?: readonly string[] },
    ) => {
      const found = log.list
        .filter((event) => event.seq > (options.after ?? 0))
        .filter((event) => !options.names || options.names.includes(event.eventName))
        .slice(0, options.limit ?? Infinity);
      log.eventsRead += found.length;
      return found;
    },
  };
  return log;
}

/** A turn as the index keeps it: its actions without detail. */
const withoutDetail = (turn: Turn): Turn => ({
  ...turn,
  actions: turn.actions.map((action) => ({ ...action, detail: null })),
});

describe('the turn index', () => {
  // A session whose last call completes later (the last event), and how it is before that.
  const grown = events(
    prompt('a'),
    pre('1', 'Bash', { command: 'x' }),
    post('1', 'Bash', { command: 'x' }, { stdout: 'out-1' }),
    ['Notification', { message: 'not a run event' }],
    stop('A'),
    prompt('b'),
    pre('2', 'Write', { file_path: '/f', content: 'c' }),
    post('2', 'Write', { file_path: '/f', content: 'c' }, { type: 'create' }),
    pre('3', 'Bash', { command: 'y' }),
    post('3', 'Bash', { command: 'y' }, { stdout: 'late' }),
  );
  const session = grown.slice(0, -1);

  it('folds a session once, then only the events stored since, to what a fresh fold gives', async () => {
    const log = arrayLog(session.slice(0, 5));
    const index = new TurnIndex(log.read);
    expect(await index.turns(sessionId)).toEqual(foldTurns(sessionId, log.list).map(withoutDetail));
    const runEvents = log.eventsRead;
    log.list = session;
    const turns = await index.turns(sessionId);
    expect(turns).toEqual(foldTurns(sessionId, session).map(withoutDetail));
    expect(turns.map((t) => [t.number, t.status])).toEqual([
      [1, 'COMPLETED'],
      [2, 'RUNNING'],
    ]);
    // The first read took the oldest event and the run events; the second only the new ones.
    expect(runEvents).toBe(1 + 4);
    expect(log.eventsRead - runEvents).toBe(1 + 4);
  });

  it("gives back an action's detail as of the phase it was read in", async () => {
    const log = arrayLog(session);
    const index = new TurnIndex(log.read);
    const [first, second] = await index.turns(sessionId);
    const full = foldTurns(sessionId, session);
    expect(await index.detail(first!.actions[0]!)).toEqual(full[0]!.actions[0]!.detail);
    expect(await index.detail(second!.actions[1]!)).toEqual({ input: { command: 'y' } });
    expect(await index.detail(second!.actions[0]!)).toMatchObject({
      changes: [{ path: '/f', kind: 'add' }],
    });
    // The open call completes after it was read: its detail is still the STARTED one's.
    log.list = [
      ...session,
      ...events(
        ...session.map((): Step => ['Notification']),
        post('3', 'Bash', {}, { stdout: 'late' }),
      ).slice(-1),
    ];
    expect(await index.detail(second!.actions[1]!)).toEqual({ input: { command: 'y' } });
    const [, now] = await index.turns(sessionId);
    expect(await index.detail(now!.actions[1]!)).toMatchObject({ response: { stdout: 'late' } });
  });

  it('folds again from the oldest kept event when retention dropped the first ones', async () => {
    const log = arrayLog(session);
    const index = new TurnIndex(log.read);
    expect((await index.turns(sessionId)).map((t) => t.prompt)).toEqual(['a', 'b']);
    log.list = session.slice(5);
    const turns = await index.turns(sessionId);
    expect(turns.map((t) => [t.number, t.prompt])).toEqual([[1, 'b']]);
    expect(turns).toEqual(foldTurns(sessionId, log.list).map(withoutDetail));
  });

  it('drops the least recently read sessions past its bound, and folds them again when asked', async () => {
    const log = arrayLog(session);
    const index = new TurnIndex(log.read, { maxActions: 4 });
    await index.turns('one');
    await index.turns('two');
    const before = log.eventsRead;
    await index.turns('two');
    expect(log.eventsRead - before).toBe(1); // kept: only the oldest event, to check it
    await index.turns('one');
    expect(log.eventsRead - before - 1).toBe(1 + runEventCount(session));
  });
});

function runEventCount(list: StoredEvent[]): number {
  return list.filter((event) => (runEventNames as readonly string[]).includes(event.eventName))
    .length;
}

describe('the turns of every session', () => {
  const twoTurns = events(prompt('a'), stop('A'), prompt('b'), stop('B'));
  const source = (updates: SubscriberQueue<{ id: string }>) => ({
    sessionEvents: () =>
      (async function* () {
        yield* twoTurns;
      })(),
    list: () => [{ id: 'one' }],
    sessionUpdates: () => updates,
  });

  it('merges the sessions there are and those created later', async () => {
    const updates = new SubscriberQueue<{ id: string }>(10, () => new Error('overflow'));
    const turns = everyCompletedTurn(source(updates), 0);
    const take = async () => (await turns.next()).value!;
    expect([(await take()).id, (await take()).id]).toEqual(['one:1', 'one:3']);
    updates.push({ id: 'two' });
    updates.push({ id: 'one' }); // an update of a session it watches already
    expect([(await take()).id, (await take()).id]).toEqual(['two:1', 'two:3']);
    await turns.return!();
    expect(await turns.next()).toEqual({ value: undefined, done: true });
  });

  it('drops a subscriber that falls `limit` turns behind', async () => {
    const updates = new SubscriberQueue<{ id: string }>(10, () => new Error('overflow'));
    const turns = everyCompletedTurn(source(updates), 0, 1);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(turns.next()).rejects.toMatchObject({
      extensions: { code: 'SUBSCRIBER_TOO_SLOW' },
      message: 'subscriber fell more than 1 turns behind; subscribe again with after',
    });
  });
});

describe('turn usage from a transcript', () => {
  const entry = (at: number, id: string, usage: object, type = 'assistant') =>
    JSON.stringify({ type, timestamp: new Date(at).toISOString(), message: { id, usage } });

  it('sums each message once, within the turn', () => {
    const usage = { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 1 };
    const jsonl = [
      JSON.stringify({
        type: 'assistant',
        timestamp: new Date(1_900).toISOString(),
        message: { id: 'm1', usage, content: [{ type: 'text', text: 'the answer' }] },
      }),
      entry(500, 'm0', usage),
      entry(1_500, 'm1', usage),
      entry(1_600, 'm1', usage),
      entry(1_700, 'm2', { input_tokens: 5, output_tokens: 3, cache_creation_input_tokens: 4 }),
      entry(1_800, 'u', usage, 'user'),
      '{"broken',
      entry(2_500, 'm3', usage),
    ].join('\n');
    expect(sumUsage(jsonl, 1_000, 2_000, 'the answer')).toEqual({
      usage: {
        input_tokens: 15,
        output_tokens: 5,
        cache_read_input_tokens: 1,
        cache_creation_input_tokens: 4,
      },
      hasText: true,
    });
    expect(sumUsage(jsonl, 1_000, 1_800, 'the answer').hasText).toBe(false);
    expect(sumUsage(jsonl, 3_000, 4_000)).toEqual({ usage: null, hasText: false });
  });
});
