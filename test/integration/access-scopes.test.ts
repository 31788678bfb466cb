import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
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
import { hookSecret } from '../../harness/session-secret.js';
import { accessCalls, as, secrets, startAccessHub, type Role } from '../helpers/access-hub.js';
import type { ClaudeWorld } from '../helpers/claude-world.js';
import type { TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';
import { openSse } from '../helpers/sse.js';

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

describe('tokens and scopes', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  let session: { id: string; tmuxSession: string };
  let other: { id: string; tmuxSession: string };
  let root: string;
  const { post, gqlAs, connect } = accessCalls(() => hub);

  beforeAll(async () => {
    ({ world, hub, session, other, root } = await startAccessHub());
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
});
