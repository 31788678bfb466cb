import { writeTokensFile } from '../helpers/tokens-file.js';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hookEvents } from '../../src/events/registry.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { hubHome } from '../helpers/hub-process.js';
import { hookSecret } from '../../harness/session-secret.js';

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

/** A graphql-ws message as the server sent it, parsed when it parses. */
interface ServerMessage {
  readonly raw: string;
  readonly type?: unknown;
  readonly id?: unknown;
  readonly payload?: unknown;
}

/** Close codes of a server that failed rather than refused: never the answer to bad input. */
const failureCloseCodes = [4500, 1006, 1011];
/** The codes an unexpected error is masked with. */
const internalErrorCodes = ['INTERNAL_SERVER_ERROR', 'INTERNAL'];
/** A stack trace's line, in a message's text or (escaped) in its JSON. */
const stackLine = /(\n|\\n)\s+at /;
/** How long one connection's frames may take to be answered; generous, it is rarely near. */
const answerBoundMs = 10_000;

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * A graphql-transport-ws connection that records every message the server sends, its close
 * and any socket error, and can wait for the server to have answered what was sent.
 */
async function recordedSocket(url: string) {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const received: ServerMessage[] = [];
  const errors: Error[] = [];
  let close: { code: number; reason: string } | null = null;
  let wake = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      close = { code, reason: String(reason) };
      resolve(close);
      wake();
    }),
  );
  ws.on('error', (error) => errors.push(error));
  ws.on('message', (data) => {
    const raw = String(data);
    received.push({ raw, ...jsonObject(raw) });
    wake();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    ws,
    received,
    errors,
    closed,
    get close() {
      return close;
    },
    /** True once `ready()` holds, checked on every message and on close; false after `ms`. */
    until(ready: () => boolean, ms: number): Promise<boolean> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        wake = () => {
          if (!ready()) return;
          clearTimeout(timer);
          resolve(true);
        };
        wake();
      });
    },
  };
}

/**
 * Whether the server answered the pings and the connection_init sent, as the protocol requires
 * of it: a pong for each ping, an ack for the init. A server refusing either closes instead.
 */
function handshakesAnswered(
  sent: readonly Record<string, unknown>[],
  received: readonly ServerMessage[],
): boolean {
  const got = (type: string) => received.filter((message) => message.type === type).length;
  const sentOf = (type: string) => sent.filter((frame) => frame.type === type).length;
  return (
    got('pong') >= sentOf('ping') && (sentOf('connection_init') === 0 || got('connection_ack') > 0)
  );
}

/**
 * Whether each subscribe sent has its first answer: a next, or an error or a complete (a query
 * ends with complete; a subscription may go on streaming). Operations sent under one id run
 * one after another. One the client completed itself may go unanswered.
 */
function operationsAnswered(
  sent: readonly Record<string, unknown>[],
  received: readonly ServerMessage[],
): boolean {
  const operations = new Map<string, number>();
  for (const { type, id } of sent) {
    if (typeof id !== 'string') continue;
    const open = operations.get(id) ?? 0;
    if (type === 'subscribe') operations.set(id, open + 1);
    else if (type === 'complete' && open > 0) operations.set(id, open - 1);
  }
  for (const [id, expected] of operations) {
    const mine = received.filter((message) => message.id === id);
    const ended = mine.filter((m) => m.type === 'error' || m.type === 'complete').length;
    const streaming = mine.at(-1)?.type === 'next' ? 1 : 0;
    if (ended + streaming < expected) return false;
  }
  return true;
}

/** The errors a message carries: an error message's payload, or those of a next's result. */
function errorsOf(message: ServerMessage): unknown[] {
  const { type, payload } = message;
  const errors =
    type === 'error'
      ? payload
      : type === 'next' && typeof payload === 'object' && payload !== null
        ? (payload as { errors?: unknown }).errors
        : undefined;
  return Array.isArray(errors) ? errors : [];
}

/** The promise's value, or an error saying `what` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(what())), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('hostile input', () => {
  let world: ClaudeWorld;
  let hub: HubProcess;
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
    const home = hubHome('fuzz');
    ({ socket } = home);
    const tokensFile = writeTokensFile(home.dataDir, [
      { name: 'reader', scope: 'read', secret: readToken },
    ]);
    hub = await home.spawn(
      [
        ...hubArgs({ port: 0, ...home }),
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
        const socket = await recordedSocket(hub.url.replace(/^http/, 'ws'));
        const { ws, received } = socket;
        connections += 1;
        // What was sent, parsed; a final ping marks the end, so its pong says all came in.
        const sent: Record<string, unknown>[] = [];
        for (const data of [...frames, JSON.stringify({ type: 'ping' })]) {
          if (ws.readyState !== ws.OPEN) break;
          ws.send(data);
          sent.push(jsonObject(data) ?? {});
        }
        const answered = () =>
          handshakesAnswered(sent, received) && operationsAnswered(sent, received);
        const settled = await socket.until(
          () => socket.close !== null || answered(),
          answerBoundMs,
        );
        const record = () => JSON.stringify({ frames, received, close: socket.close });
        // Past the bound, only a live subscription may still be silent.
        if (!settled) expect(handshakesAnswered(sent, received), record()).toBe(true);
        if (ws.readyState === ws.OPEN) ws.close(1000);
        const { code, reason } = await within(
          socket.closed,
          answerBoundMs,
          () => `no close handshake within ${answerBoundMs} ms: ${record()}`,
        );
        expect(failureCloseCodes, record()).not.toContain(code);
        expect(reason).not.toMatch(stackLine);
        expect(socket.errors.map(String), record()).toEqual([]);
        for (const message of received) {
          expect(message.raw).not.toMatch(stackLine);
          for (const error of errorsOf(message)) {
            const errorCode = (error as { extensions?: { code?: unknown } }).extensions?.code;
            expect(internalErrorCodes, message.raw).not.toContain(errorCode);
          }
        }
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
