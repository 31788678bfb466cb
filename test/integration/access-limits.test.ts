import { symlinkSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { createClient } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { accessCalls, as, secrets, startAccessHub } from '../helpers/access-hub.js';
import type { ClaudeWorld } from '../helpers/claude-world.js';
import type { TestHub } from '../helpers/hub.js';
import { startHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';
import { openSse } from '../helpers/sse.js';

describe('limits', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let session: { id: string; tmuxSession: string };
  let root: string;
  const { post, gqlAs, connect } = accessCalls(() => hub);

  beforeAll(async () => {
    ({ world, hub, session, root } = await startAccessHub());
  });

  it('bounds bodies, query depth and cost, and the parser', async () => {
    const big = await post({ query: `{ sessions { id } } # ${'x'.repeat(150_000)}` }, as('read'));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        hub.url,
        { method: 'POST', headers: { ...as('read'), 'content-type': 'application/json' } },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.write('{"query":');
      req.end('"{ sessions { id } }"}');
    });
    expect(chunked.status).toBe(411);
    const deep = await gqlAs('read', `{ sessions { ${'a { '.repeat(12)}b${' }'.repeat(12)} } }`);
    expect(deep.errors).toContainEqual(
      expect.objectContaining({
        message: 'Query depth limit of 12 exceeded, found 14.',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      }),
    );
    // Eleven fragments, each spreading the one before twice: 2^11 copies of three fields.
    const fragments = Array.from(
      { length: 11 },
      (_, i) => `fragment F${i + 1} on Session { ...F${i} ...F${i} }`,
    ).join('\n');
    const bomb = await gqlAs(
      'read',
      `query Bomb { sessions { ...F11 } }\nfragment F0 on Session { id cwd status }\n${fragments}`,
    );
    expect(bomb.errors).toEqual([
      {
        message: 'Query Cost limit of 50000 exceeded, found 1433500.',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      },
    ]);
    // One field asked for 16 times over, under as many aliases: over HTTP and graphql-ws alike.
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `s${i}: sessions { id }`).join(' ')} }`;
    const tooMany = {
      message: 'Aliases limit of 15 exceeded, found 16.',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    };
    expect((await gqlAs('read', aliases)).errors).toEqual([tooMany]);
    const client = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { token: secrets.read },
    });
    const refused = await new Promise((resolve) =>
      client.subscribe(
        { query: aliases },
        { next: resolve, error: resolve, complete: () => undefined },
      ),
    );
    await client.dispose();
    expect(refused).toMatchObject([tooMany]);
    // GraphiQL's introspection query fits the default limits (its ofType chains nest 9 deep).
    const introspection = await gqlAs(
      'read',
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    expect(introspection.errors).toBeUndefined();
    expect(introspection.data!.__schema.queryType).toMatchObject({ name: 'Query' });
    const nested = await gqlAs('read', `{ ${'a { '.repeat(8000)}b${' }'.repeat(8000)} }`);
    expect(nested.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const deepInput = await gqlAs(
      'admin',
      `mutation($input: JSON) { decidePermission(input: { requestId: "x", behavior: ALLOW, updatedInput: $input }) { error { code } } }`,
      { input: JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`) },
    );
    expect(deepInput.errors?.[0]).toMatchObject({
      message: expect.stringContaining('JSON values may nest at most 256 levels'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('bounds subscriptions per connection, connections per token, sessions, and cwd', async () => {
    const client = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { token: secrets.read },
    });
    // A subscription runs once its first replayed event arrives; the refused one gets an error.
    const outcomes: Promise<string>[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(
        new Promise((resolve) => {
          client.subscribe(
            {
              query: 'subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }',
              variables: { id: session.id },
            },
            {
              next: () => resolve('running'),
              error: (error) => resolve(JSON.stringify(error)),
              complete: () => resolve('complete'),
            },
          );
        }),
      );
    }
    const results = await Promise.all(outcomes);
    expect(results.filter((result) => result === 'running')).toHaveLength(2);
    expect(results.find((result) => result !== 'running')).toContain('TOO_MANY_SUBSCRIPTIONS');
    // That connection is one of read-bot's three; a second and an event stream fill them.
    const second = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { token: secrets.read },
    });
    await new Promise((resolve) => second.on('connected', resolve));
    const stream = openSse(`${hub.baseUrl}/sessions/${session.id}/events`, { headers: as('read') });
    expect(await stream.status).toBe(200);
    expect(await connect({ token: secrets.read })).toMatchObject({
      code: 4029,
      reason: 'token "read-bot" has too many connections',
    });
    const refused = await fetch(`${hub.baseUrl}/sessions/${session.id}/events`, {
      headers: as('read'),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_CONNECTIONS' });
    expect(await connect({ token: secrets.control })).toBe('open');
    stream.dispose();
    await second.dispose();
    await client.dispose();

    const create = `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id } }`;
    const limit = await gqlAs('admin', create, { cwd: root });
    expect(limit.errors?.[0]?.extensions?.code).toBe('SESSION_LIMIT');
    const outside = world.makeCwd('outside');
    symlinkSync(outside, path.join(root, 'link'));
    for (const cwd of [
      outside,
      path.join(root, 'link'),
      path.join(root, '..', path.basename(outside)),
    ]) {
      const result = await gqlAs('admin', create, { cwd });
      expect(result.errors?.[0], cwd).toMatchObject({
        message: expect.stringContaining(`cwd ${outside} is outside the allowed roots`),
        extensions: { code: 'CWD_NOT_ALLOWED' },
      });
    }
  });
});

describe("limits below what the hub's own clients send", () => {
  disposeWithSuite();

  it('start the hub all the same: the operations they refuse are not warmed, and they are refused', async () => {
    const hub = await startHub({ args: ['--max-query-cost', '20'] });
    expect(await hub.data(`{ __typename }`)).toEqual({ __typename: 'Query' });
    const list = await hub.gql(`{ sessions { id labels events(limit: 100) { seq } } }`);
    expect(list.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });
});
