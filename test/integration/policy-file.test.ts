import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runHubCommand } from '../helpers/hub-process.js';
import { hookSession, readHookToken } from '../helpers/hook-session.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';

const policy = `# the rules of this machine
rules:
  - name: no-rm
    decision: DENY
    message: deleting is not allowed here
    priority: 5
    match:
      tools: [Bash]
      input:
        - path: command
          pattern: 'rm *'
  - name: reads
    decision: ALLOW
    match: { tools: [Read] }
`;

const rulesQuery = `{ permissionRules { id name decision priority source createdBy createdAt } }`;
const statusQuery = `{ policyFile { path loadedAt rules error { message line at } } }`;
/** How long a change of the file may take to be in force: the debounce, and a loaded machine. */
const inForce = { timeout: 10_000, interval: 50 };

describe('the --policy-file', () => {
  disposeWithSuite();
  let hub: TestHub;
  let dir: string;
  let file: string;

  const rules = async () =>
    (await hub.data(rulesQuery)).permissionRules as {
      id: string;
      name: string;
      decision: string;
      priority: number;
      source: string;
      createdBy: string;
      createdAt: string;
    }[];
  const status = async () => (await hub.data(statusQuery)).policyFile;
  /** Saves the file as editors do: a new file renamed over the old one. */
  const save = (text: string) => {
    const next = path.join(dir, '.policy.yaml.swp');
    writeFileSync(next, text);
    renameSync(next, file);
  };

  beforeAll(async () => {
    dir = tempDir('cch-policy-');
    file = path.join(dir, 'policy.yaml');
    writeFileSync(file, policy);
    hub = await startHub({ args: ['--policy-file', file] });
  });

  it('puts its rules in force at start, as FILE rules created by the file', async () => {
    expect(await rules()).toEqual([
      {
        id: 'file:no-rm',
        name: 'no-rm',
        decision: 'DENY',
        priority: 5,
        source: 'FILE',
        createdBy: file,
        createdAt: expect.any(String),
      },
      {
        id: 'file:reads',
        name: 'reads',
        decision: 'ALLOW',
        priority: 0,
        source: 'FILE',
        createdBy: file,
        createdAt: expect.any(String),
      },
    ]);
    expect(await status()).toEqual({
      path: file,
      loadedAt: expect.any(String),
      rules: 2,
      error: null,
    });
  });

  it('decides a hook with its rules', async () => {
    const session = await hookSession(hub);
    const response = await fetch(`${hub.baseUrl}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${readHookToken(hub.dataDir)}`,
      },
      body: JSON.stringify({
        session_id: session.id,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
        tool_use_id: 'toolu_file_1',
      }),
    });
    expect(await response.json()).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'deleting is not allowed here',
      },
    });
    const { permissionRequests } = await hub.data(
      `{ permissionRequests { sessionId status decidedBy toolUseId } }`,
    );
    expect(permissionRequests).toContainEqual({
      sessionId: session.id,
      status: 'DENIED',
      decidedBy: 'rule no-rm',
      toolUseId: 'toolu_file_1',
    });
  });

  it('keeps its rules read-only through the API, and their names its own', async () => {
    const update = await hub.gql(
      `mutation { updatePermissionRule(id: "file:no-rm", input: { name: "no-rm", decision: ALLOW }) { id } }`,
    );
    expect(update.errors?.[0]?.extensions?.code).toBe('RULE_READ_ONLY');
    expect(update.errors?.[0]?.message).toBe(
      `rule "no-rm" comes from the policy file ${file}: change it there`,
    );
    const remove = await hub.gql(`mutation { deletePermissionRule(id: "file:reads") }`);
    expect(remove.errors?.[0]?.extensions?.code).toBe('RULE_READ_ONLY');
    const taken = await hub.gql(
      `mutation { createPermissionRule(input: { name: "reads", decision: DENY }) { id } }`,
    );
    expect(taken.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    expect((await rules()).map((rule) => rule.id)).toEqual(['file:no-rm', 'file:reads']);
  });

  it('takes an edit while the hub runs, a rule of the same name keeping its creation', async () => {
    const [before] = await rules();
    save(policy.replace('priority: 5', 'priority: 7') + '  - { name: web, decision: ASK }\n');
    await expect
      .poll(async () => (await rules()).map((rule) => [rule.name, rule.priority]), inForce)
      .toEqual([
        ['no-rm', 7],
        ['web', 0],
        ['reads', 0],
      ]);
    expect((await rules())[0]?.createdAt).toBe(before?.createdAt);
    expect((await status()).rules).toBe(3);
  });

  it('keeps the rules before in force through a broken edit, naming its line; a fix clears it', async () => {
    const inForceBefore = await rules();
    const broken = policy.replace("pattern: 'rm *'", "pattern: '/rm (/'");
    // Written in place this time: a truncate and a write, as some editors save.
    writeFileSync(file, broken);
    const { error } = await expect
      .poll(status, inForce)
      .toMatchObject({ error: expect.objectContaining({ line: 11 }) })
      .then(status);
    expect(error).toEqual({
      line: 11,
      message: expect.stringMatching(
        new RegExp(
          `^${file}:11: rule "no-rm": match\\.input\\[0\\]\\.pattern: .*regular expression`,
        ),
      ),
      at: expect.any(String),
    });
    expect(await rules()).toEqual(inForceBefore);
    expect(hub.logs.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: 'warn', policyFile: file, line: 11 }),
    );

    save(policy);
    await expect.poll(status, inForce).toMatchObject({ rules: 2, error: null });
    expect((await rules()).map((rule) => [rule.name, rule.priority])).toEqual([
      ['no-rm', 5],
      ['reads', 0],
    ]);
  });

  it('keeps the rules when the file is removed, and loads it again when it is back', async () => {
    rmSync(file);
    await expect.poll(status, inForce).toMatchObject({
      rules: 2,
      error: {
        line: null,
        message: `${file}: is gone`,
      },
    });
    expect(await rules()).toHaveLength(2);
    save(policy.replace('decision: ALLOW', 'decision: ASK'));
    await expect.poll(status, inForce).toMatchObject({ rules: 2, error: null });
    expect((await rules()).map((rule) => rule.decision)).toEqual(['DENY', 'ASK']);
  });
});

describe('a hub without a --policy-file', () => {
  it('says so: Query.policyFile is null', async () => {
    const hub = await startHub();
    expect(await hub.data(statusQuery)).toEqual({ policyFile: null });
  });
});

describe('a policy file that does not load at start', () => {
  const rules = [
    { name: 'a', decision: 'DENY' },
    { name: 'a', decision: 'ALLOW' },
  ];
  it.each([
    [
      'a name used twice',
      JSON.stringify({ rules }, null, 2),
      ':8: rule "a": name: is taken by the rule on line 3',
    ],
    ['no file', null, ': does not exist'],
  ])('stops the hub from starting, saying where: %s', async (_case, text, error) => {
    const dir = tempDir('cch-policy-');
    const file = path.join(dir, 'policy.json');
    if (text !== null) writeFileSync(file, text);
    const result = await runHubCommand([
      '--port',
      '0',
      '--data-dir',
      path.join(dir, 'data'),
      '--tmux-socket',
      `cch-policy-${process.pid}`,
      '--policy-file',
      file,
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`claude-code-hub: ${file}${error}`);
    expect(result.stdout).toBe('');
  });
});
