import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli-run.js';
import { hookSession, type HookSession } from '../helpers/hook-session.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';
import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';

const secrets = {
  admin: 'admin-secret-0123456789',
  read: 'read-secret-0123456789',
};
type Role = keyof typeof secrets;

const dryRun = `query($rules: [PermissionRuleInput!]!, $since: DateTime, $sessionId: ID) {
  policyDryRun(rules: $rules, since: $since, sessionId: $sessionId) {
    calls sessions allowed denied asked changed truncated
    examples { sessionId toolName toolInput at then now thenDecidedBy rule explanation }
  }
}`;

/** The rules proposed: allow rm, deny pushes, ask about npm; and a STOP rule, not replayed. */
const proposed = [
  { name: 'rm ok', decision: 'ALLOW', match: { input: [{ path: 'command', pattern: 'rm *' }] } },
  {
    name: 'no push',
    decision: 'DENY',
    message: 'pushing is for people',
    match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'git push*' }] },
  },
  { name: 'npm asks', decision: 'ASK', match: { input: [{ path: 'command', pattern: 'npm *' }] } },
  { name: 'tests first', on: 'STOP', decision: 'DENY', message: 'run the tests' },
];

describe('Query.policyDryRun and rules dry-run on a stored history', () => {
  disposeWithSuite();
  let hub: TestHub;
  let dir: string;
  /** ls; rm (denied by the rule no-rm); git push (asked, allowed by admin-bot). */
  let first: HookSession;
  /** curl; npm publish (asked, denied by admin-bot); all at or after `since`. */
  let second: HookSession;
  let since: string;
  /** When the hub received each call, by its command. */
  const at = new Map<string, string>();

  const gqlAs = async (role: Role, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets[role]}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: Record<string, any> | null;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    };
  };

  /** A Bash call's PreToolUse, answered at once (no rule holds it). */
  const call = async (session: HookSession, command: string, id: string) => {
    const status = await session.post('PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: id,
    });
    expect(status).toBe(200);
  };

  /** A Bash call's PermissionRequest, held until admin-bot decides it. */
  const asked = async (session: HookSession, command: string, behavior: 'ALLOW' | 'DENY') => {
    const held = session.post('PermissionRequest', {
      tool_name: 'Bash',
      tool_input: { command },
    });
    const pending = await vi.waitFor(
      async () => {
        const { data } = await gqlAs('admin', `{ permissionRequests(status: PENDING) { id } }`);
        expect(data!.permissionRequests).toHaveLength(1);
        return data!.permissionRequests[0].id as string;
      },
      { timeout: 10_000, interval: 20 },
    );
    const { data } = await gqlAs(
      'admin',
      `mutation($id: ID!, $behavior: PermissionBehavior!) { decidePermission(input: { requestId: $id, behavior: $behavior }) { error { code } } }`,
      { id: pending, behavior },
    );
    expect(data!.decidePermission.error).toBeNull();
    expect(await held).toBe(200);
  };

  /** The session's events, once it holds `resolved` HubPermissionResolved ones. */
  const settled = (session: HookSession, resolved: number) =>
    vi.waitFor(
      async () => {
        const { data } = await gqlAs(
          'admin',
          `query($id: ID!) { session(id: $id) { events(limit: 1000) { eventName receivedAt payload } } }`,
          { id: session.id },
        );
        const events = data!.session.events as {
          eventName: string;
          receivedAt: string;
          payload: { tool_input?: { command?: string } };
        }[];
        const names = events.map((event) => event.eventName);
        expect(names.filter((name) => name === 'HubPermissionResolved')).toHaveLength(resolved);
        for (const event of events)
          if (event.eventName === 'PreToolUse')
            at.set(event.payload.tool_input!.command!, event.receivedAt);
        return events;
      },
      { timeout: 10_000, interval: 20 },
    );

  beforeAll(async () => {
    dir = tempDir('cch-dry-run-');
    const tokensFile = writeTokensFile(dir, tokensByScope(secrets));
    hub = await startHub({
      env: { ...process.env, CLAUDE_CONFIG_DIR: tempDir('cch-claude-') },
      token: secrets.admin,
      args: ['--tokens-file', tokensFile],
    });
    const { data, errors } = await gqlAs(
      'admin',
      `mutation { createPermissionRule(input: { name: "no-rm", decision: DENY, match: { tools: ["Bash"], input: [{ path: "command", pattern: "rm *" }] } }) { id } }`,
    );
    expect(errors).toBeUndefined();
    expect(data!.createPermissionRule.id).toBeTruthy();

    first = await hookSession(hub, { cwd: dir });
    await call(first, 'ls', 'toolu_1');
    await call(first, 'rm -rf build', 'toolu_2');
    await call(first, 'git push origin main', 'toolu_3');
    await asked(first, 'git push origin main', 'ALLOW');
    const events = await settled(first, 2);
    const last = Date.parse(events.at(-1)!.receivedAt);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(last), { interval: 1 });
    since = new Date(last + 1).toISOString();

    second = await hookSession(hub, { cwd: dir });
    await call(second, 'curl example.com', 'toolu_4');
    await call(second, 'npm publish', 'toolu_5');
    await asked(second, 'npm publish', 'DENY');
    await settled(second, 1);
  });

  const example = (
    session: HookSession,
    command: string,
    then: string,
    now: string,
    thenDecidedBy: string | null,
    rule: string | null,
    explanation: string | null,
  ) => ({
    sessionId: session.id,
    toolName: 'Bash',
    toolInput: { command },
    at: at.get(command),
    then,
    now,
    thenDecidedBy,
    rule,
    explanation,
  });

  it('replays every session’s calls: what the proposed rules decide, and what changed', async () => {
    const { data, errors } = await gqlAs('read', dryRun, { rules: proposed });
    expect(errors).toBeUndefined();
    // ls and curl ran unasked and still would; rm, denied by no-rm, would run; the push a
    // person allowed would be denied; npm publish would still be asked about.
    expect(data!.policyDryRun).toEqual({
      calls: 5,
      sessions: 2,
      allowed: 3,
      denied: 1,
      asked: 1,
      changed: 2,
      truncated: false,
      examples: [
        example(
          first,
          'git push origin main',
          'ASK',
          'DENY',
          'token admin-bot',
          'no push',
          'tool Bash matched "Bash"; command "git push origin main" matched "git push*"',
        ),
        example(
          first,
          'rm -rf build',
          'DENY',
          'ALLOW',
          'rule no-rm',
          'rm ok',
          'command "rm -rf build" matched "rm *"',
        ),
        example(
          second,
          'npm publish',
          'ASK',
          'ASK',
          'token admin-bot',
          'npm asks',
          'command "npm publish" matched "npm *"',
        ),
      ],
    });

    // No proposed rule: what claude did without rules, so only the rule's denial changes.
    const none = await gqlAs('read', dryRun, { rules: [] });
    expect(none.data!.policyDryRun).toMatchObject({
      calls: 5,
      allowed: 2,
      denied: 0,
      asked: 3,
      changed: 1,
    });
    expect(none.data!.policyDryRun.examples).toEqual([
      example(first, 'rm -rf build', 'DENY', 'ASK', 'rule no-rm', null, null),
      example(second, 'curl example.com', 'ALLOW', 'ALLOW', null, null, null),
    ]);
  });

  it('narrows to the calls since a time, and to one session', async () => {
    const recent = await gqlAs('read', dryRun, { rules: proposed, since });
    expect(recent.data!.policyDryRun).toMatchObject({
      calls: 2,
      sessions: 1,
      allowed: 1,
      denied: 0,
      asked: 1,
      changed: 0,
      truncated: false,
    });
    expect(
      recent.data!.policyDryRun.examples.map((e: { toolInput: unknown }) => e.toolInput),
    ).toEqual([{ command: 'npm publish' }, { command: 'curl example.com' }]);

    const one = await gqlAs('read', dryRun, { rules: proposed, sessionId: first.id });
    expect(one.data!.policyDryRun).toMatchObject({
      calls: 3,
      sessions: 1,
      allowed: 2,
      denied: 1,
      asked: 0,
      changed: 2,
    });
    expect(one.data!.policyDryRun.examples.map((e: { sessionId: string }) => e.sessionId)).toEqual([
      first.id,
      first.id,
    ]);
    const both = await gqlAs('read', dryRun, { rules: proposed, sessionId: first.id, since });
    // The session's last event came before `since`: it is not read.
    expect(both.data!.policyDryRun).toMatchObject({ calls: 0, sessions: 0, examples: [] });

    const unknown = await gqlAs('read', dryRun, { rules: proposed, sessionId: 'nope' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('SESSION_NOT_FOUND');
  });

  it('refuses a bad proposed rule, naming its index and field', async () => {
    const { data, errors } = await gqlAs('read', dryRun, {
      rules: [proposed[0], { name: 'bad', decision: 'DENY', match: { cwdUnder: ['relative'] } }],
    });
    expect(data).toBeNull();
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'invalid rule rules[1]: match.cwdUnder[0]: must be absolute',
        extensions: { code: 'BAD_USER_INPUT', field: 'rules[1].match.cwdUnder[0]', index: 1 },
      }),
    ]);
  });

  const cli = (role: Role, ...argv: string[]) => runCli(hub.url, secrets[role], argv);

  it('rules dry-run prints the counts and the examples of a YAML or JSON file', async () => {
    const yamlFile = path.join(dir, 'proposed.yaml');
    writeFileSync(
      yamlFile,
      [
        'rules:',
        '  - name: rm ok',
        '    decision: ALLOW',
        '    match: { input: [{ path: command, pattern: "rm *" }] }',
        '  - name: no push',
        '    decision: DENY',
        '    message: pushing is for people',
        '    match:',
        '      tools: [Bash]',
        '      input: [{ path: command, pattern: "git push*" }]',
        '  - name: npm asks',
        '    decision: ASK',
        '    match: { input: [{ path: command, pattern: "npm *" }] }',
        '  - name: tests first',
        '    on: STOP',
        '    decision: DENY',
        '    message: run the tests',
        '',
      ].join('\n'),
    );
    const printed = await cli('read', 'rules', 'dry-run', yamlFile);
    expect(printed).toMatchObject({ code: 0, err: '' });
    const short = (session: HookSession) => session.id.slice(0, 8);
    const lines = printed.out.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '5 calls in 2 sessions: 3 allowed, 1 denied, 1 asked; 2 changed',
      '1 STOP rule is not replayed (only tool calls are)',
      '',
    ]);
    const table = lines.slice(3).map((line) => line.split(/ {2,}/));
    expect(table).toEqual([
      ['AT', 'SESSION', 'TOOL', 'INPUT', 'THEN', 'NOW', 'THEN BY', 'RULE'],
      [
        at.get('git push origin main')!,
        short(first),
        'Bash',
        '{"command":"git push origin main"}',
        'ASK',
        'DENY',
        'token admin-bot',
        'no push',
      ],
      [
        at.get('rm -rf build')!,
        short(first),
        'Bash',
        '{"command":"rm -rf build"}',
        'DENY',
        'ALLOW',
        'rule no-rm',
        'rm ok',
      ],
      [
        at.get('npm publish')!,
        short(second),
        'Bash',
        '{"command":"npm publish"}',
        'ASK',
        'ASK',
        'token admin-bot',
        'npm asks',
      ],
    ]);

    const jsonFile = path.join(dir, 'proposed.json');
    writeFileSync(jsonFile, JSON.stringify(proposed.slice(0, 1)));
    const json = await cli(
      'read',
      'rules',
      'dry-run',
      jsonFile,
      '--since',
      since,
      '--session',
      second.id,
      '--json',
    );
    expect(json).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(json.out)).toMatchObject({
      calls: 2,
      sessions: 1,
      allowed: 1,
      asked: 1,
      changed: 0,
      truncated: false,
    });
    const hourAgo = await cli('read', 'rules', 'dry-run', jsonFile, '--since', '1h');
    expect(hourAgo.out.split('\n')[0]).toBe(
      '5 calls in 2 sessions: 3 allowed, 0 denied, 2 asked; 1 changed',
    );
  });

  it('rules dry-run names the line of a bad rule, and a bad --since', async () => {
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      ['- name: fine', '  decision: ALLOW', '- name: bad', '  decision: MAYBE', ''].join('\n'),
    );
    const refused = await cli('read', 'rules', 'dry-run', bad);
    expect(refused).toEqual({
      code: 1,
      out: '',
      err: `claude-code-hub rules dry-run: ${bad}:4: rule "bad": decision: must be one of ALLOW, DENY, ASK`,
    });
    const since = await cli('read', 'rules', 'dry-run', bad, '--since', 'yesterday');
    expect(since.code).toBe(2);
    expect(since.err.split('\n')[0]).toBe(
      'claude-code-hub rules dry-run: --since must be an ISO 8601 time (2026-01-31T12:00:00Z) or an age such as 30m, 1h, 7d or 2w, got "yesterday"',
    );
  });
});
