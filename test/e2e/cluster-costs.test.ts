import { beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { defaultScript } from '../fixtures/anthropic-stub.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { hubHome } from '../helpers/hub-process.js';
import { leftovers } from '../helpers/leftovers.js';

interface Total {
  key: string | null;
  turns: number;
  costUsd: number;
}

const usageQuery = (group: string) =>
  `query { usage(groupBy: ${group}) { key turns costUsd inputTokens outputTokens } }`;
const costQuery = `query($id: ID!) { session(id: $id) { costUsd turns { id costUsd costSource } } }`;

describe("turns' costs across the nodes of a cluster, with the real claude CLI", () => {
  let world: ClaudeWorld;
  let redis: RedisServer;
  const nodes = new Map<string, HubProcess>();

  const data = (on: string, query: string, variables: Record<string, unknown> = {}) =>
    gqlData(nodes.get(on)!.url, query, variables);

  async function startNode(name: string): Promise<void> {
    const home = hubHome(`costs-${name}`);
    const hub = await home.spawn(
      [
        ...hubArgs({ port: await freePort(), ...home }),
        ...['--redis-url', redis.url, '--redis-prefix', `cch-costs-${process.pid}`],
        ...['--node-name', name],
      ],
      world.env,
    );
    nodes.set(name, hub);
  }

  /** A HEADLESS session on the node, with one turn answered and its cost kept. */
  async function sessionWithTurn(on: string): Promise<string> {
    const { id } = (
      await data(
        on,
        `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`,
        { input: { cwd: world.makeCwd(on), permissionMode: 'ACCEPT_EDITS', runtime: 'HEADLESS' } },
      )
    ).createSession;
    const text = `hello from ${on}`;
    await data(
      on,
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      {
        id,
        text,
      },
    );
    await vi.waitFor(
      async () => {
        const { session } = await data(
          on,
          `query($id: ID!) { session(id: $id) { lastAssistantMessage costUsd } }`,
          { id },
        );
        expect(session.lastAssistantMessage).toBe(`echo: ${text}`);
        expect(session.costUsd).not.toBeNull();
      },
      { timeout: 30_000, interval: 100 },
    );
    return id;
  }

  beforeAll(async () => {
    world = await startClaudeWorld(defaultScript);
    redis = await startRedis();
    leftovers.add(() => redis.stop());
    for (const name of ['a', 'b']) await startNode(name);
  });

  it("sums every node's usage, and reads a session's costs from the node that runs it", async () => {
    const onA = await sessionWithTurn('a');
    const onB = await sessionWithTurn('b');
    const own = {
      [onA]: (await data('a', costQuery, { id: onA })).session,
      [onB]: (await data('b', costQuery, { id: onB })).session,
    };
    expect(own[onB].turns).toHaveLength(1);
    expect(own[onB].turns[0].costUsd).not.toBeNull();

    // B's session as A sees it: its cost shared once kept, its turns' asked of B.
    await vi.waitFor(
      async () => expect((await data('a', costQuery, { id: onB })).session).toEqual(own[onB]),
      { timeout: 10_000, interval: 100 },
    );

    const bySession: Total[] = (await data('a', usageQuery('SESSION'))).usage;
    for (const id of [onA, onB]) {
      const total = bySession.find((group) => group.key === id);
      expect(total).toMatchObject({ turns: 1, costUsd: own[id].costUsd });
    }
    const costs = bySession.map((group) => group.costUsd);
    expect(costs).toEqual([...costs].sort((x, y) => y - x));
    const byModel: Total[] = (await data('a', usageQuery('MODEL'))).usage;
    const sum = (totals: Total[]) => totals.reduce((all, group) => all + group.costUsd, 0);
    expect(sum(byModel)).toBeCloseTo(sum(bySession), 9);
    expect(sum(bySession)).toBeCloseTo(own[onA].costUsd + own[onB].costUsd, 9);
  });
});
