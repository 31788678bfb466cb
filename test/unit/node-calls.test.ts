import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  nodeCallEndpoint,
  nodeCallPath,
  NodeClient,
  type NodeAddress,
} from '../../src/cluster/node-calls.js';
import {
  answerWithinMs,
  nodeCallTimeoutMs,
  nodeOps,
  runNodeCall,
  type NodeCall,
  type NodeHandlers,
  type WireAskOutcome,
} from '../../src/cluster/node-ops.js';
import { ErrorCode, HubError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { MessageStatus, type MessageRecord } from '../../src/sessions/message.js';
import { checkLabels } from '../../src/sessions/session-labels.js';

const secret = 'the-cluster-secret';
const bounds = { timeoutMs: 200, startTimeoutMs: 1000, stopTimeoutMs: 1000 };

/** Servers and clients a test started, disposed after it. */
const leftovers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const dispose of leftovers.splice(0).reverse()) await dispose();
});

async function listen(listener: RequestListener): Promise<string> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  leftovers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(): NodeClient {
  const nodeClient = new NodeClient(secret, bounds);
  leftovers.push(() => nodeClient.close());
  return nodeClient;
}

const message: MessageRecord = {
  id: 'message-1',
  sessionId: 'session-1',
  text: 'hello',
  status: MessageStatus.Delivered,
  queuedAt: 1000,
  sentAt: 1010,
  deliveredAt: 1020,
  promptSeq: 7,
  error: null,
};

const notHere = async (): Promise<never> => {
  throw new HubError(ErrorCode.SessionNotFound, 'no session has that id here');
};

