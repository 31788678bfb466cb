import { describe, expect, it } from 'vitest';
import { fileRules, parsePolicyFile, PolicyFileError } from '../../src/permissions/policy-file.js';

const file = '/etc/hub/policy.yaml';

/** The PolicyFileError parsing `text` throws. */
function failure(text: string, apiNames: string[] = []): { message: string; line: number | null } {
  try {
    parsePolicyFile(text, file, new Set(apiNames));
  } catch (error) {
    if (!(error instanceof PolicyFileError)) throw error;
    return { message: error.message, line: error.line };
  }
  throw new Error('it parsed');
}

const yaml = `# the team's rules
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
    match: { tools: [Read, Grep] }
  - name: keep going
    on: STOP
    decision: DENY
    message: run the tests first
    match:
      labels: [ci]
`;

describe('parsePolicyFile', () => {
  it('reads YAML rules, checked as the API checks them, with the line each starts on', () => {
    expect(parsePolicyFile(yaml, file)).toEqual([
      {
        line: 3,
        fields: {
          name: 'no-rm',
          enabled: true,
          priority: 5,
          on: 'TOOL_CALL',
          match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'rm *' }] },
          decision: 'DENY',
          message: 'deleting is not allowed here',
        },
      },
      {
        line: 12,
        fields: {
          name: 'reads',
          enabled: true,
          priority: 0,
          on: 'TOOL_CALL',
          match: { tools: ['Read', 'Grep'] },
          decision: 'ALLOW',
          message: null,
        },
      },
      {
        line: 15,
        fields: {
          name: 'keep going',
          enabled: true,
          priority: 0,
          on: 'STOP',
          match: { labels: ['ci'] },
          decision: 'DENY',
          message: 'run the tests first',
        },
      },
    ]);
  });

  it('reads JSON, a bare list of rules as well as { rules }', () => {
    const json = JSON.stringify(
      [
        { name: 'a', decision: 'ASK', match: { tools: ['WebFetch'] } },
        { name: 'b', decision: 'ALLOW', enabled: false },
      ],
      null,
      2,
    );
    const rules = parsePolicyFile(json, file);
    expect(rules.map(({ line, fields }) => [line, fields.name, fields.enabled])).toEqual([
      [2, 'a', true],
      [11, 'b', false],
    ]);
    expect(parsePolicyFile(JSON.stringify({ rules: [] }), file)).toEqual([]);
    expect(parsePolicyFile('[]', file)).toEqual([]);
  });

  it('names the line of the bad field, and the rule', () => {
    expect(failure(yaml.replace("'rm *'", "'/rm (/'"))).toEqual({
      line: 11,
      message: expect.stringMatching(
        /^\/etc\/hub\/policy\.yaml:11: rule "no-rm": match\.input\[0\]\.pattern: .*regular expression/,
      ),
    });
    expect(failure(yaml.replace('decision: ALLOW', 'decision: MAYBE'))).toEqual({
      line: 13,
      message: `${file}:13: rule "reads": decision: must be one of ALLOW, DENY, ASK`,
    });
    expect(failure(yaml.replace('labels: [ci]', 'labels: []'))).toEqual({
      line: 20,
      message: `${file}:20: rule "keep going": match.labels: is empty: leave it out to match any`,
    });
    expect(failure(yaml.replace('      tools: [Bash]', '      tool: [Bash]'))).toEqual({
      line: 8,
      message: `${file}:8: rule "no-rm": match.tool: is not a part (tools, input, cwdUnder, labels, runtime, origin, token)`,
    });
  });

  it('refuses a misspelt part of a rule, and a missing one at the rule', () => {
    expect(failure('- name: x\n  decision: DENY\n  mesage: no\n')).toEqual({
      line: 3,
      message: `${file}:3: rule "x": mesage: is not a part of a rule (name, enabled, priority, on, match, decision, message)`,
    });
    expect(failure('rules:\n  - name: x\n    priority: 1\n')).toEqual({
      line: 2,
      message: `${file}:2: rule "x": decision: is required`,
    });
    expect(failure('rules:\n  - decision: DENY\n')).toMatchObject({
      line: 2,
      message: expect.stringMatching(/^\/etc\/hub\/policy\.yaml:2: name: must be 1 to 100/),
    });
    expect(failure('rules:\n  - just a string\n')).toEqual({
      line: 2,
      message: `${file}:2: rule: must be an object`,
    });
  });

  it('refuses a name used twice, or one an API rule has', () => {
    expect(
      failure(
        '- { name: a, decision: DENY }\n- { name: b, decision: DENY }\n- { name: a, decision: ALLOW }\n',
      ),
    ).toEqual({
      line: 3,
      message: `${file}:3: rule "a": name: is taken by the rule on line 1`,
    });
    expect(failure(yaml, ['reads'])).toEqual({
      line: 12,
      message: `${file}:12: rule "reads": name: is taken by a rule made through the API`,
    });
  });

  it('refuses a syntax error with its line, and a file that is not a list of rules', () => {
    expect(
      failure('rules:\n  - name: a\n    decision: DENY\n    match: {tools: [Bash\n'),
    ).toMatchObject({
      line: expect.any(Number),
      message: expect.stringMatching(/^\/etc\/hub\/policy\.yaml:\d+: .*end with a \]/),
    });
    expect(failure('rules:\n  - name: a\n    name: b\n    decision: DENY\n')).toEqual({
      line: 3,
      message: `${file}:3: Map keys must be unique`,
    });
    expect(failure('{"rules": [\n  {"name": "a"\n   "decision": "DENY"}\n]}\n')).toEqual({
      line: 3,
      message: `${file}:3: Missing , between flow map items`,
    });
    expect(failure('rules:\n  name: a\n')).toEqual({
      line: 2,
      message: `${file}:2: must be a list of rules, or an object { rules: [...] }`,
    });
    expect(failure('rules: []\nrule: []\n')).toEqual({
      line: 2,
      message: `${file}:2: must be a list of rules, or an object { rules: [...] }`,
    });
    expect(failure('just text\n').line).toBe(1);
  });

  it('refuses an empty file, which may be one caught half-written', () => {
    for (const text of ['', '\n', '# nothing yet\n'])
      expect(failure(text)).toEqual({
        line: null,
        message: `${file}: is empty: write \`rules: []\` for a file of no rules`,
      });
  });
});

