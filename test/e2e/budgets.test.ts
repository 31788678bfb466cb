import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const holdFields = 'budgetUsd budgetHold { scope key usd spentUsd }';

describe('budgets that hold a session, with the real claude CLI', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({ env: world.env, args: ['--claude-bin', claudeBin] });
  });

  async function start(input: Record<string, unknown>) {
    const { createSession } = await hub.data<{ createSession: { id: string } }>(
      `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`,
      { input: { cwd: world.makeCwd('work'), permissionMode: 'DEFAULT', ...input } },
    );
    return createSession.id;
  }
  const ask = (id: string, text: string) =>
    hub.data<{ ask: { reply: string } }>(
      `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { ... on AskReply { reply } } }`,
      { id, text },
    );
  const session = async (id: string) =>
    (
      await hub.data<{
        session: {
          budgetUsd: number | null;
          budgetHold: { scope: string; key: string; usd: number; spentUsd: number } | null;
          costUsd: number | null;
          messages: { text: string; status: string }[];
          events: { eventName: string }[];
        };
      }>(
        `query($id: ID!) { session(id: $id) { ${holdFields} costUsd messages { text status } events(limit: 1000) { eventName } } }`,
        { id },
      )
    ).session;
  const attention = async (id: string) =>
    (
      await hub.data<{ attention: { reason: string; session: { id: string } }[] }>(
        `{ attention { reason session { id } } }`,
      )
    ).attention.filter((item) => item.session.id === id);

  it('finishes the turn that reached its budget, holds the message queued behind it, and lets it go when raised', async () => {
    const id = await start({ budgetUsd: 0.000001 });
    const send = (text: string) =>
      hub.data(
        `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
        {
          id,
          text,
        },
      );
    // The first turn is slow: the second message is queued while it runs, before any cost.
    await send('slow: 1500 first');
    await vi.waitFor(
      async () => expect((await session(id)).messages[0]).toMatchObject({ status: 'DELIVERED' }),
      { timeout: 15_000 },
    );
    await send('after the budget');

    const held = await vi.waitFor(
      async () => {
        const now = await session(id);
        expect(now.budgetHold).not.toBeNull();
        // The hold comes first (the queue waits at once), its event just after.
        expect(now.events.map((e) => e.eventName)).toContain('HubBudgetReached');
        return now;
      },
      { timeout: 15_000 },
    );
    expect(held.budgetHold).toEqual({
      scope: 'SESSION',
      key: id,
      usd: 0.000001,
      spentUsd: held.costUsd,
    });
    expect(held.costUsd).toBeGreaterThan(0.000001);
    expect(held.events.map((e) => e.eventName)).toContain('HubBudgetReached');
    expect(await attention(id)).toEqual([{ reason: 'BUDGET_REACHED', session: { id } }]);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const waiting = await session(id);
    expect(waiting.messages.at(-1)).toEqual({ text: 'after the budget', status: 'QUEUED' });
    expect(waiting.events.filter((e) => e.eventName === 'UserPromptSubmit')).toHaveLength(1);

    // Not above what was spent: refused, nothing changes.
    const low = await hub.gql(
      `mutation($id: ID!) { raiseBudget(sessionId: $id, usd: 0.000001) { id } }`,
      { id },
    );
    expect(low.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const { raiseBudget } = await hub.data<{
      raiseBudget: { budgetUsd: number; budgetHold: null };
    }>(`mutation($id: ID!) { raiseBudget(sessionId: $id, usd: 100) { ${holdFields} } }`, { id });
    expect(raiseBudget).toEqual({ budgetUsd: 100, budgetHold: null });
    await vi.waitFor(
      async () =>
        expect((await session(id)).messages.at(-1)).toMatchObject({ status: 'DELIVERED' }),
      { timeout: 30_000 },
    );
    const names = (await session(id)).events.map((e) => e.eventName);
    expect(names.indexOf('HubBudgetRaised')).toBeLessThan(names.lastIndexOf('UserPromptSubmit'));
    expect(await attention(id)).not.toContainEqual(
      expect.objectContaining({ reason: 'BUDGET_REACHED' }),
    );
  });

  it("holds every session of a label once the label's budget is spent, until it is removed", async () => {
    await hub.data(`mutation { setBudget(scope: LABEL, key: "tight-team", usd: 0.000001) }`);
    const id = await start({ labels: ['tight-team'] });
    await ask(id, 'hello');
    const held = await vi.waitFor(async () => {
      const now = await session(id);
      expect(now.budgetHold).toMatchObject({ scope: 'LABEL', key: 'tight-team' });
      return now;
    });
    const { budgets } = await hub.data<{
      budgets: { key: string; usd: number; spentUsd: number }[];
    }>(`{ budgets { key usd spentUsd } }`);
    expect(budgets).toEqual([{ key: 'tight-team', usd: 0.000001, spentUsd: held.costUsd }]);

    await hub.data(`mutation { setBudget(scope: LABEL, key: "tight-team") }`);
    expect((await session(id)).budgetHold).toBeNull();
    expect((await hub.data<{ budgets: unknown[] }>(`{ budgets { key } }`)).budgets).toEqual([]);
  });

  it('refuses a budget that is no amount of money, naming the field', async () => {
    const bad = await hub.gql(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd, budgetUsd: -1 }) { id } }`,
      { cwd: world.makeCwd('bad') },
    );
    expect(bad.errors?.[0]).toMatchObject({
      message: expect.stringContaining('budgetUsd must be more than 0'),
      extensions: { code: 'BAD_USER_INPUT', field: 'budgetUsd' },
    });
    const label = await hub.gql(`mutation { setBudget(scope: LABEL, key: "no spaces", usd: 1) }`);
    expect(label.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
