import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { hookSession } from '../helpers/hook-session.js';
import { hubHome, type HubHome } from '../helpers/hub-process.js';
import { leftovers, tempDir } from '../helpers/leftovers.js';

const ruleFields = 'id name decision message source match { tools cwdUnder }';

interface Rule {
  readonly id: string;
  readonly name: string;
}

describe('permission rules across the nodes of a cluster', () => {
  let world: ClaudeWorld;
  let redis: RedisServer;
  const nodes = new Map<string, { hub: HubProcess; home: HubHome }>();
  const node = (name: string) => nodes.get(name)!;
  const baseUrl = (name: string) => node(name).hub.url.replace(/\/graphql$/, '');

  const data = (on: string, query: string, variables: Record<string, unknown> = {}) =>
    gqlData(node(on).hub.url, query, variables);
  const createRule = async (on: string, input: Record<string, unknown>): Promise<Rule> =>
    (
      await data(
        on,
        `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { ${ruleFields} } }`,
        { input },
      )
    ).createPermissionRule;
  const deleteRule = (on: string, id: string) =>
    data(on, `mutation($id: ID!) { deletePermissionRule(id: $id) }`, { id });
  const rulesOn = async (on: string): Promise<Rule[]> =>
    (await data(on, `{ permissionRules { ${ruleFields} } }`)).permissionRules;
  /** Polls a node until its rules, by name, are `rules`. */
  const rulesBecome = (on: string, rules: readonly Rule[], timeoutMs = 5000) =>
    vi.waitFor(
      async () => {
        const listed = (await rulesOn(on)).sort((a, b) => a.name.localeCompare(b.name));
        expect(listed).toEqual([...rules].sort((a, b) => a.name.localeCompare(b.name)));
      },
      { timeout: timeoutMs, interval: 100 },
    );

  /** Starts a hub in `home`, a node of the cluster named `name` unless `alone`. */
  async function startNode(name: string, home: HubHome, alone = false): Promise<HubProcess> {
    const cluster = ['--redis-url', redis.url, '--redis-prefix', `cch-rules-${process.pid}`];
    const hub = await home.spawn(
      [
        ...hubArgs({ port: await freePort(), ...home }),
        ...(alone ? [] : [...cluster, '--node-name', name]),
      ],
      world.env,
    );
    nodes.set(name, { home, hub });
    return hub;
  }

  beforeAll(async () => {
    world = await startClaudeWorld();
    redis = await startRedis();
    leftovers.add(() => redis.stop());
    for (const name of ['a', 'b']) await startNode(name, hubHome(`rules-${name}`));
  });

  it('applies a rule made on A to a session of B, and a deletion made on B on A', async () => {
    const guarded = tempDir('cch-guarded-');
    const rule = await createRule('a', {
      name: 'no rm in guarded',
      decision: 'DENY',
      message: 'nothing is deleted in the guarded folder',
      match: { tools: ['Bash'], cwdUnder: [guarded] },
    });
    expect(rule).toMatchObject({ source: 'API', decision: 'DENY' });
    await rulesBecome('b', [rule]);

    // A session of B's (claude started by hand, its hooks posting to B) meets the rule there.
    const session = await hookSession(
      { baseUrl: baseUrl('b'), dataDir: node('b').home.dataDir },
      { cwd: path.join(guarded, 'src') },
    );
    const call = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
    expect(await session.answer('PreToolUse', { ...call, tool_use_id: 'toolu_1' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'nothing is deleted in the guarded folder',
      },
    });

    expect(await deleteRule('b', rule.id)).toEqual({ deletePermissionRule: true });
    await rulesBecome('a', []);
    expect(await session.answer('PreToolUse', { ...call, tool_use_id: 'toolu_2' })).toEqual({});
    expect(await session.post('SessionEnd', { reason: 'other' })).toBe(200);
  });

  it('keeps the rules through a Redis restart, and shares a rule made while Redis was away', async () => {
    const before = await createRule('a', {
      name: 'ask before pushing',
      decision: 'ASK',
      match: { tools: ['Bash'], cwdUnder: [tempDir('cch-pushing-')] },
    });
    await rulesBecome('b', [before]);
    await redis.kill();
    await vi.waitFor(async () => expect((await fetch(`${baseUrl('b')}/readyz`)).status).toBe(503), {
      timeout: 10_000,
      interval: 100,
    });
    // Made on B alone: written to Redis once it is back, which comes back empty.
    const during = await createRule('b', {
      name: 'ask before fetching',
      decision: 'ASK',
      match: { tools: ['WebFetch'], cwdUnder: [tempDir('cch-fetching-')] },
    });
    expect(await rulesOn('a')).toEqual([before]);

    await redis.start();
    for (const name of ['a', 'b']) await rulesBecome(name, [before, during], 15_000);
    await deleteRule('b', before.id);
    await deleteRule('a', during.id);
    for (const name of ['a', 'b']) await rulesBecome(name, []);
  });

  it('gives a node that joins later the cluster’s rules in place of its own', async () => {
    const shared = await createRule('a', { name: 'shared', decision: 'ALLOW', match: {} });
    await rulesBecome('b', [shared]);
    // C starts alone first (no Redis), with a rule of its own, then joins.
    const home = hubHome('rules-c');
    await startNode('c', home, true);
    const own = await createRule('c', { name: 'own on c', decision: 'DENY', match: {} });
    expect(await rulesOn('c')).toEqual([own]);
    const stop = async () => {
      node('c').hub.process.kill('SIGTERM');
      await node('c').hub.process;
    };
    await stop();
    await startNode('c', home);
    expect(await rulesOn('c')).toEqual([shared]);
    await rulesBecome('a', [shared]);
    // A change made on C reaches the others; C keeps the cluster's rules when it starts alone.
    const fromC = await createRule('c', { name: 'from c', decision: 'ASK', match: {} });
    await rulesBecome('b', [fromC, shared]);
    await stop();
    await startNode('c', home, true);
    expect(await rulesOn('c')).toEqual([fromC, shared]);
    await deleteRule('a', shared.id);
    await deleteRule('a', fromC.id);
    for (const name of ['a', 'b']) await rulesBecome(name, []);
  });
});
