import { describe, expect, it } from 'vitest';
import { sinceOption } from '../../src/cli/rule-dry-run.js';
import { HubError } from '../../src/errors.js';
import type { ReadOptions } from '../../src/events/event-log.js';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { replayCallHistory, type DryRunBounds } from '../../src/hub/call-history.js';
import type { PermissionRecord } from '../../src/permissions/permission-request.js';
import {
  PolicyReplay,
  proposedRules,
  thenDecision,
  tieRequests,
  type DryRunExample,
  type PastCall,
} from '../../src/permissions/policy-dry-run.js';
import type { RuleInput } from '../../src/permissions/rule.js';
import type { RuleSession } from '../../src/permissions/rule-match.js';
import type { SessionRecord } from '../../src/sessions/session.js';

const session: RuleSession = {
  cwd: '/work/repo',
  labels: ['ci'],
  runtime: 'TMUX',
  origin: 'MANAGED',
  createdBy: 'bot',
};

/** A Bash call of session `s1` at seq `seq`, received at `seq` seconds. */
const bash = (seq: number, command: string, toolUseId: string | null = null): PastCall => ({
  sessionId: 's1',
  seq,
  at: seq * 1000,
  toolName: 'Bash',
  toolInput: { command },
  toolUseId,
});

let requests = 0;
/** A permission request of session `s1` for `call`'s tool and input, at `eventSeq`. */
function request(
  call: PastCall,
  eventSeq: number,
  decided: Pick<PermissionRecord, 'status' | 'decidedBy'>,
  toolUseId: string | null = null,
): PermissionRecord {
  return {
    id: `p${++requests}`,
    sessionId: call.sessionId,
    eventSeq,
    toolUseId,
    toolName: call.toolName,
    toolInput: call.toolInput,
    suggestions: null,
    requestedAt: eventSeq * 1000,
    decidedAt: eventSeq * 1000,
    message: null,
    explanation: null,
    ...decided,
  };
}

const byPerson = { status: 'ALLOWED', decidedBy: 'token approve-bot' } as const;
const deniedByRule = { status: 'DENIED', decidedBy: 'rule no-rm' } as const;

const rules = (...inputs: RuleInput[]) => proposedRules(inputs);

/** What a replay of `calls` (with `records`) under `inputs` gives. */
function replay(
  inputs: RuleInput[],
  calls: PastCall[],
  records: PermissionRecord[] = [],
  exampleLimit?: number,
) {
  const run = new PolicyReplay(rules(...inputs), exampleLimit);
  run.replaySession(session, calls, records);
  return run.result({ sessions: 1, truncated: false });
}

const brief = (examples: readonly DryRunExample[]) =>
  examples.map(({ seq, then, now, rule }) => `${seq} ${then}->${now} ${rule ?? '-'}`);

describe('proposed rules', () => {
  const refusal = (inputs: unknown[]) => {
    try {
      proposedRules(inputs as RuleInput[]);
    } catch (error) {
      expect(error).toBeInstanceOf(HubError);
      const { message, extensions } = error as HubError;
      return { message, ...extensions };
    }
    throw new Error('accepted');
  };

  it('are checked as the API checks a rule, a bad one named by its index and field', () => {
    expect(
      refusal([
        { name: 'fine', decision: 'ALLOW' },
        { name: 'bad', decision: 'DENY', match: { tools: ['Bash'], cwdUnder: ['relative'] } },
      ]),
    ).toEqual({
      message: 'invalid rule rules[1]: match.cwdUnder[0]: must be absolute',
      field: 'rules[1].match.cwdUnder[0]',
      index: 1,
      code: 'BAD_USER_INPUT',
    });
    expect(refusal([{ name: 'x', decision: 'MAYBE' }])).toMatchObject({
      field: 'rules[0].decision',
      code: 'BAD_USER_INPUT',
    });
    expect(
      refusal([
        { name: 'same', decision: 'ALLOW' },
        { name: 'same', decision: 'DENY' },
      ]),
    ).toEqual({
      message: 'invalid rule rules[1]: name: "same" is taken by rules[0]',
      field: 'rules[1].name',
      index: 1,
      code: 'BAD_USER_INPUT',
    });
    expect(
      refusal(Array.from({ length: 501 }, (_, i) => ({ name: `r${i}`, decision: 'ASK' }))),
    ).toMatchObject({ field: 'rules', message: 'a dry run tries at most 500 rules, got 501' });
  });

  it('are tried as the rule book orders them, ties in the order given', () => {
    const run = (inputs: RuleInput[]) => replay(inputs, [bash(1, 'git status')]).examples[0]!.rule;
    const second: RuleInput = { name: 'second', decision: 'ALLOW', match: { tools: ['Bash'] } };
    const first: RuleInput = { name: 'first', decision: 'ALLOW' };
    expect(run([first, second])).toBe('first');
    expect(run([second, first])).toBe('second');
    // At equal priority DENY comes before ALLOW whatever the order; a higher priority first.
    expect(run([first, { name: 'deny', decision: 'DENY' }])).toBe('deny');
    expect(
      run([
        { name: 'deny', decision: 'DENY' },
        { ...first, priority: 1 },
      ]),
    ).toBe('first');
    // A disabled rule is not tried.
    expect(run([{ ...first, enabled: false }, second])).toBe('second');
  });
});

