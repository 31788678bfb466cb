import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startRedis, type RedisServer } from '../../harness/redis-server.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { clusterNodes, data, type ClusterNodes } from '../helpers/cluster-nodes.js';
import { branches, git, makeRepo } from '../helpers/git-repo.js';
import { leftovers } from '../helpers/leftovers.js';

describe("a session's worktree across the nodes of a cluster, with the real claude CLI", () => {
  let world: ClaudeWorld;
  let redis: RedisServer;
  let nodes: ClusterNodes;
  const node = (name: string) => nodes.node(name);

  beforeAll(async () => {
    world = await startClaudeWorld();
    redis = await startRedis();
    leftovers.add(() => redis.stop());
    nodes = clusterNodes({
      redisUrl: redis.url,
      prefix: `cch-worktrees-${process.pid}`,
      homes: 'worktrees',
      env: world.env,
    });
    for (const name of ['a', 'b', 'c']) await nodes.start(name);
  });

  it('makes a worktree on the node that runs the session, diffs and commits it for a third, and removes it when stopped through another', async () => {
    const repo = world.makeCwd('repo');
    const head = makeRepo(repo);
    const fields =
      'id node status cwd worktree { path branch base repository removal { branchDeleted } }';
    const { createSession: made } = await data(
      node('a'),
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, node: "b", trustWorkspace: true, permissionMode: ACCEPT_EDITS, worktree: { branch: "on-b" } }) { ${fields} } }`,
      { cwd: repo },
    );
    expect(made).toMatchObject({
      node: 'b',
      status: 'IDLE',
      worktree: { branch: 'on-b', base: head, repository: repo, removal: null },
    });
    expect(made.cwd).toBe(made.worktree.path);
    expect(path.dirname(made.worktree.path)).toBe(path.join(node('b').home.dataDir, 'worktrees'));
    await vi.waitFor(async () => {
      const { session } = await data(
        node('c'),
        `query($id: ID!) { session(id: $id) { ${fields} } }`,
        {
          id: made.id,
        },
      );
      expect(session).toEqual(made);
    });

    // A turn's changes, asked of a third node, come from b's snapshots of the worktree.
    const { ask } = await data(
      node('c'),
      `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { ... on AskReply { reply } } }`,
      { id: made.id, text: `write: ${made.cwd}/from-turn.txt made in a turn` },
    );
    expect(ask).toEqual({ reply: `wrote: ${made.cwd}/from-turn.txt` });
    const { session: turned } = await data(
      node('c'),
      `query($id: ID!) { session(id: $id) { turns(last: 1) { changes { path kind diff approvedBy { kind mode } } } } }`,
      { id: made.id },
    );
    expect(turned.turns[0].changes).toEqual([
      {
        path: 'from-turn.txt',
        kind: 'ADD',
        diff: expect.stringContaining('\n+made in a turn\n'),
        approvedBy: [{ kind: 'MODE', mode: 'acceptEdits' }],
      },
    ]);

    // Its diff and a commit of it, asked of a third node, are made by b, where the worktree is.
    writeFileSync(path.join(made.cwd, 'from-c.txt'), 'asked through c\n');
    const { session: changed } = await data(
      node('c'),
      `query($id: ID!) { session(id: $id) { diff } }`,
      { id: made.id },
    );
    expect(changed.diff).toContain('+++ b/from-c.txt\n@@ -0,0 +1 @@\n+asked through c\n');
    const { commitWorktree } = await data(
      node('c'),
      `mutation($id: ID!) { commitWorktree(sessionId: $id, message: "through c") }`,
      { id: made.id },
    );
    expect(git(repo, 'rev-parse', 'on-b')).toBe(commitWorktree);
    git(repo, 'merge', '--quiet', '--ff-only', 'on-b'); // merged, so its branch may go

    const { stopSession } = await data(
      node('c'),
      `mutation($id: ID!) { stopSession(id: $id, removeWorktree: true) { ${fields} } }`,
      { id: made.id },
    );
    expect(stopSession).toMatchObject({
      status: 'STOPPED',
      worktree: { removal: { branchDeleted: true } },
    });
    expect(existsSync(made.worktree.path)).toBe(false);
    expect(branches(repo)).toEqual(['main']);
  });
});
