import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import {
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
} from 'graphql';
import { createClient } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { schema } from '../../src/schema/index.js';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';
import { hookSecret } from '../../harness/session-secret.js';
import { openSse } from '../helpers/sse.js';

const secrets = {
  admin: 'admin-secret-0123456789',
  control: 'control-secret-0123456789',
  approve: 'approve-secret-0123456789',
  read: 'read-secret-0123456789',
};
type Role = keyof typeof secrets;

/** A value of the type that passes validation; what it names need not exist. */
function dummy(type: GraphQLInputType): string {
  if (isNonNullType(type)) return dummy(type.ofType);
  if (isListType(type)) return `[${dummy(type.ofType)}]`;
  const named = getNamedType(type);
  if (isEnumType(named)) return named.getValues()[0]!.name;
  if (isInputObjectType(named)) {
    // A oneOf input takes exactly one of its fields.
    const all = Object.values(named.getFields());
    const fields = named.isOneOf
      ? all.slice(0, 1)
      : all.filter((field) => isNonNullType(field.type));
    return `{ ${fields.map((field) => `${field.name}: ${dummy(field.type)}`).join(', ')} }`;
  }
  return { Int: '1', Float: '1', Boolean: 'true', JSON: '{}' }[named.name] ?? '"x"';
}

/** Every mutation of the schema, as a document that validates. */
const mutations = Object.values(schema.getMutationType()!.getFields()).map((field) => {
  const args = field.args.filter((arg) => isNonNullType(arg.type));
  const list = args.map((arg) => `${arg.name}: ${dummy(arg.type)}`).join(', ');
  return {
    name: field.name,
    query: `mutation { ${field.name}${list ? `(${list})` : ''}${isLeafType(getNamedType(field.type)) ? '' : ' { __typename }'} }`,
  };
});