describe('what happened to a call', () => {
  const call = bash(1, 'ls');
  it('is the rule that decided it, ASK when a person was asked, ALLOW when nobody was', () => {
    expect(thenDecision(null)).toBe('ALLOW');
    expect(thenDecision(request(call, 1, { status: 'ALLOWED', decidedBy: 'rule ok' }))).toBe(
      'ALLOW',
    );
    expect(thenDecision(request(call, 1, deniedByRule))).toBe('DENY');
    for (const decided of [
      byPerson,
      { status: 'DENIED', decidedBy: 'token approve-bot' },
      { status: 'ANSWERED_IN_TERMINAL', decidedBy: 'terminal' },
      { status: 'EXPIRED', decidedBy: 'expiry' },
      { status: 'EXPIRED', decidedBy: null },
      { status: 'PENDING', decidedBy: null },
    ] as const) {
      expect(thenDecision(request(call, 2, decided))).toBe('ASK');
    }
  });

  it("is told by the request with the call's tool_use_id, or the first one after the call before the same call again", () => {
    const calls = [
      bash(1, 'rm -rf build', 'toolu_1'),
      bash(3, 'npm test'),
      bash(5, 'npm test'),
      bash(7, 'npm test'),
      bash(9, 'ls'),
      bash(11, 'npm test'),
    ];
    const ruled = request(calls[0]!, 1, deniedByRule, 'toolu_1');
    // Asked at seq 6, after the call at 5 (the call at 3 was not asked about).
    const asked = request(calls[2]!, 6, byPerson);
    // A second request for the same call (claude asked again) ties to nothing.
    const again = request(calls[2]!, 6.5, byPerson);
    // Asked at 8 for a different command: not the `npm test` at 7's.
    const other = request(bash(0, 'npm run lint'), 8, byPerson);
    // Before the call at 11, after the `ls` at 9: ties to the ls only if its input matches.
    const forLs = request(calls[4]!, 10, byPerson);
    expect(tieRequests(calls, [other, forLs, again, asked, ruled])).toEqual([
      ruled,
      null,
      asked,
      null,
      forLs,
      null,
    ]);
    // A request whose tool_use_id no call has is nobody's.
    expect(tieRequests([bash(1, 'ls')], [request(bash(1, 'ls'), 2, byPerson, 'toolu_x')])).toEqual([
      null,
    ]);
  });
});

