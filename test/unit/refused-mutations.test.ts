import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import type { AuditLog, AuditRecord } from '../../src/audit/audit-log.js';
import { mutationInText, useRefusedMutationAudit } from '../../src/audit/refused-mutations.js';
import { useOperationLimits } from '../../src/auth/operation-limits.js';

describe('the mutation in a document that does not parse', () => {
  it.each([
    ['mutation { stopSession(id: "a") { id ', 'stopSession'],
    ['mutation M($x: In = { a: 1 }) { s: sendKeys(sessionId: "a"', 'sendKeys'],
    ['query Q { a } mutation { ...F', 'mutation'],
    ['mutation', 'mutation'],
    ['{ stopSession(id: "a") ', null],
    ['query { a } fragment F on Mutation { stopSession(id: "', null],
    ['mutation { \u0001', 'mutation'],
  ])('%j names %j', (source, action) => {
    expect(mutationInText(source)).toBe(action);
  });
});

describe('useRefusedMutationAudit', () => {
  const written: AuditRecord[] = [];
  const audit = { record: (entry: AuditRecord) => written.push(entry) } as unknown as AuditLog;
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: `
        type Query { ok: Boolean }
        type Message { text: String }
        type Session { id: ID! messages(last: Int): [Message!]! }
        type Mutation { createSession(cwd: String!): Session! }
      `,
      resolvers: {
        Mutation: { createSession: () => ({ id: 's1', messages: [] }) },
      },
    }),
    // In the hub's order: the limits first, whose cost check throws before validation.
    plugins: [
      ...useOperationLimits({ maxDepth: 10, maxCost: 100, maxAliases: 10, maxTokens: 1000 }),
      useRefusedMutationAudit(audit),
    ],
    logging: false,
  });
  const caller = {
    principal: { name: 'read-bot', scope: 'read' },
    req: { socket: { remoteAddress: '127.0.0.1' } },
  };
  // createSession, id, and messages with its text once for each of its items: 202 with last: 100.
  const overCost =
    'mutation($n: Int) { createSession(cwd: "/") { id messages(last: $n) { text } } }';
  const refusal = {
    actor: 'read-bot',
    address: '127.0.0.1',
    action: 'createSession',
    sessionId: null,
    target: null,
    outcome: 'QUERY_TOO_COMPLEX',
    detail: { refused: 'Query Cost limit of 100 exceeded, found 202.' },
  };
  const post = async (query: string, variables: Record<string, unknown>) => {
    const response = await yoga.fetch(
      'http://hub/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      },
      caller,
    );
    return (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  };

  it('writes a mutation its cost refuses, over HTTP, and not the same one within it', async () => {
    written.length = 0;
    expect((await post(overCost, { n: 100 })).errors?.[0]?.extensions?.code).toBe(
      'QUERY_TOO_COMPLEX',
    );
    expect((await post(overCost, { n: 5 })).errors).toBeUndefined();
    expect(written).toEqual([refusal]);
  });

  it('writes it through the envelop graphql-ws uses', () => {
    written.length = 0;
    const params = { query: overCost, variables: { n: 100 } };
    const enveloped = yoga.getEnveloped({ ...caller, params });
    const document = enveloped.parse(params.query);
    expect(() => enveloped.validate(enveloped.schema, document)).toThrow(
      'Query Cost limit of 100 exceeded, found 202.',
    );
    expect(written).toEqual([refusal]);
  });

  it('writes no query its cost refuses', async () => {
    written.length = 0;
    expect((await post(`{ ${'ok '.repeat(150)}}`, {})).errors?.[0]?.extensions?.code).toBe(
      'QUERY_TOO_COMPLEX',
    );
    expect(written).toEqual([]);
  });
});
