import { describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/hub.js';
import { tempDir } from '../helpers/leftovers.js';

const ruleFields = `id name enabled priority on decision message source createdAt updatedAt
  match { tools input { path pattern } cwdUnder labels runtime origin token }`;

const listed = async (hub: TestHub) =>
  (await hub.data(`{ permissionRules { ${ruleFields} } }`)).permissionRules;

describe('permission rules made through the API', () => {
  it('are kept across a restart on the same data dir, as last changed', async () => {
    const dataDir = tempDir('cch-rules-store-');
    const first = await startHub({ dataDir });
    const create = async (input: Record<string, unknown>) =>
      (
        await first.data(
          `mutation($input: PermissionRuleInput!) { createPermissionRule(input: $input) { id } }`,
          { input },
        )
      ).createPermissionRule.id as string;
    const kept = await create({
      name: 'no force push',
      decision: 'DENY',
      message: 'push without --force',
      match: { tools: ['Bash'], input: [{ path: 'command', pattern: 'git push*--force*' }] },
    });
    const gone = await create({ name: 'web', decision: 'ASK', match: { tools: ['WebFetch'] } });
    await first.data(
      `mutation($id: ID!, $input: PermissionRuleInput!) { updatePermissionRule(id: $id, input: $input) { id } }`,
      {
        id: kept,
        input: {
          name: 'no force push',
          decision: 'DENY',
          priority: 7,
          message: 'push without --force; ask a person to',
          match: {
            tools: ['Bash'],
            input: [{ path: 'command', pattern: 'git push*--force*' }],
            labels: ['shared'],
          },
        },
      },
    );
    await first.data(`mutation($id: ID!) { deletePermissionRule(id: $id) }`, { id: gone });
    const before = await listed(first);
    expect(before).toEqual([
      expect.objectContaining({
        id: kept,
        name: 'no force push',
        priority: 7,
        message: 'push without --force; ask a person to',
        match: expect.objectContaining({ labels: ['shared'] }),
      }),
    ]);
    await first.stop();

    const second = await startHub({ dataDir });
    expect(await listed(second)).toEqual(before);
  });
});