describe('a replay', () => {
  it('counts what the proposed rules decide, and what changed', () => {
    const calls = [
      bash(1, 'rm -rf build', 'toolu_1'),
      bash(2, 'git status'),
      bash(3, 'git push origin main'),
      bash(5, 'curl example.com'),
      { ...bash(7, ''), toolName: 'Read', toolInput: { file_path: 'README.md' } },
    ];
    const records = [
      request(calls[0]!, 1, deniedByRule, 'toolu_1'),
      request(calls[2]!, 4, byPerson),
      request(calls[3]!, 6, { status: 'EXPIRED', decidedBy: 'expiry' }),
    ];
    const result = replay(
      [
        {
          name: 'git',
          decision: 'ALLOW',
          match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'git *' }] },
        },
        {
          name: 'push',
          decision: 'ASK',
          priority: 1,
          match: { input: [{ path: 'command', pattern: 'git push*' }] },
        },
        { name: 'stop', on: 'STOP', decision: 'DENY', message: 'run the tests' },
      ],
      calls,
      records,
    );
    // rm: no proposed rule, a request then -> ASK (was DENY); git status -> ALLOW (as then);
    // git push -> ASK (as then); curl: no rule, asked then -> ASK; Read: no rule, no request ->
    // ALLOW. The STOP rule decides no call.
    expect(result).toMatchObject({
      calls: 5,
      sessions: 1,
      allowed: 2,
      denied: 0,
      asked: 3,
      changed: 1,
      truncated: false,
    });
    // The changed call, and the newest ALLOW; the changed one is ASK's.
    expect(brief(result.examples)).toEqual(['1 DENY->ASK -', '7 ALLOW->ALLOW -']);
    expect(result.examples[0]).toEqual({
      sessionId: 's1',
      seq: 1,
      at: 1000,
      toolName: 'Bash',
      toolInput: { command: 'rm -rf build' },
      then: 'DENY',
      now: 'ASK',
      thenDecidedBy: 'rule no-rm',
      rule: null,
      explanation: null,
    });
    const push = replay(
      [
        {
          name: 'push',
          decision: 'DENY',
          match: { input: [{ path: 'command', pattern: 'git push*' }] },
        },
      ],
      calls.slice(2, 3),
      records,
    ).examples[0];
    expect(push).toMatchObject({
      then: 'ASK',
      now: 'DENY',
      thenDecidedBy: 'token approve-bot',
      rule: 'push',
      explanation: 'command "git push origin main" matched "git push*"',
    });
  });

  it("reads the session's context as a live call would", () => {
    const labelled: RuleInput = { name: 'ci', decision: 'DENY', match: { labels: ['ci'] } };
    const run = new PolicyReplay(rules(labelled));
    run.replaySession(session, [bash(1, 'ls')], []);
    run.replaySession({ ...session, labels: [] }, [{ ...bash(1, 'ls'), sessionId: 's2' }], []);
    expect(run.result({ sessions: 2, truncated: true })).toMatchObject({
      calls: 2,
      sessions: 2,
      allowed: 1,
      denied: 1,
      changed: 1,
      truncated: true,
    });
  });

  it('shows the newest changed calls first, then one of each other decision', () => {
    const calls = Array.from({ length: 10 }, (_, i) => bash(i + 1, i % 2 ? 'rm x' : 'ls'));
    calls.push(bash(11, 'git log'));
    const inputs: RuleInput[] = [
      { name: 'no-rm', decision: 'DENY', match: { input: [{ path: 'command', pattern: 'rm *' }] } },
      { name: 'git', decision: 'ASK', match: { input: [{ path: 'command', pattern: 'git *' }] } },
    ];
    // Changed: the five rm (ALLOW -> DENY) and the git log (ALLOW -> ASK); the ls stay ALLOW.
    const all = replay(inputs, calls);
    expect(all).toMatchObject({ calls: 11, allowed: 5, denied: 5, asked: 1, changed: 6 });
    expect(brief(all.examples)).toEqual([
      '11 ALLOW->ASK git',
      '10 ALLOW->DENY no-rm',
      '8 ALLOW->DENY no-rm',
      '6 ALLOW->DENY no-rm',
      '4 ALLOW->DENY no-rm',
      '2 ALLOW->DENY no-rm',
      '9 ALLOW->ALLOW -',
    ]);
    // Three places: one for each decision, though newer changed calls are left out.
    expect(brief(replay(inputs, calls, [], 3).examples)).toEqual([
      '11 ALLOW->ASK git',
      '10 ALLOW->DENY no-rm',
      '9 ALLOW->ALLOW -',
    ]);
    expect(brief(replay(inputs, calls, [], 1).examples)).toEqual(['11 ALLOW->ASK git']);
    const none = replay([], []);
    expect(none).toMatchObject({ calls: 0, allowed: 0, denied: 0, asked: 0, changed: 0 });
    expect(none.examples).toEqual([]);
  });
});

/** A hub of sessions and stored events, enough for replayCallHistory. */
function historyHub(sessions: Partial<SessionRecord>[], events: StoredEvent[]) {
  const records = sessions.map(
    (fields) =>
      ({
        cwd: '/work/repo',
        labels: [],
        runtime: 'TMUX',
        origin: 'MANAGED',
        createdBy: null,
        createdAt: 0,
        lastEventAt: null,
        ...fields,
      }) as SessionRecord,
  );
  const reads: ReadOptions[] = [];
  return {
    reads,
    list: () => records,
    require: (id: string) => {
      const record = records.find((candidate) => candidate.id === id);
      if (!record) throw new Error(`no session ${id}`);
      return record;
    },
    permissionRequests: () => [] as PermissionRecord[],
    log: {
      read: async (sessionId: string, options: ReadOptions = {}) => {
        reads.push(options);
        return events
          .filter(
            (event) =>
              event.sessionId === sessionId &&
              event.seq > (options.after ?? 0) &&
              (!options.names || options.names.includes(event.eventName)),
          )
          .slice(0, options.limit);
      },
    },
  };
}

