import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RouteAccess, type RouteName } from '../../src/server/routes.js';
import { hookSession } from '../helpers/hook-session.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

/** Every kind of caller: a token of each scope, none, and one the hub does not know. */
const principals = [
  'read',
  'control',
  'approve',
  'admin',
  'hook',
  'no token',
  'unknown token',
] as const;
type Caller = (typeof principals)[number];

const secrets: Record<Exclude<Caller, 'no token'>, string> = {
  read: 'route-read-secret-0123456789',
  control: 'route-control-secret-0123456789',
  approve: 'route-approve-secret-0123456789',
  admin: 'route-admin-secret-0123456789',
  hook: 'route-hook-secret-0123456789',
  'unknown token': 'route-unknown-secret-0123456789',
};

const authorization = (caller: Caller): Record<string, string> =>
  caller === 'no token' ? {} : { authorization: `Bearer ${secrets[caller]}` };

/** What a caller gets: the status, the code of a refusal, and text a served answer holds. */
interface Outcome {
  readonly status: number;
  readonly code?: string;
  readonly shows?: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

interface RouteCase {
  /** The access the route table must declare. */
  readonly access: RouteAccess;
  /** Asks the route as `caller`. */
  readonly ask: (caller: Caller) => Promise<Answer>;
  readonly outcomes: Record<Caller, Outcome>;
  /** Text only a served answer may hold: no refusal carries it. */
  readonly guarded?: string;
}

const everyone = (outcome: Outcome): Record<Caller, Outcome> =>
  Object.fromEntries(principals.map((caller) => [caller, outcome])) as Record<Caller, Outcome>;

/** A route that needs `read`: the four API scopes get it, a hook token is refused. */
const readers = (served: Outcome): Record<Caller, Outcome> => ({
  read: served,
  control: served,
  approve: served,
  admin: served,
  hook: { status: 403, code: 'FORBIDDEN' },
  'no token': { status: 401, code: 'UNAUTHENTICATED' },
  'unknown token': { status: 401, code: 'UNAUTHENTICATED' },
});

/**
 * Reads an answer until its body holds `until` (an event stream stays open) or ends, then
 * closes it.
 */
async function answer(url: string, init: RequestInit = {}, until?: string): Promise<Answer> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const decoder = new TextDecoder();
  let text = '';
  try {
    const body = (response.body ?? []) as unknown as AsyncIterable<Uint8Array>;
    for await (const chunk of body) {
      text += decoder.decode(chunk, { stream: true });
      if (until !== undefined && text.includes(until)) break;
    }
  } finally {
    controller.abort();
  }
  return { status: response.status, headers: response.headers, text };
}

