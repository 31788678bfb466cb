import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hookEvents } from '../../src/events/registry.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { spawnHub, stopHub, type HubProcess, hubArgs } from '../helpers/hub-process.js';
import { hookSecret } from '../helpers/session-secret.js';

const adminToken = 'fuzz-admin-0123456789';
const readToken = 'fuzz-read-0123456789';
const seed = 20261122;
/** Each property stops after this long, whatever its run count: the suite stays bounded. */
const timeLimitMs = 25_000;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Valid documents, to be cut and spliced into nearly-valid ones. */
const documents = [
  '{ sessions { id status cwd attachCommand } }',
  'query Q($id: ID!) { session(id: $id) { events(after: 0, limit: 5) { seq eventName payload } } }',
  'subscription S($id: ID!) { sessionEvents(id: $id, after: 0) { seq ... on StopEvent { lastAssistantMessage } } }',
  'mutation M($id: ID!, $text: String!) { enqueueMessage(sessionId: $id, text: $text) { id status } }',
  'mutation { decidePermission(input: { requestId: "x", behavior: ALLOW }) { error { code message } } }',
  '{ attention { reason since session { id } } permissionRequests { id } }',
  'fragment F on Session { id ...F } { sessions { ...F } }',
];

const anyText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
);

const nearlyValidDocument = fc
  .tuple(fc.constantFrom(...documents), fc.nat(), fc.nat(), anyText)
  .map(([doc, at, cut, insert]) => {
    const start = at % (doc.length + 1);
    return doc.slice(0, start) + insert.slice(0, 20) + doc.slice(start + (cut % 10));
  });