describe('fileRules', () => {
  const parsed = parsePolicyFile(yaml, file);

  it('makes FILE rules with ids of their names, created by the file', () => {
    const rules = fileRules(parsed, file, 1000, []);
    expect(
      rules.map(({ id, source, createdBy, createdAt, updatedAt }) => ({
        id,
        source,
        createdBy,
        createdAt,
        updatedAt,
      })),
    ).toEqual(
      ['no-rm', 'reads', 'keep going'].map((name) => ({
        id: `file:${name}`,
        source: 'FILE',
        createdBy: file,
        createdAt: 1000,
        updatedAt: 1000,
      })),
    );
  });

  it('keeps the creation of a rule loaded before, and an unchanged rule as it was', () => {
    const first = fileRules(parsed, file, 1000, []);
    const edited = parsePolicyFile(
      yaml.replace('priority: 5', 'priority: 6') + '  - { name: new, decision: ASK }\n',
      file,
    );
    const second = fileRules(edited, file, 2000, first);
    expect(
      second.map(({ name, priority, createdAt, updatedAt }) => [
        name,
        priority,
        createdAt,
        updatedAt,
      ]),
    ).toEqual([
      ['no-rm', 6, 1000, 2000],
      ['reads', 0, 1000, 1000],
      ['keep going', 0, 1000, 1000],
      ['new', 0, 2000, 2000],
    ]);
    expect(second[1]).toBe(first[1]);
  });
});