describe('the access of every HTTP route, for every kind of caller', () => {
  let hub: TestHub;
  let sessionId: string;
  const dashboardBuilt = existsSync(new URL('../../dashboard/dist/index.html', import.meta.url));

  const cases: Record<RouteName, RouteCase> = {
    'POST /hooks': {
      access: { kind: 'secret', holder: "a session's hook secret, or a token of scope hook" },
      ask: (caller) =>
        answer(`${hub.baseUrl}/hooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authorization(caller) },
          body: JSON.stringify({
            session_id: sessionId,
            hook_event_name: 'Notification',
            message: `posted by ${caller}`,
          }),
        }),
      outcomes: {
        ...everyone({ status: 401, code: 'UNAUTHORIZED' }),
        hook: { status: 200, shows: '{}' },
      },
    },
    'POST /mcp': {
      access: { kind: 'secret', holder: "a running session's hook secret" },
      ask: (caller) =>
        answer(`${hub.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...authorization(caller),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
      // No API token, of whatever scope, is a session's secret.
      outcomes: everyone({ status: 401, code: 'UNAUTHENTICATED' }),
      guarded: 'send_to_channel',
    },
    'POST /internal/node-call': {
      access: { kind: 'secret', holder: "the cluster's secret" },
      ask: (caller) =>
        answer(`${hub.baseUrl}/internal/node-call`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authorization(caller) },
          body: JSON.stringify({ op: 'stop', args: { id: sessionId } }),
        }),
      // This hub is in no cluster: nobody has its secret, and nothing runs.
      outcomes: everyone({ status: 404, code: 'NOT_FOUND' }),
    },
    'GET /healthz': {
      access: { kind: 'probe' },
      ask: (caller) => answer(`${hub.baseUrl}/healthz`, { headers: authorization(caller) }),
      outcomes: everyone({ status: 200, shows: '{"status":"ok"}' }),
    },
    'GET /readyz': {
      access: { kind: 'probe' },
      ask: (caller) => answer(`${hub.baseUrl}/readyz`, { headers: authorization(caller) }),
      outcomes: everyone({ status: 200, shows: '"status":"ready"' }),
    },
    'GET / (dashboard)': {
      access: { kind: 'page' },
      ask: (caller) => answer(`${hub.baseUrl}/`, { headers: authorization(caller) }),
      outcomes: everyone(
        dashboardBuilt
          ? { status: 200, shows: '<!doctype html>' }
          : { status: 404, code: 'NOT_FOUND' },
      ),
    },
    'GET /assets/:file (dashboard)': {
      access: { kind: 'page' },
      ask: (caller) =>
        answer(`${hub.baseUrl}/assets/no-such-asset.js`, { headers: authorization(caller) }),
      outcomes: everyone({ status: 404, code: 'NOT_FOUND', shows: 'no asset no-such-asset.js' }),
    },
    'GET /graphql (GraphiQL)': {
      access: { kind: 'page' },
      ask: (caller) =>
        answer(hub.url, { headers: { accept: 'text/html', ...authorization(caller) } }),
      outcomes: everyone({ status: 200, shows: 'claude-code-hub' }),
    },
    'OPTIONS (CORS preflight of the token routes)': {
      access: { kind: 'page' },
      ask: async (caller) => {
        const preflight = await answer(`${hub.baseUrl}/sessions/${sessionId}/events`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://dash.example',
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization, last-event-id',
            ...authorization(caller),
          },
        });
        // What a preflight says is in its headers: shown here as text.
        const allowed = preflight.headers.get('access-control-allow-origin');
        return { ...preflight, text: `${preflight.text}allow-origin: ${allowed}` };
      },
      outcomes: everyone({ status: 204, shows: 'allow-origin: https://dash.example' }),
    },
    'GET /metrics': {
      access: { kind: 'token', scope: 'read' },
      ask: (caller) => answer(`${hub.baseUrl}/metrics`, { headers: authorization(caller) }),
      outcomes: readers({ status: 200, shows: 'claude_hub_hook_events_total' }),
      guarded: 'claude_hub_',
    },
    'GET /sessions/:id/events': {
      access: { kind: 'token', scope: 'read' },
      ask: (caller) =>
        answer(
          `${hub.baseUrl}/sessions/${sessionId}/events?after=0`,
          { headers: authorization(caller) },
          'marker-event',
        ),
      outcomes: readers({ status: 200, shows: 'marker-event' }),
      guarded: 'marker-event',
    },
    'GET /sessions/:id/turns': {
      access: { kind: 'token', scope: 'read' },
      ask: (caller) =>
        answer(
          `${hub.baseUrl}/sessions/${sessionId}/turns?after=1970-01-01T00:00:00Z`,
          { headers: authorization(caller) },
          'marker-answer',
        ),
      outcomes: readers({ status: 200, shows: 'marker-answer' }),
      guarded: 'marker-',
    },
    'GET /turns': {
      access: { kind: 'token', scope: 'read' },
      ask: (caller) =>
        answer(
          `${hub.baseUrl}/turns?after=1970-01-01T00:00:00Z`,
          { headers: authorization(caller) },
          'marker-answer',
        ),
      outcomes: readers({ status: 200, shows: 'marker-answer' }),
      guarded: 'marker-',
    },
    'GET|POST /graphql': {
      access: { kind: 'token', scope: 'read' },
      ask: (caller) =>
        answer(hub.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authorization(caller) },
          body: JSON.stringify({ query: '{ sessions { id lastAssistantMessage } }' }),
        }),
      outcomes: readers({ status: 200, shows: 'marker-answer' }),
      guarded: 'marker-',
    },
  };

  beforeAll(async () => {
    const dir = tempDir('cch-routes-');
    const tokensFile = writeTokensFile(
      dir,
      tokensByScope({
        read: secrets.read,
        control: secrets.control,
        approve: secrets.approve,
        admin: secrets.admin,
        hook: secrets.hook,
      }),
    );
    hub = await startHub({
      // A claude config of its own: no claude of the machine is the hub's to find.
      env: { ...process.env, CLAUDE_CONFIG_DIR: dir },
      token: secrets.admin,
      args: ['--tokens-file', tokensFile, '--cors-origin', 'https://dash.example'],
    });
    const session = await hookSession(hub, { cwd: dir });
    sessionId = session.id;
    for (const [name, fields] of [
      ['Notification', { message: 'marker-event' }],
      ['UserPromptSubmit', { prompt: 'marker-prompt' }],
      ['Stop', { last_assistant_message: 'marker-answer' }],
    ] as const) {
      expect(await session.post(name, fields)).toBe(200);
    }
  });

  it.each(routeTable.map((route) => [route.name, route] as const))('%s', async (name, route) => {
    const routeCase = (cases as Partial<Record<string, RouteCase>>)[name];
    expect(routeCase, `no expectations for the route ${name}: add it to cases`).toBeDefined();
    const { access, ask, outcomes, guarded } = routeCase!;
    expect(route.access, `the access ${name} declares`).toEqual(access);
    for (const caller of principals) {
      const got = await ask(caller);
      const outcome = outcomes[caller];
      const what = `${name} as ${caller}: ${got.text.slice(0, 300)}`;
      expect(got.status, what).toBe(outcome.status);
      if (outcome.code) expect(JSON.parse(got.text), what).toMatchObject({ code: outcome.code });
      if (outcome.shows) expect(got.text, what).toContain(outcome.shows);
      // RFC 9110: a 401 names the scheme that authenticates.
      expect(got.headers.get('www-authenticate'), what).toBe(got.status === 401 ? 'Bearer' : null);
      if (got.status >= 400 && guarded) expect(got.text, what).not.toContain(guarded);
    }
  });

  it('has expectations only for routes the table has', () => {
    expect(Object.keys(cases).sort()).toEqual(routeTable.map((route) => route.name).sort());
  });

  it('stores the hook events of the hook token only: the refused posts leave nothing', async () => {
    for (const caller of principals) await cases['POST /hooks'].ask(caller);
    const { session } = await hub.data<{
      session: { events: { payload: { message?: string } }[] };
    }>(`query($id: ID!) { session(id: $id) { events(limit: 1000) { payload } } }`, {
      id: sessionId,
    });
    const posted = session.events
      .map((event) => event.payload.message)
      .filter((message) => message?.startsWith('posted by'));
    expect(posted.length).toBeGreaterThan(0);
    expect(new Set(posted)).toEqual(new Set(['posted by hook']));
  });

  it('answers a path no route has 404, and a method its routes do not take 405 with Allow', async () => {
    const missing = await answer(`${hub.baseUrl}/nothing-here`, { headers: authorization('read') });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ code: 'NOT_FOUND' });
    const wrong = await answer(`${hub.baseUrl}/metrics`, {
      method: 'DELETE',
      headers: authorization('admin'),
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('OPTIONS, GET');
    expect(wrong.text).not.toContain('claude_hub_');
  });
});