describe('tokens, scopes, browser checks and limits', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let session: { id: string; tmuxSession: string };
  let other: { id: string; tmuxSession: string };
  let root: string;

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const as = (role: Role) => ({ authorization: `Bearer ${secrets[role]}` });
  const gqlAs = async (role: Role, query: string, variables: Record<string, unknown> = {}) =>
    (await (await post({ query, variables }, as(role))).json()) as {
      data?: Record<string, any>;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  /** Opens a graphql-ws connection; resolves with its close event, or 'open' once acked. */
  const connect = (
    connectionParams: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    new Promise<{ code: number; reason: string } | 'open'>((resolve) => {
      const client = createClient({
        url: hub.url.replace(/^http/, 'ws'),
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers });
          }
        },
        retryAttempts: 0,
        lazy: false,
        connectionParams,
        // The close is the outcome under test, resolved from `closed`; by default it is printed.
        onNonLazyError: () => undefined,
        on: {
          connected: () => {
            resolve('open');
            void client.dispose();
          },
          closed: (event) => resolve(event as { code: number; reason: string }),
        },
      });
    });

  beforeAll(async () => {
    world = await startClaudeWorld();
    root = world.makeCwd('allowed');
    const tokensFile = writeTokensFile(path.join(root, '..'), tokensByScope(secrets));
    hub = await startHub({
      env: world.env,
      token: secrets.admin,
      args: [
        '--claude-bin',
        claudeBin,
        '--tokens-file',
        tokensFile,
        '--allowed-root',
        root,
        '--cors-origin',
        'https://dash.example',
        '--max-sessions',
        '2',
        '--max-subscriptions',
        '2',
        '--max-connections',
        '3',
        '--max-graphql-body',
        '100000',
      ],
    });
    const create = `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`;
    mkdirSync(path.join(root, 'a'));
    mkdirSync(path.join(root, 'b'));
    ({ createSession: session } = await hub.data(create, { cwd: path.join(root, 'a') }));
    const created = await gqlAs('control', create, { cwd: path.join(root, 'b') });
    other = created.data!.createSession;
  });

  it('refuses every endpoint without a token or with a wrong one, with 401 and a code', async () => {
    for (const authorization of [undefined, 'Bearer wrong-secret-0123456789', 'Basic YWJj']) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const responses = await Promise.all([
        post({ query: '{ sessions { id } }' }, headers),
        fetch(`${hub.url}?query=${encodeURIComponent('{ sessions { id } }')}`, { headers }),
        fetch(`${hub.url}?query=${encodeURIComponent(`subscription { sessionUpdates { id } }`)}`, {
          headers: { ...headers, accept: 'text/event-stream' },
        }),
        fetch(`${hub.baseUrl}/sessions/${session.id}/events`, { headers }),
      ]);
      for (const response of responses) {
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      }
      const params = authorization ? { authorization } : {};
      expect(await connect(params)).toMatchObject({
        code: 4403,
        reason: authorization?.startsWith('Bearer') ? 'unknown token' : 'missing token',
      });
    }
    // GraphiQL's page is static: it loads without a token, which goes in its headers pane.
    const page = await fetch(hub.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('claude-code-hub');
    expect(await connect({}, as('read'))).toBe('open');
    expect(await connect({ token: secrets.read })).toBe('open');
  });

  it('lets a read token query and subscribe, and refuses it every mutation', async () => {
    expect((await gqlAs('read', '{ sessions { id } }')).data!.sessions).toHaveLength(2);
    for (const mutation of mutations) {
      const result = await gqlAs('read', mutation.query);
      expect(result.errors?.[0], mutation.name).toMatchObject({
        extensions: { code: 'FORBIDDEN' },
      });
      expect(result.errors?.[0]?.message).toMatch(
        /token "read-bot" has scope read; mutation field \w+ needs (control|approve|admin)/,
      );
    }
    const client = createClient({
      url: hub.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${secrets.read}` },
    });
    const first = await new Promise<Record<string, any>>((resolve, reject) => {
      client.subscribe(
        {
          query: `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq eventName } }`,
          variables: { id: session.id },
        },
        { next: (result) => resolve(result), error: reject, complete: () => undefined },
      );
    });
    expect(first.data).toEqual({ sessionEvents: { seq: 1, eventName: 'SessionStart' } });
    await client.dispose();
    const sse = openSse(`${hub.baseUrl}/sessions/${session.id}/events?after=0`, {
      headers: as('read'),
    });
    expect(await sse.status).toBe(200);
    expect(JSON.parse((await sse.next()).data)).toMatchObject({ hook_event_name: 'SessionStart' });
    sse.dispose();
  });

  it('keeps decisions to approve and admin, and the audit trail to admin', async () => {
    const decide = `mutation { decidePermission(input: { requestId: "nope", behavior: ALLOW }) { error { code } } }`;
    expect((await gqlAs('control', decide)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gqlAs('approve', decide)).data).toEqual({
      decidePermission: { error: { code: 'NOT_FOUND' } },
    });
    const create = `mutation { createSession(input: { cwd: "/" }) { id } }`;
    expect((await gqlAs('approve', create)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    for (const role of ['read', 'control', 'approve'] as const) {
      expect((await gqlAs(role, '{ audit { id } }')).errors?.[0]?.extensions?.code).toBe(
        'FORBIDDEN',
      );
    }
  });

  it('refuses each scope the fields it lacks over HTTP, SSE and graphql-ws, naming field and scope', async () => {
    const stop = 'mutation { stopSession(id: "no-such-session") { id } }';
    const decide = `mutation { decidePermission(input: { requestId: "nope", behavior: DENY }) { error { code } } }`;
    const audit = '{ audit(last: 1) { id } }';
    /** Per scope, operations it may not run: the field, and the scope that field needs. */
    const lacking: Record<Exclude<Role, 'admin'>, [string, string, string][]> = {
      read: [
        [stop, 'mutation field stopSession', 'control'],
        [decide, 'mutation field decidePermission', 'approve'],
        [audit, 'query field audit', 'admin'],
      ],
      control: [
        [decide, 'mutation field decidePermission', 'approve'],
        [audit, 'query field audit', 'admin'],
      ],
      approve: [
        [stop, 'mutation field stopSession', 'control'],
        [audit, 'query field audit', 'admin'],
      ],
    };
    type Result = { data?: unknown; errors?: { message: string; extensions?: object }[] };
    const overSse = async (role: Role, query: string): Promise<Result> => {
      const stream = openSse(hub.url, {
        method: 'POST',
        headers: { ...as(role), 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query }),
      });
      expect(await stream.status).toBe(200);
      const next = await stream.next();
      stream.dispose();
      expect(next.event).toBe('next');
      return JSON.parse(next.data) as Result;
    };
    const overWebSocket = (role: Role, query: string) =>
      new Promise<Result>((resolve, reject) => {
        const client = createClient({
          url: hub.url.replace(/^http/, 'ws'),
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          connectionParams: { token: secrets[role] },
        });
        let result: Result = {};
        client.subscribe<unknown>(
          { query },
          {
            next: (value) => (result = value as Result),
            error: reject,
            complete: () => void Promise.resolve(client.dispose()).then(() => resolve(result)),
          },
        );
      });
    const transports = {
      http: (role: Role, query: string) => gqlAs(role, query) as Promise<Result>,
      sse: overSse,
      'graphql-ws': overWebSocket,
    };
    for (const [role, operations] of Object.entries(lacking) as [
      Role,
      [string, string, string][],
    ][]) {
      for (const [query, field, needed] of operations) {
        for (const [transport, run] of Object.entries(transports)) {
          expect(await run(role, query), `${role} ${field} over ${transport}`).toMatchObject({
            data: null,
            errors: [
              {
                message: `token "${role}-bot" has scope ${role}; ${field} needs ${needed}`,
                extensions: { code: 'FORBIDDEN' },
              },
            ],
          });
        }
      }
    }
    // Admin lacks none of them; each runs and answers for itself.
    for (const run of Object.values(transports)) {
      expect(await run('admin', decide)).toEqual({
        data: { decidePermission: { error: { code: 'NOT_FOUND' } } },
      });
      expect(await run('admin', audit)).toMatchObject({
        data: { audit: [{ id: expect.any(Number) }] },
      });
    }
  });

  it('writes who did what, to which session, from where, and how it ended', async () => {
    const message = await gqlAs(
      'control',
      `mutation($id: ID!) { enqueueMessage(sessionId: $id, text: "hello from control") { id } }`,
      { id: other.id },
    );
    await gqlAs('control', `mutation { stopSession(id: "no-such-session") { id } }`);
    await gqlAs(
      'approve',
      `mutation { decidePermission(input: { requestId: "nope", behavior: DENY, message: "no" }) { error { code } } }`,
    );
    const { audit } = await hub.data(
      `{ audit(last: 50) { actor address action sessionId target outcome detail } }`,
    );
    expect(audit).toEqual(
      expect.arrayContaining([
        {
          actor: 'admin-bot',
          address: '127.0.0.1',
          action: 'createSession',
          sessionId: session.id,
          target: null,
          outcome: 'ok',
          detail: expect.objectContaining({ cwd: path.join(root, 'a') }),
        },
        expect.objectContaining({
          actor: 'control-bot',
          action: 'createSession',
          sessionId: other.id,
        }),
        {
          actor: 'control-bot',
          address: '127.0.0.1',
          action: 'enqueueMessage',
          sessionId: other.id,
          target: message.data!.enqueueMessage.id,
          outcome: 'ok',
          detail: { text: 'hello from control', length: 18, kind: 'PROMPT' },
        },
        expect.objectContaining({
          actor: 'control-bot',
          action: 'stopSession',
          sessionId: 'no-such-session',
          outcome: 'SESSION_NOT_FOUND',
        }),
        expect.objectContaining({
          actor: 'approve-bot',
          action: 'decidePermission',
          target: 'nope',
          outcome: 'NOT_FOUND',
          detail: { behavior: 'DENY', message: 'no' },
        }),
      ]),
    );
    const { audit: ofOther } = await hub.data(
      `query($id: ID) { audit(sessionId: $id) { action } }`,
      { id: other.id },
    );
    expect(ofOther.map((entry: { action: string }) => entry.action)).toEqual([
      'createSession',
      'enqueueMessage',
    ]);
  });

  it('never lets a forged hook event reach a subscriber or the log', async () => {
    const secret = await hookSecret(hub.config.tmuxSocket, session.tmuxSession);
    const otherSecret = await hookSecret(hub.config.tmuxSocket, other.tmuxSession);
    const { session: before } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { seq } } }`,
      { id: session.id },
    );
    const from = before.events.at(-1).seq;
    const events = hub.subscribe(
      `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq payload } }`,
      { id: session.id, after: from },
    );
    const hook = (auth: string | null, payload: object) =>
      fetch(`${hub.baseUrl}/hooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(auth === null ? {} : { authorization: `Bearer ${auth}` }),
        },
        body: JSON.stringify(payload),
      });
    const forged = { session_id: session.id, hook_event_name: 'Notification', message: 'forged' };
    for (const auth of [null, 'wrong-secret', otherSecret, secrets.admin]) {
      const response = await hook(auth, forged);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const real = { session_id: session.id, hook_event_name: 'Notification', message: 'real' };
    expect((await hook(secret, real)).status).toBe(200);
    const next = await events.next();
    expect(next.sessionEvents).toMatchObject({ seq: from + 1, payload: { message: 'real' } });
    const { session: after } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { payload } } }`,
      { id: session.id },
    );
    expect(JSON.stringify(after.events)).not.toContain('forged');
    events.dispose();
  });

  it('keeps secrets out of argv, logs and the API, and settings files private', async () => {
    const secret = await hookSecret(hub.config.tmuxSocket, session.tmuxSession);
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      expect(cmdline).not.toContain(secret);
      expect(cmdline).not.toContain(world.env.ANTHROPIC_API_KEY);
    }
    const everything = JSON.stringify(
      await hub.data(`{ sessions { id tmuxSession attachCommand cwd error } audit { detail } }`),
    );
    for (const text of [hub.logs.join('\n'), everything]) {
      expect(text).not.toContain(secret);
      for (const token of Object.values(secrets)) expect(text).not.toContain(token);
    }
    const settings = path.join(hub.dataDir, 'sessions', `${session.id}.settings.json`);
    expect(statSync(settings).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(settings)).mode & 0o777).toBe(0o700);
  });

  it('refuses browser requests from other origins, and form or text bodies', async () => {
    const query = JSON.stringify({ query: '{ sessions { id } }' });
    const cases: [Record<string, string>, number, string][] = [
      [{ 'content-type': 'text/plain' }, 403, 'CSRF_REFUSED'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 403, 'CSRF_REFUSED'],
      [
        { 'content-type': 'application/json', origin: 'https://evil.example' },
        403,
        'ORIGIN_NOT_ALLOWED',
      ],
    ];
    for (const [headers, status, code] of cases) {
      const response = await fetch(hub.url, {
        method: 'POST',
        headers: { ...as('admin'), ...headers },
        body: query,
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ code });
    }
    const allowed = await post(query, { ...as('read'), origin: 'https://dash.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    const preflight = await fetch(hub.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dash.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(
      await connect({ token: secrets.read }, { origin: 'https://evil.example' }),
    ).toMatchObject({
      code: 1006,
    });
    expect(await connect({ token: secrets.read }, { origin: 'https://dash.example' })).toBe('open');
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

describe('a hub without tokens', () => {
  let hub: TestHub;

  beforeAll(async () => {
    hub = await startHub();
  });

  it('serves loopback callers as local admins and refuses DNS-rebound hosts', async () => {
    expect(await hub.data('{ audit { id } }')).toEqual({ audit: [] });
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ query: '{ sessions { id } }' });
        const req = request(
          hub.url,
          {
            method: 'POST',
            headers: { host, 'content-type': 'application/json', 'content-length': body.length },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await status('attacker.example:4000')).toBe(403);
    expect(await status(`localhost:${new URL(hub.url).port}`)).toBe(200);
  });
});
