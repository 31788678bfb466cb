import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hookSession, readHookToken, type HookSession } from '../helpers/hook-session.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';
import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';

const secrets = {
  admin: 'admin-secret-0123456789',
  control: 'control-secret-0123456789',
  approve: 'approve-secret-0123456789',
  read: 'read-secret-0123456789',
};

const ruleFields = `id name enabled priority on decision message source createdBy
  match { tools input { path pattern } cwdUnder labels runtime origin token }`;
const requestFields = 'id sessionId toolName status decidedBy explanation toolUseId message';

describe('permission rules through the API and at the hooks', () => {
  disposeWithSuite();
  let hub: TestHub;
  let repo: string;

  const as = (role: keyof typeof secrets, query: string, variables?: Record<string, unknown>) =>
    fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets[role]}` },
      body: JSON.stringify({ query, variables }),
    }).then((response) => response.json() as Promise<{ data?: any; errors?: any[] }>);

  const create = (input: Record<string, unknown>) =>
    hub
      .data(
        `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { ${ruleFields} } }`,
        { input },
      )
      .then((data) => data.createPermissionRule);

  /** Posts a hook event of `session` and reads the hook's answer. */
  const answerOf = async (session: HookSession, name: string, fields: Record<string, unknown>) => {
    const response = await fetch(`${hub.baseUrl}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${readHookToken(hub.dataDir)}`,
      },
      body: JSON.stringify({ session_id: session.id, hook_event_name: name, ...fields }),
    });
    expect(response.status).toBe(200);
    return response.json();
  };

  const requestsOf = async (sessionId: string) =>
    (
      (await hub.data(`{ permissionRequests { ${requestFields} } }`)).permissionRequests as {
        sessionId: string;
      }[]
    ).filter((request) => request.sessionId === sessionId);

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cch-rules-'));
    repo = path.join(dir, 'repo');
    const tokensFile = writeTokensFile(dir, tokensByScope(secrets));
    hub = await startHub({ token: secrets.admin, args: ['--tokens-file', tokensFile] });
  });

  it('creates, lists in the order tried, updates and deletes rules; only an admin token may', async () => {
    const watched = hub.subscribe(`subscription { permissionRules { name enabled } }`);
    expect((await watched.next()).permissionRules).toEqual([]);
    const low = await create({
      name: 'tests',
      decision: 'ALLOW',
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'npm test*' }] },
    });
    expect(low).toMatchObject({
      name: 'tests',
      enabled: true,
      priority: 0,
      on: 'TOOL_CALL',
      decision: 'ALLOW',
      message: null,
      source: 'API',
      createdBy: 'admin-bot',
      match: {
        tools: ['Bash'],
        input: [{ path: 'command', pattern: 'npm test*' }],
        cwdUnder: null,
        labels: null,
        runtime: null,
        origin: null,
        token: null,
      },
    });
    expect((await watched.next()).permissionRules).toEqual([{ name: 'tests', enabled: true }]);
    const high = await create({ name: 'careful', decision: 'ASK', priority: 10 });
    expect((await watched.next()).permissionRules).toEqual([
      { name: 'careful', enabled: true },
      { name: 'tests', enabled: true },
    ]);
    const { permissionRules } = await hub.data(`{ permissionRules { name } }`);
    expect(permissionRules.map((rule: { name: string }) => rule.name)).toEqual([
      'careful',
      'tests',
    ]);

    const updated = await hub.data(
      `mutation($id: ID!, $input: PermissionRuleInput!) { updatePermissionRule(id: $id, input: $input) { ${ruleFields} } }`,
      { id: high.id, input: { name: 'careful', decision: 'ASK', priority: 10, enabled: false } },
    );
    expect(updated.updatePermissionRule).toMatchObject({ id: high.id, enabled: false });
    expect((await watched.next()).permissionRules).toEqual([
      { name: 'tests', enabled: true },
      { name: 'careful', enabled: false },
    ]);
    expect((await hub.data(`{ permissionRules { name } }`)).permissionRules).toEqual([
      { name: 'tests' },
      { name: 'careful' },
    ]);

    for (const role of ['read', 'control', 'approve'] as const) {
      const made = await as(
        role,
        `mutation { createPermissionRule(input: { name: "sneaky", decision: ALLOW }) { id } }`,
      );
      expect(made.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const changed = await as(
        role,
        `mutation($id: ID!) { updatePermissionRule(id: $id, input: { name: "careful", decision: ALLOW }) { id } }`,
        { id: high.id },
      );
      expect(changed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const deleted = await as(role, `mutation($id: ID!) { deletePermissionRule(id: $id) }`, {
        id: low.id,
      });
      expect(deleted.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const listed = await as('read', `{ permissionRules { name decision enabled } }`);
    expect(listed.data.permissionRules).toEqual([
      { name: 'tests', decision: 'ALLOW', enabled: true },
      { name: 'careful', decision: 'ASK', enabled: false },
    ]);

    const { deletePermissionRule } = await hub.data(
      `mutation($id: ID!) { deletePermissionRule(id: $id) }`,
      { id: high.id },
    );
    expect(deletePermissionRule).toBe(true);
    const again = await hub.gql(`mutation($id: ID!) { deletePermissionRule(id: $id) }`, {
      id: high.id,
    });
    expect(again.errors?.[0]?.extensions?.code).toBe('RULE_NOT_FOUND');
    await hub.data(`mutation($id: ID!) { deletePermissionRule(id: $id) }`, { id: low.id });

    const { audit: auditLog } = await hub.data(`{ audit(last: 20) { actor action outcome } }`);
    expect(auditLog).toEqual(
      expect.arrayContaining([
        { actor: 'admin-bot', action: 'createPermissionRule', outcome: 'ok' },
        { actor: 'admin-bot', action: 'updatePermissionRule', outcome: 'ok' },
        { actor: 'admin-bot', action: 'deletePermissionRule', outcome: 'ok' },
        { actor: 'admin-bot', action: 'deletePermissionRule', outcome: 'RULE_NOT_FOUND' },
        { actor: 'read-bot', action: 'createPermissionRule', outcome: 'FORBIDDEN' },
      ]),
    );
  });

  it('refuses a bad rule naming the part, and keeps the rules as they were', async () => {
    const before = (await hub.data(`{ permissionRules { id } }`)).permissionRules;
    const bad = async (input: Record<string, unknown>) => {
      const result = await hub.gql(
        `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }`,
        { input },
      );
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      return result.errors![0]!;
    };
    expect(
      await bad({
        name: 'x',
        decision: 'DENY',
        match: { input: [{ path: 'command', pattern: '/(/' }] },
      }),
    ).toMatchObject({
      message: expect.stringMatching(
        /^invalid rule: match\.input\[0\]\.pattern: is not a valid regular expression/,
      ),
      extensions: { field: 'match.input[0].pattern' },
    });
    expect((await bad({ name: 'x', decision: 'ASK', on: 'STOP' })).extensions!.field).toBe(
      'decision',
    );
    await create({ name: 'taken', decision: 'ALLOW', match: { tools: ['Nothing'] } });
    expect((await bad({ name: 'taken', decision: 'DENY' })).message).toBe(
      'a rule named "taken" exists',
    );
    expect((await hub.data(`{ permissionRules { id } }`)).permissionRules).toHaveLength(
      before.length + 1,
    );
  });

  it('decides at PreToolUse and PermissionRequest before anyone is held, explained and audited', async () => {
    await create({
      name: 'no rm',
      decision: 'DENY',
      message: 'deleting is not allowed here',
      priority: 5,
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'rm *' }], cwdUnder: [repo] },
    });
    await create({
      name: 'reads',
      decision: 'ALLOW',
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: '{ls,cat} *' }] },
    });
    await create({
      name: 'ask web',
      decision: 'ASK',
      match: { tools: ['WebFetch'], origin: 'EXTERNAL' },
    });
    const inRepo = await hookSession(hub, { cwd: repo });
    const elsewhere = await hookSession(hub, { cwd: path.join(repo, '..', 'repo2') });

    expect(
      await answerOf(inRepo, 'PreToolUse', {
        tool_name: 'Bash',
        tool_input: { command: 'ls -la && cat README.md' },
        tool_use_id: 'toolu_1',
      }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason:
          'rule reads: tool Bash matched "Bash"; each of the 2 commands of command "ls -la && cat README.md" matched "{ls,cat} *"',
      },
    });
    expect(
      await answerOf(inRepo, 'PreToolUse', {
        tool_name: 'Bash',
        tool_input: { command: 'ls && rm -rf src' },
        tool_use_id: 'toolu_2',
      }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'deleting is not allowed here',
      },
    });
    // The same call in a folder the deny rule does not cover: no rule matches.
    expect(
      await answerOf(elsewhere, 'PreToolUse', {
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf src' },
        tool_use_id: 'toolu_3',
      }),
    ).toEqual({});
    expect(
      await answerOf(inRepo, 'PermissionRequest', {
        tool_name: 'Bash',
        tool_input: { command: 'cat /etc/hosts' },
      }),
    ).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });

    expect(await requestsOf(inRepo.id)).toEqual([
      {
        id: expect.any(String),
        sessionId: inRepo.id,
        toolName: 'Bash',
        status: 'ALLOWED',
        decidedBy: 'rule reads',
        explanation:
          'tool Bash matched "Bash"; each of the 2 commands of command "ls -la && cat README.md" matched "{ls,cat} *"',
        toolUseId: 'toolu_1',
        message: null,
      },
      {
        id: expect.any(String),
        sessionId: inRepo.id,
        toolName: 'Bash',
        status: 'DENIED',
        decidedBy: 'rule no rm',
        explanation: `tool Bash matched "Bash"; command's command "rm -rf src" matched "rm *"; cwd ${repo} is under ${repo}`,
        toolUseId: 'toolu_2',
        message: 'deleting is not allowed here',
      },
      expect.objectContaining({ status: 'ALLOWED', decidedBy: 'rule reads', toolUseId: null }),
    ]);
    expect(await requestsOf(elsewhere.id)).toEqual([]);

    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 100) { eventName
        ... on HubPermissionResolvedEvent { status decidedBy explanation } } } }`,
      { id: inRepo.id },
    );
    expect(
      session.events.filter(
        (event: { eventName: string }) => event.eventName === 'HubPermissionResolved',
      ),
    ).toEqual([
      expect.objectContaining({ status: 'ALLOWED', decidedBy: 'rule reads' }),
      expect.objectContaining({ status: 'DENIED', decidedBy: 'rule no rm' }),
      expect.objectContaining({ status: 'ALLOWED', decidedBy: 'rule reads' }),
    ]);
    const { audit: auditLog } = await hub.data(
      `query($id: ID!) { audit(last: 10, sessionId: $id) { actor action outcome } }`,
      { id: inRepo.id },
    );
    expect(auditLog).toEqual([
      { actor: 'rule reads', action: 'ruleDecision', outcome: 'ALLOWED' },
      { actor: 'rule no rm', action: 'ruleDecision', outcome: 'DENIED' },
      { actor: 'rule reads', action: 'ruleDecision', outcome: 'ALLOWED' },
    ]);

    // ASK at PreToolUse makes claude ask; its PermissionRequest is held, with the rule's reason.
    expect(
      await answerOf(elsewhere, 'PreToolUse', {
        tool_name: 'WebFetch',
        tool_input: { url: 'https://example.com' },
        tool_use_id: 'toolu_4',
      }),
    ).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    const held = answerOf(elsewhere, 'PermissionRequest', {
      tool_name: 'WebFetch',
      tool_input: { url: 'https://example.com' },
    });
    let pending: { id: string; explanation: string }[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = (await hub.data(`{ permissionRequests(status: PENDING) { ${requestFields} } }`))
        .permissionRequests;
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pending).toEqual([
      expect.objectContaining({
        sessionId: elsewhere.id,
        decidedBy: null,
        explanation:
          'rule ask web asks a person: tool WebFetch matched "WebFetch"; origin EXTERNAL',
      }),
    ]);
    const { decidePermission } = await hub.data(
      `mutation($id: ID!) { decidePermission(input: { requestId: $id, behavior: DENY, message: "not now" }) { request { status decidedBy } } }`,
      { id: pending[0]!.id },
    );
    expect(decidePermission.request).toEqual({ status: 'DENIED', decidedBy: 'token admin-bot' });
    expect(await held).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not now' },
      },
    });
  });

  it('sends claude back at Stop once per turn, only when the turn made a matching call', async () => {
    await create({
      name: 'tests before stop',
      on: 'STOP',
      decision: 'DENY',
      message: 'run the tests before you stop',
      match: { tools: ['Edit', 'Write'] },
    });
    const session = await hookSession(hub, { cwd: path.join(repo, 'stop') });
    const stop = (active: boolean) =>
      answerOf(session, 'Stop', { stop_hook_active: active, last_assistant_message: 'done' });

    await session.post('UserPromptSubmit', { prompt: 'read it' });
    await answerOf(session, 'PreToolUse', { tool_name: 'Read', tool_input: {}, tool_use_id: 'a' });
    expect(await stop(false)).toEqual({});

    await session.post('UserPromptSubmit', { prompt: 'change it' });
    await answerOf(session, 'PreToolUse', {
      tool_name: 'Edit',
      tool_input: { file_path: '/x' },
      tool_use_id: 'b',
    });
    expect(await stop(false)).toEqual({
      decision: 'block',
      reason: 'run the tests before you stop',
    });
    // claude works on: the refused Stop did not end the turn.
    const status = async () =>
      (await hub.data(`query($id: ID!) { session(id: $id) { status } }`, { id: session.id }))
        .session.status;
    expect(await status()).toBe('BUSY');
    expect(await stop(true)).toEqual({});
    expect(await status()).toBe('IDLE');

    const { session: stored } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 100) { eventName
        ... on HubStopRefusedEvent { rule reason explanation } } } }`,
      { id: session.id },
    );
    expect(
      stored.events.filter((event: { eventName: string }) => event.eventName === 'HubStopRefused'),
    ).toEqual([
      {
        eventName: 'HubStopRefused',
        rule: 'tests before stop',
        reason: 'run the tests before you stop',
        explanation: 'the turn made a matching call (tool Edit matched "Edit")',
      },
    ]);
  });
});