/** A stored event; a PreToolUse of `ls` unless told. */
const stored = (sessionId: string, seq: number, eventName = 'PreToolUse'): StoredEvent => {
  const payload = {
    session_id: sessionId,
    hook_event_name: eventName,
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  };
  return {
    sessionId,
    seq,
    eventName,
    receivedAt: seq * 1000,
    raw: JSON.stringify(payload),
    payload,
  };
};

describe('the stored history', () => {
  const deny: RuleInput[] = [{ name: 'deny', decision: 'DENY' }];
  const bounds: DryRunBounds = { maxCalls: 100, maxSessions: 10, pageSize: 2 };
  const events = [
    ...[1, 2, 3, 4, 5, 6].map((seq) => stored('a', seq, seq === 4 ? 'PostToolUse' : 'PreToolUse')),
    ...[1, 2].map((seq) => stored('b', seq)),
  ];
  const sessions = [
    { id: 'a', lastEventAt: 6000 },
    { id: 'b', lastEventAt: 2000 },
    { id: 'c', lastEventAt: null },
  ];

  it('is read in pages of PreToolUse events, of every session or one, since a time', async () => {
    const hub = historyHub(sessions, events);
    const all = await replayCallHistory(
      hub,
      proposedRules(deny),
      { since: null, sessionId: null },
      bounds,
    );
    expect(all).toMatchObject({ calls: 7, sessions: 3, denied: 7, truncated: false });
    expect(hub.reads.filter((read) => read.names?.join() !== 'PreToolUse')).toEqual([]);
    expect(hub.reads.map((read) => read.after)).toEqual([0, 2, 5, 0, 2, 0]);

    const since = await replayCallHistory(
      hub,
      proposedRules(deny),
      { since: 3000, sessionId: null },
      bounds,
    );
    // b's last event was before: it is not read.
    expect(since).toMatchObject({ calls: 3, sessions: 2, truncated: false });
    const one = await replayCallHistory(
      hub,
      proposedRules(deny),
      { since: null, sessionId: 'b' },
      bounds,
    );
    expect(one).toMatchObject({ calls: 2, sessions: 1 });
    expect(one.examples.map((example) => example.sessionId)).toEqual(['b', 'b']);
  });

  it('stops at its bounds and says so', async () => {
    const hub = historyHub(sessions, events);
    const run = (limits: Partial<DryRunBounds>) =>
      replayCallHistory(
        hub,
        proposedRules(deny),
        { since: null, sessionId: null },
        { ...bounds, ...limits },
      );
    // Newest first: a's 5 calls, then b's.
    expect(await run({ maxCalls: 6 })).toMatchObject({ calls: 6, sessions: 2, truncated: true });
    expect(await run({ maxCalls: 7 })).toMatchObject({ calls: 7, truncated: false });
    expect(await run({ maxCalls: 5 })).toMatchObject({ calls: 5, sessions: 2, truncated: true });
    expect(await run({ maxSessions: 1 })).toMatchObject({ calls: 5, sessions: 1, truncated: true });
  });
});

describe('rules dry-run --since', () => {
  const now = Date.parse('2026-02-10T12:00:00.000Z');
  it('takes an ISO 8601 time or an age', () => {
    expect(sinceOption(undefined, now)).toBeNull();
    expect(sinceOption('2026-01-31', now)).toBe('2026-01-31T00:00:00.000Z');
    expect(sinceOption('2026-01-31T12:30:00+01:00', now)).toBe('2026-01-31T11:30:00.000Z');
    expect(sinceOption('30m', now)).toBe('2026-02-10T11:30:00.000Z');
    expect(sinceOption('1h', now)).toBe('2026-02-10T11:00:00.000Z');
    expect(sinceOption('7d', now)).toBe('2026-02-03T12:00:00.000Z');
    expect(sinceOption('2w', now)).toBe('2026-01-27T12:00:00.000Z');
    for (const bad of ['yesterday', '1y', '-1h', '12', '2026-13-45'])
      expect(() => sinceOption(bad, now)).toThrow(`got ${JSON.stringify(bad)}`);
  });
});
