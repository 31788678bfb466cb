import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  execute,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  parse,
  specifiedRules,
  subscribe,
  validate,
  type DocumentNode,
  type GraphQLField,
  type GraphQLObjectType,
  type ValidationRule,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { useOperationLimits, type OperationLimits } from '../../src/auth/operation-limits.js';
import { allows, loadTokens, scopes, Tokens, type Scope } from '../../src/auth/tokens.js';
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

/** The hub's schema run directly, as a principal of each scope; resolvers never reach a hub. */
describe('scopes declared on fields', () => {
  const roots = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!];
  const rootFields = roots.flatMap((type) =>
    Object.values(type.getFields()).map((field) => ({ type, field })),
  );
  const declared = (field: GraphQLField<unknown, unknown>) =>
    (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes;
  /** A context whose hub, audit trail and hooks throw on any use: the check comes first or not at all. */
  const contextOf = (scope: Scope) => {
    const unreachable = new Proxy(
      {},
      {
        get: () => {
          throw new Error('resolver reached');
        },
      },
    );
    return {
      hub: unreachable,
      audit: unreachable,
      rules: unreachable,
      policyFile: unreachable,
      globalHooks: unreachable,
      channels: unreachable,
      schedules: unreachable,
      costs: unreachable,
      turns: unreachable,
      claude: () => {
        throw new Error('resolver reached');
      },
      principal: { name: scope, scope },
      address: '',
    };
  };
  /** The messages of the operation's errors; of its first event's, for a stream that started. */
  const run = async (scope: Scope, query: string): Promise<string[]> => {
    const document = parse(query);
    expect(validate(schema, document)).toEqual([]);
    const args = { schema, document, contextValue: contextOf(scope) };
    const result = query.startsWith('subscription') ? await subscribe(args) : await execute(args);
    if (!(Symbol.asyncIterator in result)) return result.errors?.map((e) => e.message) ?? [];
    // A generator's body runs at its first next().
    return result[Symbol.asyncIterator]()
      .next()
      .then(
        () => ['started'],
        (error: Error) => [error.message],
      );
  };
  /** A document selecting just the field, with made-up arguments that validate. */
  const documentFor = (type: GraphQLObjectType, field: GraphQLField<unknown, unknown>) => {
    const args = field.args
      .filter((arg) => isNonNullType(arg.type))
      .map((arg) => {
        const named = getNamedType(arg.type);
        // A @oneOf input takes exactly one of its fields, none of them required: its first.
        const value = isInputObjectType(named)
          ? `{ ${Object.values(named.getFields())
              .filter((inner, i) => isNonNullType(inner.type) || (named.isOneOf && i === 0))
              .map((inner) => {
                const innerType = getNamedType(inner.type);
                return `${inner.name}: ${isEnumType(innerType) ? innerType.getValues()[0]!.name : innerType.name === 'Int' ? '1' : '"x"'}`;
              })
              .join(', ')} }`
          : isListType(getNullableType(arg.type))
            ? '["x"]'
            : isEnumType(named)
              ? named.getValues()[0]!.name
              : named.name === 'Int'
                ? '1'
                : '"x"';
        return `${arg.name}: ${value}`;
      });
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const operation = type === schema.getQueryType() ? 'query' : type.name.toLowerCase();
    return `${operation} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
  };

  // A new root field without `authScopes` fails here.
  it('has every Query, Mutation and Subscription field declare one scope, and check it', () => {
    const missing = rootFields.filter(({ field }) => {
      const scopeMap = declared(field);
      return (
        typeof scopeMap !== 'object' ||
        scopeMap === null ||
        Object.keys(scopeMap).length !== 1 ||
        !scopes.includes(Object.keys(scopeMap)[0] as Scope)
      );
    });
    expect(missing.map(({ type, field }) => `${type.name}.${field.name}`)).toEqual([]);
    // Pothos marks the resolvers scope-auth wrapped: queries and mutations check as they
    // resolve, subscriptions once, as they subscribe, not for every event they deliver.
    for (const { type, field } of rootFields) {
      const { pothosResolveWrapped, pothosSubscribeWrapped } = field.extensions as Record<
        string,
        boolean
      >;
      const isSubscription = type === schema.getSubscriptionType();
      expect([pothosResolveWrapped, pothosSubscribeWrapped], field.name).toEqual([
        !isSubscription,
        isSubscription,
      ]);
    }
    expect(declared(schema.getQueryType()!.getFields().audit!)).toEqual({ admin: true });
    expect(declared(schema.getMutationType()!.getFields().decidePermission!)).toEqual({
      approve: true,
    });
  });

  it('refuses each scope the fields it lacks, naming the field and the scope it needs', async () => {
    for (const scope of scopes) {
      for (const { type, field } of rootFields) {
        const needed = Object.keys(declared(field) as object)[0] as Scope;
        const errors = await run(scope, documentFor(type, field));
        const operation = type === schema.getQueryType() ? 'query' : type.name.toLowerCase();
        expect(errors, `${scope} ${type.name}.${field.name}`).toEqual([
          allows({ name: scope, scope }, needed)
            ? 'resolver reached'
            : `token "${scope}" has scope ${scope}; ${operation} field ${field.name} needs ${needed}`,
        ]);
      }
    }
    // The grants themselves: admin holds every API scope, control and approve hold read, and a
    // hook token may post hook events and nothing else.
    expect(scopes.map((scope) => scopes.filter((s) => allows({ name: '', scope }, s)))).toEqual([
      ['read'],
      ['read', 'control'],
      ['read', 'approve'],
      ['read', 'control', 'approve', 'admin'],
      ['hook'],
    ]);
  });

  it('checks fields reached through fragments, and gives the refusal FORBIDDEN', async () => {
    const hidden =
      'mutation { ... on Mutation { ...M } } fragment M on Mutation { stopSession(id: "x") { id } }';
    expect(await run('read', hidden)).toEqual([
      'token "read" has scope read; mutation field stopSession needs control',
    ]);
    expect(await run('control', hidden)).toEqual(['resolver reached']);
    const result = await execute({
      schema,
      document: parse('{ session(id: "x") { id } audit { id } }'),
      contextValue: contextOf('approve'),
    });
    expect(result.errors).toMatchObject([
      { message: 'resolver reached', path: ['session'] },
      {
        message: 'token "approve" has scope approve; query field audit needs admin',
        path: ['audit'],
        extensions: { code: 'FORBIDDEN' },
      },
    ]);
  });
});

/** The limit plugins' validation hooks, rules and parser, as yoga runs them. */
function limitsOf(limits: Partial<OperationLimits> = {}) {
  let parseFn: (source: string) => DocumentNode = parse;
  const plugins = useOperationLimits({
    maxDepth: 12,
    maxCost: 50_000,
    maxAliases: 15,
    maxTokens: 50_000,
    ...limits,
  });
  for (const plugin of plugins) {
    plugin.onParse?.({ parseFn, setParseFn: (fn: typeof parseFn) => (parseFn = fn) } as never);
  }
  /** The errors of every check an operation passes: the cost, graphql's rules and the limits. */
  const errors = (query: string, variables?: Record<string, unknown>) => {
    const documentAST = parse(query);
    const rules: ValidationRule[] = [];
    try {
      for (const plugin of plugins) {
        plugin.onValidate?.({
          params: { schema, documentAST },
          context: { params: { query, variables } },
          addValidationRule: (rule: ValidationRule) => rules.push(rule),
        } as never);
      }
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    return validate(schema, documentAST, [...specifiedRules, ...rules]);
  };
  return {
    parse: (source: string) => parseFn(source),
    errors,
    check: (query: string, variables?: Record<string, unknown>) =>
      errors(query, variables).map((error) => error.message),
  };
}

describe('operation limits', () => {
  const graphiqlIntrospection = getIntrospectionQuery({
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    schemaDescription: true,
    inputValueDeprecation: true,
  });

  it('counts depth through fragments, which add none', () => {
    const { check, errors } = limitsOf({ maxDepth: 3 });
    expect(check('{ sessions { id } }')).toEqual([]);
    expect(errors('{ attention { session { events { seq } } } }')).toMatchObject([
      {
        message: 'Query depth limit of 3 exceeded, found 4.',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      },
    ]);
    expect(
      check(
        '{ attention { ...A } } fragment A on AttentionItem { session { ... on Session { id } } }',
      ),
    ).toEqual([]);
    expect(
      check(
        '{ attention { ...A } } fragment A on AttentionItem { session { ... on Session { events { seq } } } }',
      ),
    ).toEqual(['Query depth limit of 3 exceeded, found 4.']);
  });

  it('counts cost at every fragment spread, so a fragment bomb is refused', () => {
    const { check } = limitsOf({ maxCost: 40 });
    // Each spread costs 2 (the spread, and the fragment) besides the fragment's fields.
    expect(
      check(
        'query Q { session(id: "x") { ...A ...A ...A } } fragment A on Session { ...B ...B } fragment B on Session { id cwd status }',
      ),
    ).toEqual([]);
    expect(
      check(
        'query Q { session(id: "x") { ...A ...A ...A ...A } } fragment A on Session { ...B ...B } fragment B on Session { id cwd status }',
      ),
    ).toEqual(['Query Cost limit of 40 exceeded, found 49.']);
    // Eleven fragments, each spreading the one before twice: 2^11 copies of three fields.
    const fragments = Array.from(
      { length: 11 },
      (_, i) => `fragment F${i + 1} on Session { ...F${i} ...F${i} }`,
    ).join('\n');
    expect(
      limitsOf({ maxCost: 5000 }).check(
        `query Bomb { session(id: "x") { ...F11 } }\nfragment F0 on Session { id cwd status }\n${fragments}`,
      ),
    ).toEqual(['Query Cost limit of 5000 exceeded, found 14335.']);
    // A literal `last` multiplies the selection it sizes.
    expect(limitsOf({ maxCost: 400 }).check('{ audit(last: 100) { id actor action } }')).toEqual(
      [],
    );
    expect(limitsOf({ maxCost: 400 }).check('{ audit(last: 101) { id actor action } }')).toEqual([
      'Query Cost limit of 400 exceeded, found 404.',
    ]);
  });

  it('refuses an alias bomb, and too many directives', () => {
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `s${i}: sessions { id }`).join(' ')} __typename t: __typename }`;
    expect(limitsOf().check(aliases(15))).toEqual([]);
    expect(limitsOf().errors(aliases(16))).toMatchObject([
      {
        message: 'Aliases limit of 15 exceeded, found 16.',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      },
    ]);
    expect(limitsOf({ maxAliases: 100 }).check(aliases(16))).toEqual([]);
    const directives = (n: number) =>
      `query($no: Boolean!) { sessions { ${Array.from({ length: n }, (_, i) => `f${i}: id @skip(if: $no)`).join(' ')} } }`;
    expect(limitsOf({ maxAliases: 100 }).check(directives(50))).toEqual([]);
    expect(limitsOf({ maxAliases: 100 }).check(directives(51))).toEqual([
      'Directives limit of 50 exceeded, found 51.',
    ]);
  });

  it("lets GraphiQL's introspection through the defaults, and bounds introspection that multiplies", () => {
    expect(limitsOf().check(graphiqlIntrospection)).toEqual([]);
    expect(limitsOf().check(getIntrospectionQuery())).toEqual([]);
    // The depth rule skips __schema, whose ofType chains GraphiQL nests 9 deep; graphql's own
    // rule refuses nesting the lists that multiply, and the cost rule counts every field.
    const bomb =
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }';
    expect(limitsOf().check(bomb)).toEqual(['Maximum introspection depth exceeded']);
    expect(limitsOf({ maxCost: 200 }).check(graphiqlIntrospection)).toEqual([
      'Query Cost limit of 200 exceeded, found 249.',
    ]);
  });

  it('survives fragment cycles, which validation reports itself', () => {
    expect(limitsOf().check('{ sessions { ...A } } fragment A on Session { id ...A }')).toEqual([
      'Cannot spread fragment "A" within itself.',
    ]);
  });

  it('refuses documents of too many tokens, and nesting the parser cannot follow', () => {
    const { parse: bounded } = limitsOf({ maxTokens: 1000 });
    expect(bounded('{ sessions { id } }').definitions).toHaveLength(1);
    expect(() => bounded(`{ ${'a '.repeat(1001)}}`)).toThrow(
      /contains more (than|that) 1000 tokens/,
    );
    const deep = limitsOf().parse;
    expect(() => deep(`{ ${'a { '.repeat(8000)}b${' }'.repeat(8000)} }`)).toThrow(
      'the document nests too deeply to parse',
    );
  });
});
