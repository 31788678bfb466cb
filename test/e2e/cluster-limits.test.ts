import { beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { defaultScript } from '../fixtures/anthropic-stub.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { hubHome } from '../helpers/hub-process.js';
import { leftovers } from '../helpers/leftovers.js';

const limitFields = 'status account limitedUntil usageLimit { until kind reset cutOff }';

interface Limited {
  status: string;
  account: string;
  limitedUntil: string | null;
  usageLimit: { until: string; kind: string; reset: string; cutOff: boolean } | null;
}

describe("an account's usage limit across the nodes of a cluster, with the real claude CLI", () => {
  let world: ClaudeWorld;
  let redis: RedisServer;
  const nodes = new Map<string, HubProcess>();
  let resetsAt = 0;

  const data = (on: string, query: string, variables: Record<string, unknown> = {}) =>
    gqlData(nodes.get(on)!.url, query, variables);
  const start = async (on: string): Promise<string> =>
    (
      await data(
        on,
        `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`,
        { input: { cwd: world.makeCwd(on), permissionMode: 'ACCEPT_EDITS', runtime: 'HEADLESS' } },
      )
    ).createSession.id;
  const limitOf = async (on: string, id: string): Promise<Limited> =>
    (await data(on, `query($id: ID!) { session(id: $id) { ${limitFields} } }`, { id })).session;
  const becomesLimited = (on: string, id: string) =>
    vi.waitFor(
      async () => {
        const now = await limitOf(on, id);
        expect(now.status).toBe('LIMITED');
        return now;
      },
      { timeout: 20_000, interval: 100 },
    );

  async function startNode(name: string): Promise<void> {
    const home = hubHome(`limits-${name}`);
    const hub = await home.spawn(
      [
        ...hubArgs({ port: await freePort(), ...home }),
        ...['--redis-url', redis.url, '--redis-prefix', `cch-limits-${process.pid}`],
        ...['--node-name', name],
      ],
      world.env,
    );
    nodes.set(name, hub);
  }

  beforeAll(async () => {
    // One subscription for every node: its first LIMIT-ME prompt meets the limit, for an hour.
    world = await startClaudeWorld(
      (turn) => {
        if (turn.prompt.includes('LIMIT-ME') && resetsAt === 0) {
          resetsAt = Math.floor(Date.now() / 1000) + 3600;
          return { usageLimit: { resetsAt } };
        }
        return defaultScript(turn);
      },
      { login: 'oauth-token' },
    );
    redis = await startRedis();
    leftovers.add(() => redis.stop());
    for (const name of ['a', 'b']) await startNode(name);
  });

  it('holds the sessions of the account on the other node, and on a node that joins later', async () => {
    const onA = await start('a');
    const onB = await start('b');
    await data(
      'b',
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "hello from B") { id } }`,
      {
        id: onB,
      },
    );
    await vi.waitFor(
      async () =>
        expect(
          (
            await data('b', `query($id: ID!) { session(id: $id) { lastAssistantMessage } }`, {
              id: onB,
            })
          ).session.lastAssistantMessage,
        ).toBe('echo: hello from B'),
      { timeout: 30_000, interval: 100 },
    );

    await data(
      'a',
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "LIMIT-ME please") { id } }`,
      {
        id: onA,
      },
    );
    const cut = await becomesLimited('a', onA);
    const until = new Date(resetsAt * 1000).toISOString();
    expect(cut.usageLimit).toEqual({ until, kind: 'five_hour', reset: 'CLAUDE', cutOff: true });

    const other = await becomesLimited('b', onB);
    expect(other.account).toBe(cut.account);
    expect(other.usageLimit).toEqual({ until, kind: 'five_hour', reset: 'CLAUDE', cutOff: false });
    // Seen so from the other node too.
    expect((await limitOf('a', onB)).status).toBe('LIMITED');

    // B's next message waits for the reset: no request reaches the API.
    const requests = world.stub.requests.length;
    await data(
      'b',
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "not before the reset") { id } }`,
      { id: onB },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(world.stub.requests).toHaveLength(requests);
    const { session } = await data(
      'b',
      `query($id: ID!) { session(id: $id) { messages { text status } } }`,
      { id: onB },
    );
    expect(session.messages.at(-1)).toEqual({ text: 'not before the reset', status: 'QUEUED' });

    // A node that joins after: its sessions of the account wait from their start.
    await startNode('c');
    const onC = await start('c');
    expect((await becomesLimited('c', onC)).usageLimit).toEqual({
      until,
      kind: 'five_hour',
      reset: 'CLAUDE',
      cutOff: false,
    });
  });
});