/** An owner whose commands answer from data, recording the calls it ran. */
function owner(overrides: Partial<NodeHandlers> = {}) {
  const calls: NodeCall[] = [];
  const handlers: NodeHandlers = {
    create: notHere,
    resume: notHere,
    stop: notHere,
    interrupt: notHere,
    sendKeys: notHere,
    answerDialog: notHere,
    focus: notHere,
    setLabels: notHere,
    enqueue: notHere,
    ask: async ({ id, text }) => ({
      kind: 'reply',
      message: { ...message, sessionId: id, text },
      reply: `echo: ${text}`,
      events: [{ sessionId: id, seq: 8, eventName: 'Stop', receivedAt: 1100, raw: '{}' }],
      durationMs: 100,
    }),
    decide: notHere,
    screen: async ({ id }) => `the screen of ${id}`,
    diff: notHere,
    commitWorktree: notHere,
    changes: notHere,
    usage: notHere,
    turnCosts: notHere,
    ...overrides,
  };
  const logLines: Record<string, unknown>[] = [];
  const log = createLogger('info', {
    write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const endpoint = nodeCallEndpoint(
    secret,
    (call) => {
      calls.push(call);
      return runNodeCall(handlers, call);
    },
    { maxBodyBytes: 64 * 1024, log },
  );
  const listener: RequestListener = (req, res) => void endpoint(req, res);
  return { handlers, calls, logLines, listener };
}

async function startOwner(overrides: Partial<NodeHandlers> = {}) {
  const { calls, logLines, listener } = owner(overrides);
  const node: NodeAddress = { name: 'owner', url: await listen(listener) };
  return { node, calls, logLines };
}

/** Posts a body as another node would, with the cluster's secret. */
async function postRaw(url: string, body: string, auth = secret) {
  const res = await fetch(new URL(nodeCallPath, url), {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('node calls: the typed table over HTTP', () => {
  it('round-trips typed arguments and results', async () => {
    const { node, calls } = await startOwner();
    const nodeClient = client();

    const screen = await nodeClient.call(node, 'screen', { id: 'session-1' });
    expectTypeOf(screen).toEqualTypeOf<string>();
    expect(screen).toBe('the screen of session-1');

    const outcome = await nodeClient.call(node, 'ask', {
      id: 'session-1',
      text: 'hi',
      channel: '',
      timeoutMs: 50,
    });
    expectTypeOf(outcome).toEqualTypeOf<WireAskOutcome>();
    expect(outcome).toEqual({
      kind: 'reply',
      message: { ...message, text: 'hi' },
      reply: 'echo: hi',
      events: [{ sessionId: 'session-1', seq: 8, eventName: 'Stop', receivedAt: 1100, raw: '{}' }],
      durationMs: 100,
    });
    expect(calls).toEqual([
      { op: 'screen', args: { id: 'session-1' } },
      { op: 'ask', args: { id: 'session-1', text: 'hi', channel: '', timeoutMs: 50 } },
    ]);
  });

  it('gives the caller the HubError the owner threw, code, message and extensions', async () => {
    const { node } = await startOwner({
      stop: async ({ id }) => {
        throw new HubError(ErrorCode.SessionNotRunning, `session ${id} is stopped`, {
          sessionId: id,
        });
      },
    });
    const error = await client()
      .call(node, 'stop', { id: 'session-1', removeWorktree: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    expect(error).toMatchObject({
      message: 'session session-1 is stopped',
      extensions: { code: 'SESSION_NOT_RUNNING', sessionId: 'session-1' },
    });
  });

  it("carries setLabels with its labels, and the owner's BAD_USER_INPUT back as it was", async () => {
    const { node, calls } = await startOwner({
      setLabels: async ({ labels }) => {
        checkLabels(labels);
        return notHere();
      },
    });
    const labels = ['team:infra', 'not ok'];
    await expect(
      client().call(node, 'setLabels', { id: 'session-1', labels }),
    ).rejects.toMatchObject({
      message:
        'labels[1] must be 1 to 64 letters, digits or any of . _ : / = -, got "not ok" (string)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(calls).toEqual([{ op: 'setLabels', args: { id: 'session-1', labels } }]);
  });

  it("carries stop's removeWorktree to the owner", async () => {
    const { node, calls } = await startOwner({ stop: notHere });
    await client()
      .call(node, 'stop', { id: 'session-1', removeWorktree: true })
      .catch(() => undefined);
    expect(calls).toEqual([{ op: 'stop', args: { id: 'session-1', removeWorktree: true } }]);
  });

  it('answers an unexpected error as INTERNAL without its message, and logs it', async () => {
    const { node, logLines } = await startOwner({
      screen: async () => {
        throw new Error('tmux vanished');
      },
    });
    await expect(client().call(node, 'screen', { id: 'session-1' })).rejects.toMatchObject({
      message: 'internal error',
      extensions: { code: 'INTERNAL' },
    });
    expect(logLines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'node call failed',
        op: 'screen',
        err: expect.objectContaining({ message: 'tmux vanished' }),
      }),
    );
  });

  it.each([
    ['a body that is not JSON', 'op=screen', 'the body of a node call must be JSON'],
    [
      'a body that is not an object',
      '["screen", "x"]',
      'a node call is {"op", "args"}, got ["screen","x"] (array)',
    ],
    [
      'an unknown op',
      '{"op": "reboot", "args": {}}',
      `op must be one of ${nodeOps.join(', ')}, got "reboot" (string)`,
    ],
    [
      'an op inherited from Object',
      '{"op": "toString", "args": {}}',
      `op must be one of ${nodeOps.join(', ')}, got "toString" (string)`,
    ],
    [
      'positional args',
      '{"op": "screen", "args": ["session-1"]}',
      'args of screen must be an object, got ["session-1"] (array)',
    ],
    [
      'a missing argument',
      '{"op": "enqueue", "args": {"id": "session-1"}}',
      'args.text of enqueue must be a string, got undefined (undefined)',
    ],
    [
      'keys that are not strings',
      '{"op": "sendKeys", "args": {"id": "session-1", "keys": ["Enter", 1]}}',
      'args.keys of sendKeys must be an array of strings, got ["Enter",1] (array)',
    ],
  ])('refuses %s with 400 and says what is wrong', async (_, body, error) => {
    const { node, calls } = await startOwner();
    expect(await postRaw(node.url, body)).toEqual({
      status: 400,
      body: { error, code: 'BAD_REQUEST' },
    });
    expect(calls).toEqual([]);
  });

  it('refuses a caller without the cluster secret with 403', async () => {
    const { node, calls } = await startOwner();
    expect(
      await postRaw(node.url, '{"op": "screen", "args": {"id": "x"}}', 'a-wrong-secret'),
    ).toEqual({
      status: 403,
      body: { error: 'not a node of this cluster', code: 'FORBIDDEN' },
    });
    expect(calls).toEqual([]);
  });

  it('reports a refused call as NODE_UNREACHABLE with what the owner said', async () => {
    const { node } = await startOwner();
    // @ts-expect-error id must be a string: the caller's types refuse it before the owner does
    const call = client().call(node, 'screen', { id: 42 });
    await expect(call).rejects.toMatchObject({
      message: `node owner (${node.url}) refused screen (status 400): args.id of screen must be a string, got 42 (number)`,
      extensions: { code: 'NODE_UNREACHABLE' },
    });
  });

  it('gives NODE_UNREACHABLE when a node takes the call and never answers', async () => {
    const url = await listen((req) => req.resume());
    const startedAt = Date.now();
    await expect(client().call({ name: 'hung', url }, 'screen', { id: 'x' })).rejects.toMatchObject(
      {
        message: `node hung (${url}) did not answer screen within ${bounds.timeoutMs} ms`,
        extensions: { code: 'NODE_UNREACHABLE' },
      },
    );
    const waited = Date.now() - startedAt;
    expect(waited).toBeGreaterThanOrEqual(bounds.timeoutMs - 5);
    expect(waited).toBeLessThan(bounds.timeoutMs + 1000);
  });

  it('gives NODE_UNREACHABLE when headers came and the body stalls', async () => {
    const url = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok": true, ');
    });
    await expect(
      client().call({ name: 'stalled', url }, 'screen', { id: 'x' }),
    ).rejects.toMatchObject({
      message: `node stalled (${url}) did not answer screen within ${bounds.timeoutMs} ms`,
      extensions: { code: 'NODE_UNREACHABLE' },
    });
  });

  it('waits for an ask as long as the ask may take, and no longer', async () => {
    const { node } = await startOwner({
      ask: async ({ id, text, timeoutMs }) => {
        await sleep(timeoutMs); // the behaviour under test: an ask that takes all its time
        return {
          kind: 'timeout',
          message: { ...message, sessionId: id, text },
          waitedMs: timeoutMs,
        };
      },
    });
    const nodeClient = client();
    // 400 ms is twice the call's own timeout: only the ask's time keeps the call alive.
    await expect(
      nodeClient.call(node, 'ask', { id: 'session-1', text: 'slow', channel: '', timeoutMs: 400 }),
    ).resolves.toMatchObject({ kind: 'timeout', waitedMs: 400 });

    const hung = { name: 'hung', url: await listen((req) => req.resume()) };
    const startedAt = Date.now();
    await expect(
      nodeClient.call(hung, 'ask', { id: 'session-1', text: 'slow', channel: '', timeoutMs: 300 }),
    ).rejects.toMatchObject({
      message: `node hung (${hung.url}) did not answer ask within 500 ms`,
      extensions: { code: 'NODE_UNREACHABLE' },
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(495);
  });

  it('gives NODE_UNREACHABLE at once when the node is down', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
    const startedAt = Date.now();
    await expect(client().call({ name: 'down', url }, 'screen', { id: 'x' })).rejects.toMatchObject(
      {
        message: expect.stringMatching(
          new RegExp(`^node down \\(${url}\\) did not answer screen: connect ECONNREFUSED`),
        ),
        extensions: { code: 'NODE_UNREACHABLE' },
      },
    );
    expect(Date.now() - startedAt).toBeLessThan(bounds.timeoutMs);
  });
});

describe('node calls: the table at compile time', () => {
  it('lists every operation, and needs a handler for each', () => {
    expect(nodeOps).toEqual([
      'create',
      'resume',
      'stop',
      'interrupt',
      'sendKeys',
      'answerDialog',
      'focus',
      'setLabels',
      'enqueue',
      'ask',
      'decide',
      'screen',
      'diff',
      'commitWorktree',
      'changes',
      'usage',
      'turnCosts',
    ]);
    const { screen, ...partial } = owner().handlers;
    // @ts-expect-error screen has no handler
    const incomplete: NodeHandlers = partial;
    expect(Object.keys(incomplete)).toEqual(nodeOps.filter((op) => op !== 'screen'));
    expect(screen).toBeTypeOf('function');
  });
});

/** Never run: the type checker (npm run check) reads it. */
function typedCalls(nodeClient: NodeClient, node: NodeAddress): void {
  expectTypeOf(nodeClient.call(node, 'screen', { id: 'x' })).resolves.toEqualTypeOf<string>();
  expectTypeOf(
    nodeClient.call(node, 'enqueue', {
      id: 'x',
      text: 'hi',
      channel: '',
      typingGuard: true,
      kind: 'PROMPT',
    }),
  )
    .resolves.toHaveProperty('node')
    .toEqualTypeOf<string>();
  // @ts-expect-error sendKeys needs keys
  void nodeClient.call(node, 'sendKeys', { id: 'x' });
  // @ts-expect-error no such operation
  void nodeClient.call(node, 'reboot', {});
}

describe('answerWithinMs', () => {
  const defaults = { timeoutMs: nodeCallTimeoutMs, startTimeoutMs: 30_000, stopTimeoutMs: 5000 };

  it.each([
    ['create', { input: { cwd: '/' } }, 40_000],
    ['resume', { id: 'x' }, 40_000],
    ['stop', { id: 'x', removeWorktree: false }, 20_000],
    ['stop', { id: 'x', removeWorktree: true }, 50_000],
    ['interrupt', { id: 'x' }, 15_000],
    ['ask', { id: 'x', text: 'hi', channel: '', timeoutMs: 300_000 }, 310_000],
    ['screen', { id: 'x' }, 10_000],
    ['enqueue', { id: 'x', text: 'hi', channel: '' }, 10_000],
  ] as const)('waits for %s as long as it may take, plus the call timeout', (op, args, ms) => {
    expect(answerWithinMs(op, args as never, defaults)).toBe(ms);
  });

  it('caps an ask longer than a timer can wait', () => {
    expect(
      answerWithinMs('ask', { id: 'x', text: 'hi', channel: '', timeoutMs: 2 ** 40 }, defaults),
    ).toBe(2 ** 31 - 1);
  });
});
