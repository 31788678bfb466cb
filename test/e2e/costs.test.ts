import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { runCli } from '../helpers/cli-run.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';
import { writeTokensFile } from '../helpers/tokens-file.js';

const secrets = { alice: 'alice-secret-0123456789', bob: 'bob-secret-0123456789' };
/** The prices of the --prices file, per million tokens. */
const price = { input: 2, output: 10, cacheWrite5m: 2.5, cacheWrite1h: 4, cacheRead: 0.2 };

interface Turn {
  costUsd: number | null;
  costSource: string;
  usageByModel: {
    model: string;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    costUsd: number | null;
  }[];
}

describe("every turn's cost, and usage by label and token, with the real claude CLI", () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;

  beforeAll(async () => {
    world = await startClaudeWorld();
    const dir = world.makeCwd('config');
    const tokens = writeTokensFile(dir, [
      { name: 'alice', scope: 'admin', secret: secrets.alice },
      { name: 'bob', scope: 'control', secret: secrets.bob },
    ]);
    const prices = path.join(dir, 'prices.yaml');
    writeFileSync(
      prices,
      `date: 2026-11-01\nmodels:\n  - match: "claude-*"\n${Object.entries(price)
        .map(([key, value]) => `    ${key}: ${value}\n`)
        .join('')}`,
    );
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--tokens-file', tokens, '--prices', prices],
      token: secrets.alice,
    });
  });

  /** An operation as one token or the other. */
  async function as<T>(token: string, query: string, variables: Record<string, unknown>) {
    const response = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data!;
  }

  async function session(token: string, runtime: string, labels: string[]) {
    const { createSession } = await as<{ createSession: { id: string } }>(
      token,
      `mutation($cwd: String!, $runtime: SessionRuntime, $labels: [String!]) { createSession(input: { cwd: $cwd, runtime: $runtime, labels: $labels, permissionMode: DEFAULT }) { id } }`,
      { cwd: world.makeCwd('work'), runtime, labels },
    );
    const { ask } = await as<{ ask: { reply: string } }>(
      token,
      `mutation($id: ID!) { ask(sessionId: $id, text: "hello there", timeoutSeconds: 60) { ... on AskReply { reply } } }`,
      { id: createSession.id },
    );
    expect(ask.reply).toBe('echo: hello there');
    return createSession.id;
  }

  const turnOf = async (id: string) =>
    (
      await hub.data<{ session: { costUsd: number | null; turns: Turn[] } }>(
        `query($id: ID!) { session(id: $id) { costUsd turns { costUsd costSource usageByModel { model inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd } } } }`,
        { id },
      )
    ).session;

  /** The transcript claude writes the session's conversation to. */
  async function transcriptOf(id: string): Promise<string> {
    const { session: found } = await hub.data<{
      session: { events: { payload: { transcript_path?: string } }[] };
    }>(`query($id: ID!) { session(id: $id) { events(names: ["UserPromptSubmit"]) { payload } } }`, {
      id,
    });
    return found.events[0]!.payload.transcript_path!;
  }

  it("costs a TMUX turn at the price table's prices for its transcript's tokens", async () => {
    const id = await session(secrets.alice, 'TMUX', ['team-a']);
    const seen = new Set<string>();
    let expected = 0;
    let model = '';
    let output = 0;
    // claude may answer the Stop before its transcript has the answer.
    const file = await transcriptOf(id);
    const text = await vi.waitFor(() => {
      const read = readFileSync(file, 'utf8');
      expect(read).toContain('echo: hello there');
      return read;
    });
    for (const line of text.split('\n')) {
      if (!line.includes('"assistant"')) continue;
      const entry = JSON.parse(line) as {
        type: string;
        message: { id: string; model: string; usage: Record<string, number> };
      };
      if (entry.type !== 'assistant' || seen.has(entry.message.id)) continue;
      seen.add(entry.message.id);
      const usage = entry.message.usage;
      model = entry.message.model;
      output += usage.output_tokens ?? 0;
      expected +=
        ((usage.input_tokens ?? 0) * price.input +
          (usage.output_tokens ?? 0) * price.output +
          (usage.cache_creation_input_tokens ?? 0) * price.cacheWrite5m +
          (usage.cache_read_input_tokens ?? 0) * price.cacheRead) /
        1_000_000;
    }
    expect(expected).toBeGreaterThan(0);
    const { turns } = await turnOf(id);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.costSource).toBe('PRICE_TABLE');
    expect(turns[0]!.costUsd).toBeCloseTo(expected, 12);
    expect(turns[0]!.usageByModel).toEqual([
      expect.objectContaining({ model, outputTokens: output, costUsd: turns[0]!.costUsd }),
    ]);
    // Kept once completed: the session's cost is its turns'.
    await vi.waitFor(async () => expect((await turnOf(id)).costUsd).toBeCloseTo(expected, 12));
  });

  it("keeps a HEADLESS turn's cost as claude's result line says it, and sums usage by label and token", async () => {
    const id = await session(secrets.bob, 'HEADLESS', ['team-b', 'nightly']);
    // The result line may come just after the Stop that answered the ask.
    const result = await vi.waitFor(async () => {
      const { session: found } = await hub.data<{
        session: {
          events: { payload: { message?: { type?: string; total_cost_usd?: number } } }[];
        };
      }>(
        `query($id: ID!) { session(id: $id) { events(names: ["StreamMessage"], limit: 1000) { payload } } }`,
        { id },
      );
      const line = found.events
        .map((event) => event.payload.message)
        .find((message) => message?.type === 'result');
      expect(line).toBeDefined();
      return line!;
    });
    expect(result?.total_cost_usd).toBeGreaterThan(0);
    const { turns } = await turnOf(id);
    expect(turns[0]).toMatchObject({ costSource: 'CLAUDE', costUsd: result!.total_cost_usd });

    const usage = async (groupBy: string) => {
      await vi.waitFor(async () => expect((await turnOf(id)).costUsd).not.toBeNull());
      const { usage: totals } = await hub.data<{
        usage: { key: string | null; turns: number; costUsd: number; unpricedTurns: number }[];
      }>(
        `query($groupBy: UsageGroup!) { usage(groupBy: $groupBy) { key turns costUsd unpricedTurns } }`,
        {
          groupBy,
        },
      );
      return Object.fromEntries(totals.map((total) => [total.key, total]));
    };
    const byToken = await usage('TOKEN');
    const { sessions } = await hub.data<{ sessions: { costUsd: number; createdBy: string }[] }>(
      `{ sessions { costUsd createdBy } }`,
    );
    const [aliceCost, bobCost] = ['alice', 'bob'].map(
      (name) => sessions.find((s) => s.createdBy === name)!.costUsd,
    );
    expect(byToken).toEqual({
      alice: { key: 'alice', turns: 1, costUsd: aliceCost, unpricedTurns: 0 },
      bob: { key: 'bob', turns: 1, costUsd: bobCost, unpricedTurns: 0 },
    });
    const byLabel = await usage('LABEL');
    expect(byLabel).toEqual({
      'team-a': { key: 'team-a', turns: 1, costUsd: aliceCost, unpricedTurns: 0 },
      'team-b': { key: 'team-b', turns: 1, costUsd: bobCost, unpricedTurns: 0 },
      nightly: { key: 'nightly', turns: 1, costUsd: bobCost, unpricedTurns: 0 },
    });
  });

  it('prints the usage by token and by label on the command line, the total counting each turn once', async () => {
    interface Total {
      key: string | null;
      turns: number;
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
      costUsd: number;
      unpricedTurns: number;
    }
    const totals = async (groupBy: string) =>
      (
        await hub.data<{ usage: Total[] }>(
          `query($groupBy: UsageGroup!) { usage(groupBy: $groupBy) { key turns inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd unpricedTurns } }`,
          { groupBy },
        )
      ).usage;
    /** A total as the command prints it: key, turns, tokens in, out, cache read and write, cost. */
    const cells = (total: Total) => [
      total.key ?? '',
      String(total.turns),
      ...[total.inputTokens, total.outputTokens, total.cacheReadTokens, total.cacheWriteTokens].map(
        String,
      ),
      total.costUsd.toFixed(4),
    ];
    const bySession = await totals('SESSION');
    expect(bySession).toHaveLength(2);
    const sum = (field: keyof Total) =>
      bySession.reduce((total, row) => total + (row[field] as number), 0);
    const total = cells({
      key: 'TOTAL',
      ...Object.fromEntries(
        (
          [
            'turns',
            'inputTokens',
            'outputTokens',
            'cacheReadTokens',
            'cacheWriteTokens',
            'costUsd',
            'unpricedTurns',
          ] as const
        ).map((field) => [field, sum(field)]),
      ),
    } as Total);

    for (const [by, head, keys] of [
      ['token', 'TOKEN', ['alice', 'bob']],
      ['label', 'LABEL', ['team-a', 'team-b', 'nightly']],
    ] as const) {
      const expected = await totals(head);
      expect(expected.map((row) => row.key).sort()).toEqual([...keys].sort());
      const printed = await runCli(hub.url, secrets.alice, ['usage', '--by', by]);
      expect(printed).toMatchObject({ code: 0, err: '' });
      const [first, ...rows] = printed.out.split('\n');
      expect(first).toMatch(
        new RegExp(`^${head} +TURNS +IN +OUT +CACHE READ +CACHE WRITE +COST USD$`),
      );
      // The groups as the hub orders them, the costliest first; then the total, each turn once
      // (a turn of two labels counts in both rows).
      expect(rows.map((row) => row.split(/ {2,}/))).toEqual([...expected.map(cells), total]);

      const json = await runCli(hub.url, secrets.alice, ['usage', '--by', by, '--json']);
      expect(json.code).toBe(0);
      expect(json.out.split('\n').map((line) => JSON.parse(line))).toEqual(expected);
    }
    expect(total[1]).toBe('2');

    // Since a moment before either turn: the same rows.
    const since = await runCli(hub.url, secrets.alice, ['usage', '--by', 'token', '--since', '1h']);
    expect(since.out).toBe((await runCli(hub.url, secrets.alice, ['usage', '--by', 'token'])).out);

    for (const [argv, message] of [
      [['--by', 'color'], '--by must be session, label, token, model or day, got "color"'],
      [['--since', 'yesterday'], '--since must be a date or time'],
      [['--since', '2999-01-01'], '--since must not be in the future'],
    ] as const) {
      const refused = await runCli(hub.url, secrets.alice, ['usage', ...argv]);
      expect(refused).toMatchObject({ code: 2, out: '' });
      expect(refused.err).toContain(`claude-code-hub usage: ${message}`);
      expect(refused.err).toContain(
        'Usage: claude-code-hub usage [--by session|label|token|model|day]',
      );
    }
  });
});
