import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-log.js';
import type { CreateInput, Hub } from '../../src/hub/hub.js';
import { Orchestrator } from '../../src/hub/orchestrator.js';
import type { AskOutcome } from '../../src/sessions/ask.js';
import type { Orchestration, SessionRecord, SessionStatus } from '../../src/sessions/session.js';
import { message, session } from '../helpers/records.js';

/** The part of a Hub the orchestration tools use, in memory. */
function fakeHub(records: SessionRecord[], askOutcome?: AskOutcome) {
  const created: CreateInput[] = [];
  const hub = {
    list: () => records,
    get: (id: string) => records.find((record) => record.id === id),
    statusOf: (record: SessionRecord) => record.status,
    nodeOf: () => null,
    messages: () => [],
    pendingPermissions: () => [],
    async create(input: CreateInput) {
      created.push(input);
      const child = { ...session(`child-${created.length}`, 'IDLE', 0), ...input } as SessionRecord;
      records.push(child);
      return child;
    },
    ask: async () => askOutcome!,
  } as unknown as Hub;
  return { hub, created };
}

function orchestrating(id: string, grant: Orchestration, fields: Partial<SessionRecord> = {}) {
  return { ...session(id, 'BUSY', 0), orchestration: grant, ...fields } as SessionRecord;
}

function setUp(
  records: SessionRecord[],
  limits = { maxChildren: 2, maxDepth: 2 },
  ask?: AskOutcome,
) {
  const { hub, created } = fakeHub(records, ask);
  const audit: AuditRecord[] = [];
  const tools = new Orchestrator({
    hub: () => hub,
    audit: { record: (e) => audit.push(e) },
    limits,
  });
  return { tools, created, audit };
}

