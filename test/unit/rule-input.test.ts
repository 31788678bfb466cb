import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command-io.js';
import { ClientError } from '../../src/cli/client.js';
import { describeMatch } from '../../src/cli/format.js';
import {
  findRule,
  ruleInputFromOptions,
  ruleInputOf,
  type ListedRule,
} from '../../src/cli/rule-input.js';

const listed: ListedRule = {
  id: '7f0c1c3e-0000-4000-8000-000000000001',
  name: 'no pushes',
  enabled: true,
  priority: 10,
  on: 'TOOL_CALL',
  decision: 'DENY',
  message: 'pushing is for people',
  source: 'API',
  createdBy: 'admin-bot',
  createdAt: '2026-11-26T12:00:00.000Z',
  updatedAt: '2026-11-26T12:00:00.000Z',
  match: {
    tools: ['Bash'],
    input: [{ path: 'command', pattern: 'git push*' }],
    cwdUnder: null,
    labels: ['ci'],
    runtime: null,
    origin: null,
    token: null,
  },
};

describe('rules add options', () => {
  it('make the input of one rule: repeatable parts as lists, words in any case, folders absolute', () => {
    expect(
      ruleInputFromOptions(
        {
          name: 'no pushes',
          decision: 'deny',
          on: 'tool-call',
          priority: '-5',
          tool: ['Bash', 'mcp__git__*'],
          input: ['command=git push*', 'command=/a=b/'],
          'cwd-under': ['repo', '/srv/other'],
          label: ['ci'],
          runtime: 'headless',
          origin: 'External',
          'created-by': 'bot',
          message: 'no',
          disabled: true,
        },
        '/home/me',
      ),
    ).toEqual({
      name: 'no pushes',
      decision: 'DENY',
      on: 'TOOL_CALL',
      priority: -5,
      enabled: false,
      message: 'no',
      match: {
        tools: ['Bash', 'mcp__git__*'],
        input: [
          { path: 'command', pattern: 'git push*' },
          { path: 'command', pattern: '/a=b/' },
        ],
        cwdUnder: ['/home/me/repo', '/srv/other'],
        labels: ['ci'],
        runtime: 'HEADLESS',
        origin: 'EXTERNAL',
        token: 'bot',
      },
    });
    // Only what is given: the hub's defaults for the rest, and a match of no part.
    expect(ruleInputFromOptions({ name: 'all', decision: 'ASK' }, '/')).toEqual({
      name: 'all',
      decision: 'ASK',
      match: {},
    });
  });

  it('refuse what names no rule, quoting the bad value', () => {
    const refusal = (values: Record<string, string | string[]>) => {
      try {
        ruleInputFromOptions(values, '/');
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ decision: 'ALLOW' })).toBe('--name is required (or --file)');
    expect(refusal({ name: 'x' })).toBe('--decision is required (or --file)');
    expect(refusal({ name: 'x', decision: 'ALLOW', on: 'exit' })).toBe(
      '--on must be TOOL_CALL or STOP, got "exit"',
    );
    expect(refusal({ name: 'x', decision: 'ALLOW', priority: '1.5' })).toBe(
      '--priority must be a whole number, got "1.5"',
    );
    expect(refusal({ name: 'x', decision: 'ALLOW', input: ['=x'] })).toMatch(
      /^--input must be PATH=PATTERN .*, got "=x"$/,
    );
    expect(refusal({ name: 'x', decision: 'ALLOW', input: ['command='] })).toMatch(
      /^--input must be PATH=PATTERN/,
    );
  });
});

describe('a listed rule', () => {
  it('gives its own fields back as an input, with the changes over them', () => {
    expect(ruleInputOf(listed, { enabled: false })).toEqual({
      name: 'no pushes',
      enabled: false,
      priority: 10,
      on: 'TOOL_CALL',
      decision: 'DENY',
      message: 'pushing is for people',
      match: {
        tools: ['Bash'],
        input: [{ path: 'command', pattern: 'git push*' }],
        labels: ['ci'],
      },
    });
  });

  it('is found by id, else by name', () => {
    const named = { ...listed, id: 'other', name: listed.id };
    expect(findRule([named, listed], listed.id)).toBe(listed);
    expect(findRule([named, listed], 'no pushes')).toBe(listed);
    expect(() => findRule([listed], 'nope')).toThrow(ClientError);
  });

  it('has its match on one line', () => {
    expect(describeMatch(listed.match)).toBe('tools=Bash input=command:git push* labels=ci');
    expect(
      describeMatch({
        tools: ['Read', 'Grep'],
        cwdUnder: ['/a', '/b'],
        runtime: 'TMUX',
        origin: 'MANAGED',
        token: 'bot',
      }),
    ).toBe('tools=Read|Grep cwd=/a|/b runtime=TMUX origin=MANAGED token=bot');
    expect(describeMatch({ tools: null, input: null })).toBe('*');
  });
});
