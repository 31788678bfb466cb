import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getIntrospectionQuery, parse, validate, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { guardPlugin } from '../../src/auth/guard-plugin.js';
import { authorize } from '../../src/auth/operation-scope.js';
import { loadTokens, Tokens } from '../../src/auth/tokens.js';
import { operationLimitsRule } from '../../src/schema/operation-limits.js';
import { schema } from '../../src/schema/index.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('tokens', () => {
  it('authenticates each secret as its own token, and nothing else', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cch-tokens-'));
    const file = path.join(dir, 'tokens.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'dash', scope: 'read', sha256: sha('dash-secret') },
        { name: 'bot', scope: 'approve', sha256: sha('bot-secret').toUpperCase() },
      ]),
    );
    const tokens = new Tokens(loadTokens({ token: 'the-admin-secret-123', tokensFile: file }));
    expect(tokens.authenticate('the-admin-secret-123')).toEqual({ name: 'admin', scope: 'admin' });
    expect(tokens.authenticate('dash-secret')).toEqual({ name: 'dash', scope: 'read' });
    expect(tokens.authenticate('bot-secret')).toEqual({ name: 'bot', scope: 'approve' });
    expect(tokens.authenticate('dash-secret ')).toBeUndefined();
    expect(tokens.authenticate('')).toBeUndefined();
    expect(new Tokens([]).configured).toBe(false);
  });

  it.each([
    ['{', /tokens file .*: .*JSON/],
    ['{}', /must be a JSON array/],
    ['[{"name":"a b","scope":"read","sha256":"x"}]', /entry 0: name must be/],
    [
      `[{"name":"a","scope":"read","sha256":"${'0'.repeat(63)}"}]`,
      /entry 0: sha256 must be 64 hex/,
    ],
    [
      `[{"name":"a","scope":"read","sha256":"${'0'.repeat(64)}"},{"name":"a","scope":"admin","sha256":"${'1'.repeat(64)}"}]`,
      /token name "a" is used twice/,
    ],
  ])('refuses the tokens file %s', (text, error) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cch-tokens-')), 'tokens.json');
    writeFileSync(file, text);
    expect(() => loadTokens({ token: '', tokensFile: file })).toThrow(error);
  });
});

describe('authorize', () => {
  const read = { name: 'r', scope: 'read' } as const;
  const control = { name: 'c', scope: 'control' } as const;

  it('checks root fields reached through fragments and inline fragments', () => {
    const hidden = parse(
      'mutation { ... on Mutation { ...M } } fragment M on Mutation { stopSession(id: "x") { id } }',
    );
    expect(authorize(read, hidden, undefined)?.message).toBe(
      'token "r" has scope read; mutation field stopSession needs control',
    );
    expect(authorize(control, hidden, undefined)).toBeNull();
    const decide = parse(
      'mutation A { stopSession(id: "x") { id } } mutation B { decidePermission(input: { requestId: "x", behavior: ALLOW }) { __typename } }',
    );
    expect(authorize(control, decide, 'A')).toBeNull();
    expect(authorize(control, decide, 'B')?.extensions.code).toBe('FORBIDDEN');
    expect(authorize(read, parse('{ sessions { id } __typename }'), undefined)).toBeNull();
    expect(authorize(control, parse('{ audit { id } }'), undefined)?.message).toMatch(
      /needs admin/,
    );
  });
});

describe('operation limits', () => {
  const check = (query: string, maxDepth = 3, maxCost = 20) =>
    validate(schema, parse(query), [operationLimitsRule({ maxDepth, maxCost })]).map(
      (error) => error.message,
    );

  it('counts depth through fragments, and cost at every spread', () => {
    expect(check('{ sessions { id } }')).toEqual([]);
    expect(check('{ attention { session { events { seq } } } }')).toEqual([
      'operation nests fields 4 deep; the limit is 3',
    ]);
    expect(
      check(
        'query Q { sessions { ...A ...A ...A } } fragment A on Session { ...B ...B } fragment B on Session { id cwd }',
      ),
    ).toEqual([]);
    expect(
      check(
        'query Q { sessions { ...A ...A ...A } } fragment A on Session { ...B ...B } fragment B on Session { id cwd status }',
      ),
    ).toEqual([]);
    expect(
      check(
        'query Q { sessions { ...A ...A ...A ...A } } fragment A on Session { ...B ...B } fragment B on Session { id cwd status }',
      ),
    ).toEqual(['operation Q selects 25 fields; the limit is 20']);
  });

  it("lets GraphiQL's introspection through: an ofType chain adds no depth", () => {
    const introspection = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    expect(check(introspection, 6, 5000)).toEqual([]);
    expect(check(introspection, 5, 5000)).toEqual([
      'operation IntrospectionQuery nests fields 6 deep; the limit is 5',
    ]);
    expect(check('{ __schema { types { fields { type { fields { name } } } } } }', 5)).toEqual([
      'operation nests fields 6 deep; the limit is 5',
    ]);
    // Only introspection's `ofType` goes uncounted: no type of the hub's own has that field.
    const ownTypes = Object.values(schema.getTypeMap()).filter(
      (type) => !type.name.startsWith('__'),
    );
    expect(ownTypes.filter((type) => 'getFields' in type && 'ofType' in type.getFields())).toEqual(
      [],
    );
  });

  it('survives fragment cycles, which validation reports itself', () => {
    expect(check('{ sessions { ...A } } fragment A on Session { id ...A }')).toEqual([]);
  });
});

describe('the bounded parser', () => {
  it('refuses documents of too many tokens, and nesting the parser cannot follow', () => {
    let bounded = (_source: string): DocumentNode => parse(_source);
    guardPlugin({ maxDepth: 12, maxCost: 5000 }).onParse!({
      parseFn: parse,
      setParseFn: (fn: typeof bounded) => (bounded = fn),
    } as never);
    expect(bounded('{ sessions { id } }').definitions).toHaveLength(1);
    expect(() => bounded(`{ ${'a '.repeat(50_001)}}`)).toThrow(
      /contains more (than|that) 50000 tokens/,
    );
    expect(() => bounded(`{ ${'a { '.repeat(8000)}b${' }'.repeat(8000)} }`)).toThrow(
      'the document nests too deeply to parse',
    );
  });
});