describe('hostile input', () => {
  let world: ClaudeWorld;
  let hub: HubProcess;
  let dataDir: string;
  let socket: string;
  let bystander: { id: string; tmuxSession: string };
  let target: { id: string; tmuxSession: string };
  let targetSecret: string;
  let hooksUrl: string;

  const gql = async (token: string, query: string, variables: unknown = {}) => {
    const response = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string }[] };
  };

  beforeAll(async () => {
    world = await startClaudeWorld();
    dataDir = mkdtempSync(path.join(tmpdir(), 'cch-fuzz-'));
    socket = `cch-fuzz-${process.pid}`;
    const tokensFile = path.join(dataDir, 'tokens.json');
    writeFileSync(
      tokensFile,
      JSON.stringify([
        {
          name: 'reader',
          scope: 'read',
          sha256: createHash('sha256').update(readToken).digest('hex'),
        },
      ]),
    );
    hub = await spawnHub(
      [
        ...hubArgs({ port: 0, dataDir, socket }),
        '--stop-sessions-on-exit',
        '--permission-hold',
        '1',
        '--tokens-file',
        tokensFile,
      ],
      { ...world.env, CLAUDE_HUB_TOKEN: adminToken },
    );
    hooksUrl = hub.url.replace(/\/graphql$/, '/hooks');
    const create = `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`;
    bystander = (await gql(adminToken, create, { cwd: world.makeCwd() })).data.createSession;
    target = (await gql(adminToken, create, { cwd: world.makeCwd() })).data.createSession;
    targetSecret = await hookSecret(socket, target.tmuxSession);
  });

  afterAll(async () => {
    await stopHub(hub, { socket, dataDir });
    await world?.close();
  });

  it('answers thousands of random hook bodies with 200 or a 4xx, and stays up', async () => {
    const names = [...Object.keys(hookEvents), 'HubEventsMissed', 'Made-Up'];
    const payload = fc.oneof(
      anyText,
      fc
        .record(
          {
            session_id: fc.oneof(
              fc.uuid(),
              fc.constant(target.id),
              fc.constant(bystander.id),
              fc.string(),
            ),
            hook_event_name: fc.oneof(fc.constantFrom(...names), fc.string()),
            tool_name: fc.string(),
            tool_input: fc.jsonValue({ maxDepth: 3 }),
            extra: fc.jsonValue({ maxDepth: 3 }),
          },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      fc
        .integer({ min: 200, max: 20_000 })
        .map(
          (depth) =>
            `{"session_id":"${target.id}","hook_event_name":"Notification","x":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        ),
    );
    const auth = fc.constantFrom<string | null>(null, 'not-a-secret', targetSecret);
    let posted = 0;
    await fc.assert(
      fc.asyncProperty(payload, auth, async (body, secret) => {
        const response = await fetch(hooksUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(secret === null ? {} : { authorization: `Bearer ${secret}` }),
          },
          body,
        });
        const text = await response.text();
        posted += 1;
        expect([200, 400, 401]).toContain(response.status);
        const json = JSON.parse(text) as { code?: string };
        if (response.status !== 200) expect(json.code).toMatch(/^[A-Z_]+$/);
      }),
      { seed, numRuns: 3000, interruptAfterTimeLimit: timeLimitMs },
    );
    expect(posted).toBeGreaterThan(1000);
    expect(hub.process.exitCode).toBeNull();
  });

  it('answers random GraphQL documents and variables with data or coded errors, never a 5xx or a stack', async () => {
    const request = fc.record({
      token: fc.constantFrom(readToken, adminToken),
      query: fc.oneof(anyText, nearlyValidDocument, fc.constantFrom(...documents)),
      variables: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({ id: fc.string(), text: fc.string() }),
      ),
      operationName: fc.option(fc.constantFrom('Q', 'S', 'M', 'X'), { nil: undefined }),
    });
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ token, query, variables, operationName }) => {
        const response = await fetch(hub.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, variables, operationName }),
        });
        const text = await response.text();
        sent += 1;
        expect(response.status).toBeLessThan(500);
        expect(text).not.toMatch(/\n\s+at /);
        const body = JSON.parse(text) as {
          data?: unknown;
          errors?: { message: string; extensions?: { code?: string } }[];
        };
        for (const error of body.errors ?? []) {
          expect(error.extensions?.code, error.message).toMatch(/^[A-Z_]+$/);
        }
      }),
      { seed, numRuns: 3000, interruptAfterTimeLimit: timeLimitMs },
    );
    expect(sent).toBeGreaterThan(1000);
    expect(hub.process.exitCode).toBeNull();
  });

  it('answers random graphql-ws frames with protocol errors or closes, never an internal error', async () => {
    const frame = fc.oneof(
      anyText,
      fc.constant(JSON.stringify({ type: 'connection_init' })),
      fc.constant(JSON.stringify({ type: 'connection_init', payload: { token: adminToken } })),
      fc
        .record({
          id: fc.oneof(fc.string(), fc.constant('1')),
          type: fc.constantFrom('subscribe', 'complete', 'ping', 'pong', 'next', 'bogus'),
          payload: fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.record({
              query: fc.oneof(nearlyValidDocument, fc.constantFrom(...documents)),
              variables: fc.jsonValue({ maxDepth: 2 }),
            }),
          ),
        })
        .map((value) => JSON.stringify(value)),
    );
    let connections = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 6 }), async (frames) => {
        const ws = new WebSocket(hub.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
        const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        connections += 1;
        for (const data of frames) if (ws.readyState === ws.OPEN) ws.send(data);
        const code = await Promise.race([
          closed,
          new Promise<number>((resolve) => setTimeout(() => resolve(0), 50)),
        ]);
        ws.terminate();
        expect(code).not.toBe(4500);
        expect(code).not.toBe(1006);
        expect(code).not.toBe(1011);
      }),
      { seed, numRuns: 600, interruptAfterTimeLimit: timeLimitMs },
    );
    expect(connections).toBeGreaterThan(100);
    expect(hub.process.exitCode).toBeNull();
  });

  it('keeps its memory bounded, and the session made before still works', async () => {
    const rss = rssMb(hub.process.pid!);
    expect(rss, `hub RSS after the fuzz runs: ${rss.toFixed(0)} MB`).toBeLessThan(400);
    const result = await gql(
      adminToken,
      `mutation($id: ID!) { ask(sessionId: $id, text: "still there?", timeoutSeconds: 60) { __typename ... on AskReply { reply } } }`,
      { id: bystander.id },
    );
    expect(result.data).toEqual({ ask: { __typename: 'AskReply', reply: 'echo: still there?' } });
  });
});
