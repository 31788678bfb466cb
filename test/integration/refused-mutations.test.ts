import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';
import { createClient } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

const secrets = {
  admin: 'admin-secret-0123456789',
  control: 'control-secret-0123456789',
  read: 'read-secret-0123456789',
};
type Role = keyof typeof secrets;

interface Entry {
  actor: string;
  address: string;
  action: string;
  sessionId: string | null;
  target: string | null;
  outcome: string;
  detail: Record<string, unknown>;
}

describe('the audit trail of refused mutations', () => {
  let hub: TestHub;
  let dir: string;

  const send = async (role: Role, body: unknown, method = 'POST') => {
    const headers = { authorization: `Bearer ${secrets[role]}` };
    const response =
      method === 'GET'
        ? await fetch(`${hub.url}?${new URLSearchParams(body as Record<string, string>)}`, {
            headers,
          })
        : await fetch(hub.url, {
            method,
            headers: { ...headers, 'content-type': 'application/json' },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          });
    return (await response.json()) as {
      data?: Record<string, unknown> | null;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  };
  /** The entries written since the one with id `after`, read with the admin token. */
  const auditAfter = async (after: number): Promise<Entry[]> => {
    const { audit } = await hub.data<{ audit: (Entry & { id: number })[] }>(
      '{ audit(last: 100) { id actor address action sessionId target outcome detail } }',
    );
    return audit.filter((entry) => entry.id > after).map(({ id: _id, ...entry }) => entry);
  };
  const lastId = async () => {
    const { audit } = await hub.data<{ audit: { id: number }[] }>('{ audit(last: 1) { id } }');
    return audit[0]?.id ?? 0;
  };

  /** The errors of one operation sent over graphql-ws with the token's secret. */
  const overGraphqlWs = async (secret: string, query: string): Promise<unknown> => {
    const client = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${secret}` },
    });
    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query },
        { next: (result) => resolve(result.errors), error: resolve, complete: () => undefined },
      );
    });
    await client.dispose();
    return errors;
  };

  beforeAll(async () => {
    dir = tempDir('cch-refused-');
    const tokensFile = writeTokensFile(dir, tokensByScope(secrets));
    hub = await startHub({
      token: secrets.admin,
      args: [
        '--tokens-file',
        tokensFile,
        '--max-aliases',
        '3',
        '--max-tokens',
        '3000',
        // Above what reading the trail costs (801), below two sessions' 1000 messages.
        '--max-query-cost',
        '5000',
      ],
    });
  });

  it("writes a read token's refused stopSession with who, what and FORBIDDEN", async () => {
    const before = await lastId();
    const result = await send('read', {
      query: 'mutation($id: ID!) { stopSession(id: $id) { id } }',
      variables: { id: 'some-session' },
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await auditAfter(before)).toEqual([
      {
        actor: 'read-bot',
        address: '127.0.0.1',
        action: 'stopSession',
        sessionId: 'some-session',
        target: null,
        outcome: 'FORBIDDEN',
        detail: {
          refused: 'token "read-bot" has scope read; mutation field stopSession needs control',
        },
      },
    ]);
  });

  it('writes refusals by validation, size limits, variables and method with their codes', async () => {
    const before = await lastId();
    const refusals: [Role, unknown, string?][] = [
      ['control', { query: 'mutation { stopSession(id: "a", force: true) { id } }' }],
      [
        'control',
        {
          query:
            'mutation { a: stopSession(id: "a") { id } b: interruptSession(id: "b") { id } c: stopSession(id: "c") { id } d: stopSession(id: "d") { id } }',
        },
      ],
      ['control', { query: 'mutation($id: ID!) { stopSession(id: $id) { id } }', variables: {} }],
      ['control', { query: `mutation { stopSession(id: "a") { ${'id '.repeat(3500)}} }` }],
      ['control', { query: 'mutation { sendKeys(sessionId: "a", keys: ["Enter"] { id } }' }],
      ['control', { query: 'mutation { stopSession(id: "a") { id } }' }, 'GET'],
    ];
    const codes = [];
    for (const [role, body, method] of refusals) {
      codes.push((await send(role, body, method)).errors?.[0]?.extensions?.code);
    }
    expect(codes).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
      'QUERY_TOO_COMPLEX',
      'BAD_USER_INPUT',
      'GRAPHQL_PARSE_FAILED',
      'GRAPHQL_PARSE_FAILED',
      'BAD_REQUEST',
    ]);
    const entries = await auditAfter(before);
    expect(entries.map(({ actor, action, outcome }) => ({ actor, action, outcome }))).toEqual([
      { actor: 'control-bot', action: 'stopSession', outcome: 'GRAPHQL_VALIDATION_FAILED' },
      {
        actor: 'control-bot',
        action: 'stopSession,interruptSession',
        outcome: 'QUERY_TOO_COMPLEX',
      },
      { actor: 'control-bot', action: 'stopSession', outcome: 'BAD_USER_INPUT' },
      { actor: 'control-bot', action: 'stopSession', outcome: 'GRAPHQL_PARSE_FAILED' },
      { actor: 'control-bot', action: 'sendKeys', outcome: 'GRAPHQL_PARSE_FAILED' },
      { actor: 'control-bot', action: 'stopSession', outcome: 'BAD_REQUEST' },
    ]);
    expect(entries[0]!.detail.refused).toMatch(/Unknown argument "force"/);
    expect(entries[2]!.detail.refused).toMatch(/Variable "\$id" of required type "ID!"/);
    expect(entries[3]!.detail.refused).toMatch(/contains more th\w+ 3000 tokens/);
  });

  /** Two sessions' last 1000 messages: 2 + 1000 x (messages, id, text) each, 6004 in all. */
  const overCost = `mutation {
    a: createSession(input: { cwd: "/tmp", name: "a" }) { id messages(last: 1000) { id text } }
    b: createSession(input: { cwd: "/tmp", name: "b" }) { id messages(last: 1000) { id text } }
  }`;

  it('writes a mutation refused for its cost, for any scope, with QUERY_TOO_COMPLEX', async () => {
    const before = await lastId();
    for (const role of ['read', 'admin'] as const) {
      const { data, errors } = await send(role, { query: overCost });
      expect(data).toBeUndefined();
      expect(errors).toEqual([
        {
          message: 'Query Cost limit of 5000 exceeded, found 6004.',
          extensions: { code: 'QUERY_TOO_COMPLEX' },
        },
      ]);
    }
    expect(await auditAfter(before)).toEqual(
      ['read-bot', 'admin-bot'].map((actor) => ({
        actor,
        address: '127.0.0.1',
        action: 'createSession',
        sessionId: null,
        target: null,
        outcome: 'QUERY_TOO_COMPLEX',
        detail: { refused: 'Query Cost limit of 5000 exceeded, found 6004.' },
      })),
    );
    const { sessions } = await hub.data<{ sessions: unknown[] }>('{ sessions { id } }');
    expect(sessions).toEqual([]);
  });

  it('writes a failed mutation once, and refused queries not at all', async () => {
    const before = await lastId();
    expect(
      (await send('control', { query: 'mutation { stopSession(id: "gone") { id } }' })).errors?.[0]
        ?.extensions?.code,
    ).toBe('SESSION_NOT_FOUND');
    expect((await send('read', { query: '{ audit { id } }' })).errors?.[0]?.extensions?.code).toBe(
      'FORBIDDEN',
    );
    expect(
      (await send('read', { query: '{ sessions { nope } }' })).errors?.[0]?.extensions?.code,
    ).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await auditAfter(before)).toEqual([
      expect.objectContaining({
        actor: 'control-bot',
        action: 'stopSession',
        sessionId: 'gone',
        outcome: 'SESSION_NOT_FOUND',
      }),
    ]);
  });

  it('writes a refusal over graphql-ws', async () => {
    const before = await lastId();
    const errors = await overGraphqlWs(
      secrets.read,
      'mutation { sendKeys(sessionId: "s1", keys: ["Enter"]) { id } decidePermission(input: { requestId: "r1", behavior: ALLOW }) { error { code } } }',
    );
    expect(errors).toEqual([
      expect.objectContaining({ extensions: { code: 'FORBIDDEN' }, path: ['sendKeys'] }),
    ]);
    // Mutation fields run one after the other; the first refusal nulls the whole result.
    expect(await auditAfter(before)).toEqual([
      expect.objectContaining({
        actor: 'read-bot',
        action: 'sendKeys',
        sessionId: 's1',
        outcome: 'FORBIDDEN',
      }),
    ]);
  });

  it('writes a mutation refused for its cost over graphql-ws', async () => {
    const before = await lastId();
    const errors = await overGraphqlWs(secrets.admin, overCost);
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'Query Cost limit of 5000 exceeded, found 6004.',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      }),
    ]);
    expect(await auditAfter(before)).toEqual([
      {
        actor: 'admin-bot',
        address: '127.0.0.1',
        action: 'createSession',
        sessionId: null,
        target: null,
        outcome: 'QUERY_TOO_COMPLEX',
        detail: { refused: 'Query Cost limit of 5000 exceeded, found 6004.' },
      },
    ]);
  });
});
