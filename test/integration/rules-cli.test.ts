import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';
import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';

const secrets = {
  admin: 'admin-secret-0123456789',
  read: 'read-secret-0123456789',
};
type Role = keyof typeof secrets;

const ruleFields = `id name enabled priority on decision message source createdBy
  match { tools input { path pattern } cwdUnder labels runtime origin token }`;

describe('claude-code-hub rules against a hub with tokens', () => {
  disposeWithSuite();
  let hub: TestHub;
  let dir: string;

  const cli = (role: Role, ...argv: string[]) => runCli(hub.url, secrets[role], argv);

  const rules = async () =>
    (await hub.data(`{ permissionRules { ${ruleFields} } }`)).permissionRules as {
      id: string;
      name: string;
      enabled: boolean;
      [field: string]: unknown;
    }[];

  beforeAll(async () => {
    dir = tempDir('cch-rules-cli-');
    const tokensFile = writeTokensFile(dir, tokensByScope(secrets));
    hub = await startHub({ token: secrets.admin, args: ['--tokens-file', tokensFile] });
  });

  it('adds rules from options, lists them in the order tried, disables, enables and removes one', async () => {
    const push = await cli(
      'admin',
      ...['rules', 'add', '--name', 'no pushes', '--decision', 'deny', '--priority', '10'],
      ...['--tool', 'Bash', '--input', 'command=git push*', '--input', 'command=/--force/'],
      ...['--cwd-under', dir, '--label', 'ci', '--runtime', 'headless', '--origin', 'MANAGED'],
      ...['--created-by', 'admin-bot', '--message', 'pushing is for people'],
    );
    expect(push).toMatchObject({ code: 0, err: '' });
    const [pushId, ...pushName] = push.out.split(' ');
    expect(pushName.join(' ')).toBe('no pushes');
    const reads = await cli(
      'admin',
      ...['rules', 'add', '--name', 'reads', '--decision', 'ALLOW', '--tool', 'Read'],
      ...['--tool', 'Grep', '--disabled'],
    );
    expect(reads.code).toBe(0);
    const stop = await cli(
      'admin',
      ...['rules', 'add', '--name', 'tests first', '--on', 'stop', '--decision', 'DENY'],
      ...['--message', 'run the tests before you stop'],
    );
    expect(stop.code).toBe(0);

    expect(await rules()).toEqual([
      {
        id: pushId,
        name: 'no pushes',
        enabled: true,
        priority: 10,
        on: 'TOOL_CALL',
        decision: 'DENY',
        message: 'pushing is for people',
        source: 'API',
        createdBy: 'admin-bot',
        match: {
          tools: ['Bash'],
          input: [
            { path: 'command', pattern: 'git push*' },
            { path: 'command', pattern: '/--force/' },
          ],
          cwdUnder: [dir],
          labels: ['ci'],
          runtime: 'HEADLESS',
          origin: 'MANAGED',
          token: 'admin-bot',
        },
      },
      expect.objectContaining({ name: 'tests first', on: 'STOP', match: expectEmptyMatch }),
      expect.objectContaining({ name: 'reads', enabled: false }),
    ]);

    const listed = await cli('read', 'rules', 'ls');
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ON\s+DECISION\s+PRIORITY\s+ENABLED\s+SOURCE\s+MATCH\s+ID$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^no pushes\\s+TOOL_CALL\\s+DENY\\s+10\\s+yes\\s+API\\s+tools=Bash input=command:git push\\*\\|command:/--force/ cwd=\\S+…\\s+${pushId}$`,
      ),
    );
    expect(lines[2]).toMatch(/^tests first\s+STOP\s+DENY\s+0\s+yes\s+API\s+\*\s+[0-9a-f-]{36}$/);
    expect(lines[3]).toMatch(/^reads\s+TOOL_CALL\s+ALLOW\s+0\s+no\s+API\s+tools=Read\|Grep\s/);
    expect(lines).toHaveLength(4);
    const json = (await cli('read', 'rules', 'ls', '--json')).out
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(json.map((rule) => rule.name)).toEqual(['no pushes', 'tests first', 'reads']);
    expect(json[0]).toMatchObject({ id: pushId, match: { cwdUnder: [dir], labels: ['ci'] } });

    // By name or by id; the other fields stay as they were.
    expect(await cli('admin', 'rules', 'enable', 'reads')).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^[0-9a-f-]{36} reads enabled$/),
    });
    expect(await cli('admin', 'rules', 'disable', pushId!)).toEqual({
      code: 0,
      out: `${pushId} no pushes disabled`,
      err: '',
    });
    const after = await rules();
    expect(after.map((rule) => `${rule.name} ${rule.enabled}`)).toEqual([
      'tests first true',
      'reads true',
      'no pushes false',
    ]);
    expect(after[2]).toMatchObject({
      priority: 10,
      message: 'pushing is for people',
      match: { tools: ['Bash'], input: [{ pattern: 'git push*' }, { pattern: '/--force/' }] },
    });

    expect(await cli('admin', 'rules', 'rm', 'no pushes')).toEqual({
      code: 0,
      out: `${pushId} no pushes removed`,
      err: '',
    });
    expect((await rules()).map((rule) => rule.name)).toEqual(['tests first', 'reads']);
    expect(await cli('admin', 'rules', 'rm', 'no pushes')).toEqual({
      code: 1,
      out: '',
      err: 'claude-code-hub rules rm: RULE_NOT_FOUND: no permission rule has the id or name "no pushes" (see rules ls)',
    });
  });

  it('adds the rules of a YAML file, or none of a file with a bad one', async () => {
    const file = path.join(dir, 'rules.yaml');
    writeFileSync(
      file,
      [
        'rules:',
        '  - name: docs edits',
        '    decision: ALLOW',
        '    priority: 5',
        '    match:',
        '      tools: [Edit, Write]',
        '      input:',
        "        - { path: file_path, pattern: '**/*.md' }",
        '  - name: web',
        '    decision: ASK',
        '    match: { tools: [WebFetch] }',
        '',
      ].join('\n'),
    );
    const added = await cli('admin', 'rules', 'add', '--file', file);
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/^[0-9a-f-]{36} docs edits\n[0-9a-f-]{36} web$/);
    expect(await rules()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'docs edits',
          priority: 5,
          source: 'API',
          match: expect.objectContaining({
            tools: ['Edit', 'Write'],
            input: [{ path: 'file_path', pattern: '**/*.md' }],
          }),
        }),
        expect.objectContaining({ name: 'web', decision: 'ASK' }),
      ]),
    );

    // Checked before anything is sent: the line of the bad part, and no rule added.
    const bad = path.join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify(
        [
          { name: 'fine', decision: 'ALLOW' },
          { name: 'relative', decision: 'DENY', match: { cwdUnder: ['src'] } },
        ],
        null,
        2,
      ),
    );
    const refused = await cli('admin', 'rules', 'add', '--file', bad);
    expect(refused).toEqual({
      code: 1,
      out: '',
      err: `claude-code-hub rules add: ${bad}:11: rule "relative": match.cwdUnder[0]: must be absolute`,
    });
    expect((await rules()).map((rule) => rule.name)).not.toContain('fine');
    const both = await cli('admin', 'rules', 'add', '--file', file, '--name', 'x');
    expect(both.code).toBe(2);
    expect(both.err).toMatch(
      /^claude-code-hub rules add: --file takes the rules from the file: leave out --name\n\nUsage: claude-code-hub rules add /,
    );
  });

  it('prints what the hub refuses, and bad options with the usage', async () => {
    const readOnly = await cli('read', 'rules', 'add', '--name', 'x', '--decision', 'ALLOW');
    expect(readOnly.code).toBe(1);
    expect(readOnly.out).toBe('');
    expect(readOnly.err).toMatch(/^claude-code-hub rules add: FORBIDDEN: .*admin/);
    expect((await cli('read', 'rules', 'disable', 'web')).err).toMatch(
      /^claude-code-hub rules disable: FORBIDDEN: /,
    );

    const badPattern = await cli(
      'admin',
      ...['rules', 'add', '--name', 'bad', '--decision', 'DENY', '--input', 'command=/(/'],
    );
    expect(badPattern.code).toBe(1);
    expect(badPattern.err).toMatch(
      /^claude-code-hub rules add: BAD_USER_INPUT: invalid rule: match\.input\[0\]\.pattern: /,
    );
    const taken = await cli('admin', 'rules', 'add', '--name', 'web', '--decision', 'DENY');
    expect(taken.err).toBe('claude-code-hub rules add: BAD_USER_INPUT: a rule named "web" exists');
    const stopAsk = await cli(
      'admin',
      ...['rules', 'add', '--name', 'ask at stop', '--on', 'STOP', '--decision', 'ASK'],
    );
    expect(stopAsk.err).toMatch(
      /^claude-code-hub rules add: BAD_USER_INPUT: invalid rule: decision: a STOP rule decides/,
    );

    const usage = async (argv: string[], message: string) => {
      const result = await cli('admin', ...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err, argv.join(' ')).toMatch(
        new RegExp(`^claude-code-hub rules ${argv[1]}: ${message}[^\n]*\n\nUsage: `),
      );
    };
    await usage(['rules', 'add', '--decision', 'ALLOW'], '--name is required \\(or --file\\)');
    await usage(
      ['rules', 'add', '--name', 'x', '--decision', 'maybe'],
      '--decision must be ALLOW, DENY or ASK, got "maybe"',
    );
    await usage(
      ['rules', 'add', '--name', 'x', '--decision', 'ALLOW', '--priority', 'high'],
      '--priority must be a whole number, got "high"',
    );
    await usage(
      ['rules', 'add', '--name', 'x', '--decision', 'ALLOW', '--input', 'command'],
      '--input must be PATH=PATTERN',
    );
    await usage(['rules', 'rm'], 'expected 1 argument, got 0');
    const help = await cli('admin', 'rules', 'add', '--help');
    expect(help.out).toMatch(
      /^Usage: claude-code-hub rules add --name N --decision ALLOW\|DENY\|ASK /,
    );
    expect((await rules()).map((rule) => rule.name)).not.toContain('x');
  });
});

const expectEmptyMatch = {
  tools: null,
  input: null,
  cwdUnder: null,
  labels: null,
  runtime: null,
  origin: null,
  token: null,
};
