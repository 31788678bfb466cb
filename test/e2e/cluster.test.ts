import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { freePort } from '../../harness/free-port.js';
import {
  clusterNodes,
  data,
  eventFields,
  leaseSeconds,
  subscribe,
  watch,
  type ClusterEvent,
  type ClusterNodes,
} from '../helpers/cluster-nodes.js';
import { spawnHub } from '../helpers/hub-process.js';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { expectErrorLog } from '../helpers/unexpected-output.js';
import { leftovers, outliveTest, tempDir } from '../helpers/leftovers.js';

async function gql(url: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: Record<string, any>;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

/** Reads until `check` passes, returning the value that passed. */
function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!check(value)) throw new Error(`still ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

function expectContiguous(events: readonly ClusterEvent[], from = 1): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => from + i));
}

describe('hub nodes on one Redis', () => {
  let world: ClaudeWorld;
  let redis: RedisServer;
  let outside: string;
  let nodes: ClusterNodes;
  const prefix = `cch-test-${process.pid}`;
  const node = (name: string) => nodes.node(name);

  beforeAll(async () => {
    world = await startClaudeWorld();
    outside = world.makeUntrustedCwd();
    redis = await startRedis();
    leftovers.add(() => redis.stop());
    nodes = clusterNodes({ redisUrl: redis.url, prefix, homes: 'node', env: world.env });
    for (const name of ['a', 'b', 'c']) await nodes.start(name);
  });

  it('refuses to start when Redis does not answer, saying so', async () => {
    const closed = `redis://127.0.0.1:${await freePort()}`;
    const dataDir = tempDir('cch-node-x-');
    expectErrorLog(new RegExp(`^claude-code-hub: cannot reach Redis at ${closed}/?: `));
    const attempt = spawnHub(
      ['--port', '0', '--data-dir', dataDir, '--tmux-socket', `cch-x-${process.pid}`],
      { ...world.env, CLAUDE_HUB_REDIS_URL: closed },
    );
    await expect(attempt).rejects.toThrow(
      new RegExp(`cannot reach Redis at ${closed}/?: .*ECONNREFUSED`),
    );
  });

  it('lists the nodes with their liveness', async () => {
    const { nodes: listed } = await data(
      node('a'),
      `{ nodes { name url alive self liveSessions } }`,
    );
    const nowhere = await gql(
      node('a').hub.url,
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, node: "nowhere" }) { id } }`,
      { cwd: world.makeCwd() },
    );
    expect(nowhere.errors?.[0]).toMatchObject({
      message: expect.stringContaining('the nodes are a, b, c'),
      extensions: { code: 'NODE_NOT_FOUND' },
    });
    expect(listed).toEqual(
      ['a', 'b', 'c'].map((name) => ({
        name,
        url: node(name).hub.url.replace(/\/graphql$/, ''),
        alive: true,
        self: name === 'a',
        liveSessions: 0,
      })),
    );
  });

  let sessionId: string;
  let tmuxSession: string;
  let seen: ClusterEvent[];

  it('runs a session on B through A, streams it identically on A and C, and decides through C', async () => {
    const { createSession: session } = await data(
      node('a'),
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, permissionMode: DEFAULT, node: "b", labels: ["from-a"] }) { id node status tmuxSession labels createdBy } }`,
      { cwd: world.makeCwd() },
    );
    // The creating principal's name travels to B with the input.
    expect(session).toMatchObject({
      node: 'b',
      status: 'IDLE',
      labels: ['from-a'],
      createdBy: 'local',
    });
    ({ id: sessionId, tmuxSession } = session);
    // claude runs in B's tmux, and only there.
    const has = (socket: string) =>
      execa('tmux', ['-L', socket, 'has-session', '-t', `=${tmuxSession}`], { reject: false });
    expect((await has(node('b').home.socket)).exitCode).toBe(0);
    expect((await has(node('a').home.socket)).exitCode).not.toBe(0);

    const onA = subscribe(node('a'), sessionId, 0);
    const onC = subscribe(node('c'), sessionId, 0);
    const updatesOnC = watch<{ status: string; node: string }>(
      node('c'),
      `subscription($id: ID) { sessionUpdates(id: $id) { status node } }`,
      { id: sessionId },
    );
    // Every session's changes in batches, on a node that does not run it.
    const batchesOnA = watch<{ id: string; status: string; node: string }[]>(
      node('a'),
      `subscription { sessionUpdateBatches(everyMs: 25) { id status node } }`,
      {},
    );
    const requestsOnA = watch<{ status: string; sessionId: string }>(
      node('a'),
      `subscription { permissionRequests { status sessionId } }`,
      {},
    );
    const target = path.join(outside, 'made-in-cluster.txt');
    await data(
      node('a'),
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id: sessionId, text: `run: touch ${target} && echo made` },
    );
    await onC.until((event) => event.eventName === 'PermissionRequest', 60_000);
    const { permissionRequests } = await data(
      node('c'),
      `{ permissionRequests(status: PENDING) { id sessionId toolName } }`,
    );
    expect(permissionRequests).toEqual([{ id: expect.any(String), sessionId, toolName: 'Bash' }]);
    const { session: waiting } = await data(
      node('c'),
      `query($id: ID!) { session(id: $id) { status node pendingPermissions { id } } }`,
      { id: sessionId },
    );
    expect(waiting).toEqual({
      status: 'AWAITING_PERMISSION',
      node: 'b',
      pendingPermissions: [{ id: permissionRequests[0].id }],
    });
    const { decidePermission } = await data(
      node('c'),
      `mutation($input: DecidePermissionInput!) { decidePermission(input: $input) { request { status sessionId } error { code } } }`,
      { input: { requestId: permissionRequests[0].id, behavior: 'ALLOW' } },
    );
    expect(decidePermission).toEqual({
      request: { status: 'ALLOWED', sessionId },
      error: null,
    });

    await onC.until((event) => event.eventName === 'Stop', 60_000);
    await updatesOnC.until((update) => update.status === 'AWAITING_PERMISSION');
    await updatesOnC.until((update) => update.status === 'IDLE');
    expect(updatesOnC.received.every((update) => update.node === 'b')).toBe(true);
    await batchesOnA.until((batch) =>
      batch.some((update) => update.id === sessionId && update.status === 'IDLE'),
    );
    const onAOfIt = batchesOnA.received.flat().filter((update) => update.id === sessionId);
    expect(onAOfIt.map((update) => update.node)).toEqual(onAOfIt.map(() => 'b'));
    expect(onAOfIt.map((update) => update.status)).toContain('AWAITING_PERMISSION');
    expect(await requestsOnA.until((request) => request.status === 'ALLOWED')).toEqual([
      { status: 'PENDING', sessionId },
      { status: 'ALLOWED', sessionId },
    ]);
    updatesOnC.dispose();
    batchesOnA.dispose();
    requestsOnA.dispose();
    const fromA = await onA.until((event) => event.eventName === 'Stop', 60_000);
    expect(existsSync(target)).toBe(true);
    expect(onC.received).toEqual(fromA);
    expectContiguous(fromA);
    expect(fromA.map((event) => event.eventName)).toEqual(
      expect.arrayContaining([
        'SessionStart',
        'UserPromptSubmit',
        'PermissionRequest',
        'PostToolUse',
        'Stop',
      ]),
    );
    const post = fromA.find((event) => event.eventName === 'PostToolUse')!;
    expect(post.payload).toMatchObject({ session_id: sessionId, tool_name: 'Bash' });
    // What the owner stored is what the other nodes read.
    const { session: onB } = await data(
      node('b'),
      `query($id: ID!) { session(id: $id) { events(after: 0, limit: 1000) { ${eventFields} } } }`,
      { id: sessionId },
    );
    expect(onB.events).toEqual(fromA);
    const { session: viaC } = await data(
      node('c'),
      `query($id: ID!) { session(id: $id) { status node attachCommand messages { status text } events(after: 0, limit: 1000) { seq } } }`,
      { id: sessionId },
    );
    expect(viaC).toMatchObject({
      status: 'IDLE',
      node: 'b',
      attachCommand: expect.stringContaining(node('b').home.socket),
      messages: [{ status: 'DELIVERED', text: `run: touch ${target} && echo made` }],
    });
    expect(viaC.events.map((event: ClusterEvent) => event.seq)).toEqual(
      fromA.map((event) => event.seq),
    );
    const { nodes: listed } = await data(node('c'), `{ nodes { name liveSessions } }`);
    expect(listed).toContainEqual({ name: 'b', liveSessions: 1 });
    const { session: screened } = await data(
      node('a'),
      `query($id: ID!) { session(id: $id) { screen } }`,
      { id: sessionId },
    );
    expect(screened.screen).toContain('made');
    // Its terminal streams from B, which holds its tmux; A says where.
    const typed = await gql(
      node('a').hub.url,
      `mutation($id: ID!) { sendTerminalInput(sessionId: $id, data: "x") }`,
      { id: sessionId },
    );
    expect(typed.errors?.[0]?.extensions).toEqual({
      code: 'ON_OTHER_NODE',
      node: 'b',
      url: node('b').hub.url.replace(/\/graphql$/, ''),
    });
    // The command line lists it, with its node, from any node.
    const ls = await execa(
      'node',
      ['--import', 'tsx', 'src/main.ts', 'ls', '--url', node('c').hub.url],
      {
        cwd: new URL('../..', import.meta.url).pathname,
      },
    );
    expect(ls.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS.*NODE$/);
    expect(ls.stdout).toMatch(new RegExp(`^${sessionId}\\s+IDLE\\s.*\\sb$`, 'm'));
    // Its labels are set through C on B, which owns it, and read on every node.
    const setLabels = `mutation($id: ID!, $labels: [String!]!) { setSessionLabels(sessionId: $id, labels: $labels) { labels createdBy node } }`;
    expect(
      (await data(node('c'), setLabels, { id: sessionId, labels: ['on-b', 'team:x', 'on-b'] }))
        .setSessionLabels,
    ).toEqual({ labels: ['on-b', 'team:x'], createdBy: 'local', node: 'b' });
    const { sessions: labelledOnA } = await eventually(
      () => data(node('a'), `{ sessions(label: "team:x") { id labels } }`),
      ({ sessions }) => sessions.length > 0,
      10_000,
    );
    expect(labelledOnA).toEqual([{ id: sessionId, labels: ['on-b', 'team:x'] }]);
    const refused = await gql(node('a').hub.url, setLabels, { id: sessionId, labels: ['a b'] });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    seen = fromA;
    onA.dispose();
    onC.dispose();
  });

  it('shows the sessions of a killed node as UNREACHABLE, and re-adopts them when it returns', async () => {
    // The last seen event, replayed, says A has joined B's stream.
    const onA = subscribe(node('a'), sessionId, seen.length - 1);
    expect((await onA.next()).seq).toBe(seen.length);
    node('b').hub.process.kill('SIGKILL');
    await node('b').hub.process;
    const statusOnA = () =>
      data(node('a'), `query($id: ID!) { session(id: $id) { status } }`, { id: sessionId });
    const killedAt = Date.now();
    await eventually(statusOnA, (d) => d.session.status === 'UNREACHABLE', 10_000);
    expect(Date.now() - killedAt).toBeLessThan((leaseSeconds + 3) * 1000);
    // Each node sees the lease lapse on its own, within a third of a lease.
    await eventually(
      () => data(node('c'), `{ nodes { name alive } }`),
      (d) => d.nodes.some((n: { name: string; alive: boolean }) => n.name === 'b' && !n.alive),
      leaseSeconds * 1000,
    );
    const refused = await gql(
      node('c').hub.url,
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "hello") { id } }`,
      { id: sessionId },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('NODE_UNREACHABLE');

    // Its hub and client serve the tests after this one too.
    await outliveTest(() => nodes.start('b'));
    await eventually(statusOnA, (d) => d.session.status === 'IDLE', 20_000);
    const { ask } = await data(
      node('c'),
      `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text) { __typename ... on AskReply { reply message { status } events { seq eventName } } } }`,
      { id: sessionId, text: 'after the restart' },
    );
    expect(ask).toMatchObject({
      __typename: 'AskReply',
      reply: 'echo: after the restart',
      message: { status: 'DELIVERED' },
    });
    const more = await onA.until(
      (event) => event.eventName === 'Stop' && event.seq > seen.length,
      60_000,
    );
    expectContiguous(more, seen.length + 1);
    expect(more.find((e) => e.eventName === 'UserPromptSubmit')?.payload.prompt).toBe(
      'after the restart',
    );
    expect(ask.events).toEqual(
      more
        .filter((e) => e.seq >= ask.events[0].seq)
        .map(({ seq, eventName }) => ({ seq, eventName })),
    );
    seen = [...seen, ...more];
    onA.dispose();
  });

  it('loses no event when Redis restarts in the middle of a turn', async () => {
    const onC = subscribe(node('c'), sessionId, seen.length);
    const target = path.join(outside, 'made-during-outage.txt');
    await data(
      node('a'),
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      { id: sessionId, text: `run: touch ${target} && echo made-again` },
    );
    await onC.until((event) => event.eventName === 'PermissionRequest', 60_000);
    const pendingOnA = () =>
      data(node('a'), `{ permissionRequests(status: PENDING) { id sessionId } }`);
    const { permissionRequests } = await eventually(
      pendingOnA,
      (d) => d.permissionRequests.length === 1,
      10_000,
    );

    await redis.kill();
    const readyOnB = async () => {
      const response = await fetch(node('b').hub.url.replace(/\/graphql$/, '/readyz'));
      return { status: response.status, body: await response.json() };
    };
    const down = await eventually(readyOnB, (r) => r.status === 503, 10_000);
    expect(down.body.checks).toMatchObject({ redis: false, store: true });
    const unread = await gql(
      node('c').hub.url,
      `query($id: ID!) { session(id: $id) { events(after: 0) { seq } } }`,
      { id: sessionId },
    );
    expect(unread.errors?.[0]?.extensions?.code).toBe('CLUSTER_UNAVAILABLE');

    // The turn goes on while Redis is away: A still knows who runs the request.
    const [pending] = permissionRequests;
    expect(pending.sessionId).toBe(sessionId);
    const { decidePermission } = await data(
      node('a'),
      `mutation($input: DecidePermissionInput!) { decidePermission(input: $input) { request { status } error { code } } }`,
      { input: { requestId: pending.id, behavior: 'ALLOW' } },
    );
    expect(decidePermission).toEqual({ request: { status: 'ALLOWED' }, error: null });
    await eventually(
      async () => existsSync(target),
      (made) => made,
      30_000,
    );
    // The rest of the turn is stored on B meanwhile.
    await eventually(
      () =>
        data(
          node('b'),
          `query($id: ID!, $after: Int) { session(id: $id) { events(after: $after, limit: 1000) { eventName } } }`,
          { id: sessionId, after: seen.length },
        ),
      (d) => d.session.events.some((event: { eventName: string }) => event.eventName === 'Stop'),
      30_000,
    );

    await redis.start();
    await eventually(readyOnB, (r) => r.status === 200, 15_000);
    await onC.until((event) => event.eventName === 'Stop', 60_000);
    const received = onC.received;
    expectContiguous(received, seen.length + 1);
    expect(received.map((event) => event.eventName)).toEqual(
      expect.arrayContaining(['UserPromptSubmit', 'PermissionRequest', 'PostToolUse', 'Stop']),
    );
    const { session: onB } = await data(
      node('b'),
      `query($id: ID!, $after: Int) { session(id: $id) { events(after: $after, limit: 1000) { ${eventFields} } } }`,
      { id: sessionId, after: seen.length },
    );
    expect(received).toEqual(onB.events);
    onC.dispose();
  });

  it('stops the session through C (a stream on A ends after its SessionEnd) and resumes it through A', async () => {
    const onA = subscribe(node('a'), sessionId, 0);
    const { stopSession } = await data(
      node('c'),
      `mutation($id: ID!) { stopSession(id: $id) { status node } }`,
      { id: sessionId },
    );
    expect(stopSession).toEqual({ status: 'STOPPED', node: 'b' });
    await onA.waitForComplete(20_000);
    expect(onA.received.at(-1)?.eventName).toBe('SessionEnd');
    expectContiguous(onA.received);

    const { resumeSession } = await data(
      node('a'),
      `mutation($id: ID!) { resumeSession(id: $id) { status node } }`,
      { id: sessionId },
    );
    expect(resumeSession).toEqual({ status: 'IDLE', node: 'b' });
    await data(node('a'), `mutation($id: ID!) { stopSession(id: $id) { id } }`, {
      id: sessionId,
    });
  });
});
