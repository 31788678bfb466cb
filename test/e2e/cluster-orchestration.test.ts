import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { hubHome } from '../helpers/hub-process.js';
import { leftovers } from '../helpers/leftovers.js';

describe('orchestration tools across the nodes of a cluster, with the real claude CLI', () => {
  let world: ClaudeWorld;
  let redis: RedisServer;
  const nodes = new Map<string, HubProcess>();

  const data = (on: string, query: string, variables: Record<string, unknown> = {}) =>
    gqlData(nodes.get(on)!.url, query, variables);
  const create = async (on: string, input: Record<string, unknown> = {}): Promise<string> =>
    (
      await data(
        on,
        `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`,
        { input: { cwd: world.makeCwd(on), permissionMode: 'ACCEPT_EDITS', ...input } },
      )
    ).createSession.id;
  const ask = async (on: string, id: string, text: string): Promise<string> =>
    (
      await data(
        on,
        `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 90) { ... on AskReply { reply } } }`,
        { id, text },
      )
    ).ask.reply;

  beforeAll(async () => {
    world = await startClaudeWorld();
    redis = await startRedis();
    leftovers.add(() => redis.stop());
    for (const name of ['a', 'b']) {
      const home = hubHome(`orchestra-${name}`);
      const hub = await home.spawn(
        [
          ...hubArgs({ port: await freePort(), ...home }),
          ...['--redis-url', redis.url, '--redis-prefix', `cch-orchestra-${process.pid}`],
          ...['--node-name', name],
        ],
        world.env,
      );
      nodes.set(name, hub);
    }
  });

  it('lets a session of A with reach ALL list and ask a session of B, and starts its child on A', async () => {
    const onB = await create('b', { name: 'worker-on-b' });
    const boss = await create('a', { orchestrate: true, orchestrationReach: 'ALL' });

    const listed = await ask('a', boss, 'tool: mcp__hub__list_sessions {}');
    expect(listed).toContain(`"id":"${onB}"`);
    const asked = await ask(
      'a',
      boss,
      `tool: mcp__hub__ask_session ${JSON.stringify({ session: onB, text: 'from A' })}`,
    );
    expect(asked).toBe('tool mcp__hub__ask_session said: echo: from A');

    const started = await ask(
      'a',
      boss,
      `tool: mcp__hub__start_session ${JSON.stringify({ cwd: world.makeCwd('child'), name: 'child' })}`,
    );
    const child = JSON.parse(started.replace('tool mcp__hub__start_session said: ', '')) as {
      id: string;
    };
    // Seen from B: the child runs on A, under its parent.
    const { session } = await data(
      'b',
      `query($id: ID!) { session(id: $id) { node parent { id } } }`,
      { id: child.id },
    );
    expect(session).toEqual({ node: 'a', parent: { id: boss } });
  });
});