describe('the orchestration tools', () => {
  it('are offered only to a session started with orchestrate', () => {
    const { tools } = setUp([
      orchestrating('boss', { reach: 'CHILDREN', depth: 0 }),
      session('plain', 'IDLE', 0),
    ]);
    expect(tools.offered('boss')).toBe(true);
    expect(tools.offered('plain')).toBe(false);
    expect(tools.offered('nobody')).toBe(false);
  });

  it("start a child with the parent's mode, model, runtime, token and labels, up to --max-children live ones", async () => {
    const boss = orchestrating(
      'boss',
      { reach: 'CHILDREN', depth: 0 },
      { permissionMode: 'plan', model: 'opus', labels: ['team'], createdBy: 'ci' },
    );
    const { tools, created, audit } = setUp([boss]);
    await tools.start('boss', { cwd: '/w/1', labels: ['x'], orchestrate: true });
    expect(created[0]).toMatchObject({
      cwd: '/w/1',
      permissionMode: 'plan',
      model: 'opus',
      runtime: boss.runtime,
      createdBy: 'ci',
      parentId: 'boss',
      labels: ['team', 'x', 'parent:boss'],
      orchestration: { reach: 'CHILDREN', depth: 1 },
    });
    await tools.start('boss', { cwd: '/w/2' });
    expect(created[1]?.orchestration).toBeNull();
    await expect(tools.start('boss', { cwd: '/w/3' })).rejects.toMatchObject({
      code: 'CHILD_LIMIT',
    });
    expect(audit.map((e) => [e.actor, e.action, e.sessionId, e.outcome])).toEqual([
      ['session:boss', 'start_session', 'child-1', 'ok'],
      ['session:boss', 'start_session', 'child-2', 'ok'],
      ['session:boss', 'start_session', null, 'CHILD_LIMIT'],
    ]);
  });

  it('count only running children against the limit, and refuse a start below the depth limit', async () => {
    const boss = orchestrating('boss', { reach: 'CHILDREN', depth: 0 });
    const gone = { ...session('gone', 'STOPPED', 0), parentId: 'boss' } as SessionRecord;
    const deep = orchestrating('deep', { reach: 'CHILDREN', depth: 2 });
    const { tools } = setUp([boss, gone, deep], { maxChildren: 1, maxDepth: 2 });
    await expect(tools.start('boss', { cwd: '/w' })).resolves.toContain('"parent":"boss"');
    await expect(tools.start('deep', { cwd: '/w' })).rejects.toMatchObject({ code: 'DEPTH_LIMIT' });
  });

  it('reach the children only, or every session but itself with reach ALL', async () => {
    const boss = orchestrating('boss', { reach: 'CHILDREN', depth: 0 });
    const mine = { ...session('mine', 'IDLE', 0), parentId: 'boss' } as SessionRecord;
    const other = session('other', 'IDLE', 0);
    const admin = orchestrating('admin', { reach: 'ALL', depth: 0 });
    const { tools } = setUp([boss, mine, other, admin]);
    const listed = async (caller: string) =>
      JSON.parse(await tools.list(caller, {})).sessions.map((s: { id: string }) => s.id);
    expect(await listed('boss')).toEqual(['mine']);
    expect(await listed('admin')).toEqual(['boss', 'mine', 'other']);
    await expect(tools.status('boss', 'other')).rejects.toMatchObject({ code: 'OUT_OF_REACH' });
    await expect(tools.status('boss', 'boss')).rejects.toThrow('a session cannot act on itself');
    await expect(tools.status('boss', 'missing')).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    expect(JSON.parse(await tools.status('admin', 'other'))).toMatchObject({ id: 'other' });
    await expect(tools.list('other', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('list a page at a time, oldest first, filtered by label and status, going on where the last page ended', async () => {
    const boss = orchestrating('boss', { reach: 'CHILDREN', depth: 0 });
    const child = (n: number, status: SessionStatus, fields: Partial<SessionRecord> = {}) =>
      ({
        ...session(`c${n}`, status, 1_000 + n),
        parentId: 'boss',
        labels: n % 2 ? ['odd'] : [],
        ...fields,
      }) as SessionRecord;
    const records = [boss, child(3, 'IDLE'), child(1, 'BUSY'), child(2, 'IDLE'), child(4, 'IDLE')];
    const { tools } = setUp(records);
    const page = async (args: Parameters<typeof tools.list>[1]) =>
      JSON.parse(await tools.list('boss', args)) as {
        sessions: { id: string; lastAnswer: string | null }[];
        total: number;
        next: string | null;
      };
    const ids = (p: { sessions: { id: string }[] }) => p.sessions.map((s) => s.id);

    const first = await page({ limit: 2 });
    expect([ids(first), first.total]).toEqual([['c1', 'c2'], 4]);
    // A session that went away, and one that came, between pages: the next page goes on after c2.
    records.splice(records.indexOf(records.find((r) => r.id === 'c2')!), 1);
    records.push(child(5, 'BUSY'));
    const second = await page({ limit: 2, after: first.next! });
    expect([ids(second), second.total]).toEqual([['c3', 'c4'], 4]);
    const last = await page({ limit: 2, after: second.next! });
    expect([ids(last), last.next]).toEqual([['c5'], null]);

    expect(ids(await page({ label: 'odd' }))).toEqual(['c1', 'c3', 'c5']);
    expect(ids(await page({ status: 'idle' }))).toEqual(['c3', 'c4']);
    expect(ids(await page({ status: 'BUSY', label: 'odd' }))).toEqual(['c1', 'c5']);
    await expect(page({ status: 'asleep' })).rejects.toThrow(
      /no status is called "asleep".*: one of STARTING, IDLE, BUSY/,
    );
    await expect(page({ after: 'c2' })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });

    records.push(child(6, 'IDLE', { lastAssistantMessage: 'x'.repeat(1_000) }));
    const [long] = (await page({ after: '5.c5' })).sessions;
    expect(long!.lastAnswer).toBe(`${'x'.repeat(300)}…`);
    expect(JSON.parse(await tools.status('boss', 'c6')).lastAnswer).toHaveLength(1_000);
  });

  it('says an ask that ran out of time is still on its way', async () => {
    const boss = orchestrating('boss', { reach: 'CHILDREN', depth: 0 });
    const mine = { ...session('mine', 'BUSY', 0), parentId: 'boss' } as SessionRecord;
    const queued = message('m1', 'mine', 0, 'QUEUED');
    const { tools, audit } = setUp([boss, mine], undefined, {
      kind: 'timeout',
      message: queued,
      waitedMs: 5000,
    });
    await expect(tools.ask('boss', 'mine', 'hi', 5)).rejects.toThrow(
      'no answer within 5 s; the message is queued and goes on',
    );
    expect(audit.at(-1)).toMatchObject({
      action: 'ask_session',
      sessionId: 'mine',
      outcome: 'ASK_TIMEOUT',
    });
  });
});
