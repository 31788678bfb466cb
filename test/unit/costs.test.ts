import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePriceFile } from '../../src/costs/price-file.js';
import { Prices, shippedPrices, type ModelUsage } from '../../src/costs/prices.js';
import { modelUsages, turnCost } from '../../src/costs/turn-cost.js';
import { groupUsage, UsageLedger, type TurnCostRow } from '../../src/costs/usage-ledger.js';
import { openDatabase } from '../../src/store/database.js';

const usage = (model: string, fields: Partial<ModelUsage> = {}): ModelUsage => ({
  model,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_creation_1h_input_tokens: 0,
  ...fields,
});

describe('the price table', () => {
  const prices = new Prices([shippedPrices]);

  it("prices the CLI's models as its own catalog does, the more specific name first", () => {
    // The pinned CLI's own figure for this request: $0.0241 (see the facts file).
    const opus = usage('claude-opus-5-5', {
      input_tokens: 1000,
      cache_creation_input_tokens: 2000,
      cache_creation_1h_input_tokens: 500,
      cache_read_input_tokens: 3000,
      output_tokens: 400,
    });
    expect(prices.cost([opus])).toBeCloseTo(0.0241, 12);
    expect(prices.of('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(prices.of('claude-opus-4-1-20250805')).toMatchObject({ input: 15 });
    expect(prices.of('claude-opus-4-6')).toMatchObject({ input: 5 });
    expect(prices.of('claude-mythos-5-1')).toMatchObject({ cacheRead: 0.25 });
    expect(prices.of('gpt-5')).toBeNull();
  });

  it('knows no cost when a model with tokens has no price', () => {
    expect(
      prices.cost([usage('claude-haiku-4-5', { output_tokens: 1e6 }), usage('mine')]),
    ).toBeNull();
    expect(prices.cost([usage('claude-haiku-4-5', { output_tokens: 1e6 })])).toBe(5);
  });

  it("tries a --prices file's table first", () => {
    const file = parsePriceFile(
      'date: 2026-11-01\nmodels:\n  - match: "claude-opus-5-5*"\n    input: 1\n    output: 2\n',
      'p.yaml',
    );
    expect(file.models[0]).toEqual({
      match: 'claude-opus-5-5*',
      input: 1,
      output: 2,
      cacheWrite5m: 1.25,
      cacheWrite1h: 2,
      cacheRead: 0.1,
    });
    const both = new Prices([file, shippedPrices]);
    expect(both.of('claude-opus-5-5')?.input).toBe(1);
    expect(both.of('claude-sonnet-5')?.input).toBe(2);
  });

  it('refuses a file naming the field to blame', () => {
    expect(() => parsePriceFile('models: []', 'p.yaml')).toThrow('p.yaml: date must be');
    expect(() =>
      parsePriceFile(
        'date: 2026-11-01\nmodels:\n  - match: x\n    input: -1\n    output: 1\n',
        'p.yaml',
      ),
    ).toThrow('p.yaml: models[0].input must be a number');
    expect(() =>
      parsePriceFile(
        'date: 2026-11-01\nmodels:\n  - match: x\n    input: 1\n    output: 1\n    inptu: 2\n',
        'p.yaml',
      ),
    ).toThrow('models[0].inptu is not a field');
    expect(() => parsePriceFile('date: [', 'p.yaml')).toThrow(/^p\.yaml: /);
  });
});

describe("a turn's cost", () => {
  const prices = new Prices([shippedPrices]);

  it('counts each message once per model, in the turn only', () => {
    const entry = (at: number, id: string, model: string, output: number) => ({
      at,
      id,
      model,
      usage: { output_tokens: output, cache_creation: { ephemeral_1h_input_tokens: 0 } },
      texts: [],
    });
    expect(
      modelUsages(
        [
          entry(5, 'a', 'claude-haiku-4-5', 10),
          entry(6, 'a', 'claude-haiku-4-5', 10),
          entry(7, 'b', 'claude-sonnet-5', 3),
          entry(50, 'c', 'claude-sonnet-5', 99),
        ],
        0,
        10,
      ).map((u) => [u.model, u.output_tokens]),
    ).toEqual([
      ['claude-haiku-4-5', 10],
      ['claude-sonnet-5', 3],
    ]);
  });

  it("takes claude's figure where it gave one, shared out by the table's prices", () => {
    const models = [
      usage('claude-haiku-4-5', { output_tokens: 1e6 }),
      usage('claude-sonnet-5', { output_tokens: 1e6 }),
    ];
    expect(turnCost(models, null, prices)).toMatchObject({ costUsd: 15, source: 'PRICE_TABLE' });
    const reported = turnCost(models, 30, prices);
    expect(reported).toMatchObject({ costUsd: 30, source: 'CLAUDE' });
    expect(reported.models.map((m) => m.costUsd)).toEqual([10, 20]);
    expect(turnCost([usage('mine', { output_tokens: 5 })], null, prices)).toMatchObject({
      costUsd: null,
      source: 'UNKNOWN',
    });
    expect(turnCost([usage('mine', { output_tokens: 5 })], 0.5, prices).models[0]!.costUsd).toBe(
      0.5,
    );
  });
});

describe('usage grouped', () => {
  const row = (turnId: string, fields: Partial<TurnCostRow>): TurnCostRow => ({
    turnId,
    sessionId: 's1',
    completedAt: Date.UTC(2026, 10, 26, 12),
    costUsd: 1,
    source: 'PRICE_TABLE',
    models: [{ ...usage('m1', { input_tokens: 10 }), costUsd: 1 }],
    labels: [],
    createdBy: null,
    ...fields,
  });
  const rows = [
    row('t1', { labels: ['a', 'b'], createdBy: 'alice' }),
    row('t2', {
      sessionId: 's2',
      labels: ['a'],
      costUsd: null,
      source: 'UNKNOWN',
      models: [{ ...usage('m2'), costUsd: null }],
    }),
    row('t3', {
      completedAt: Date.UTC(2026, 10, 27, 1),
      createdBy: 'alice',
      costUsd: 2,
      models: [
        { ...usage('m1', { input_tokens: 5 }), costUsd: 0.5 },
        { ...usage('m2'), costUsd: 1.5 },
      ],
    }),
  ];
  const by = (group: Parameters<typeof groupUsage>[1]) =>
    Object.fromEntries(
      groupUsage(rows, group).map((t) => [t.key, [t.turns, t.costUsd, t.unpriced, t.inputTokens]]),
    );

  it('by label (each label of a session), token, session, day and model', () => {
    expect(by('LABEL')).toEqual({ a: [2, 1, 1, 10], b: [1, 1, 0, 10], null: [1, 2, 0, 5] });
    expect(by('TOKEN')).toEqual({ alice: [2, 3, 0, 15], null: [1, 0, 1, 0] });
    expect(by('SESSION')).toEqual({ s1: [2, 3, 0, 15], s2: [1, 0, 1, 0] });
    expect(by('DAY')).toEqual({ '2026-11-26': [2, 1, 1, 10], '2026-11-27': [1, 2, 0, 5] });
    expect(by('MODEL')).toEqual({ m1: [2, 1.5, 0, 15], m2: [2, 1.5, 1, 0] });
  });
});

describe('the usage ledger', () => {
  it("keeps a session's cost as turns are added and pruned", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-'));
    const db = openDatabase(dir);
    try {
      const ledger = new UsageLedger(db);
      const turn = (turnId: string, completedAt: number, costUsd: number | null): TurnCostRow => ({
        turnId,
        sessionId: 's1',
        completedAt,
        costUsd,
        source: costUsd === null ? 'UNKNOWN' : 'PRICE_TABLE',
        models: [],
        labels: [],
        createdBy: null,
      });
      expect(ledger.sessionCost('s1')).toBeNull();
      expect(await ledger.add(turn('t1', 1_000, 1.5))).toBe(true);
      expect(ledger.sessionCost('s1')).toBe(1.5);
      expect(ledger.sessionCost('s1')).toBe(1.5);
      expect(await ledger.add(turn('t1', 1_000, 9))).toBe(false); // kept as it was
      expect(await ledger.add(turn('t2', 2_000, 2))).toBe(true);
      expect(await ledger.add(turn('t3', 3_000, null))).toBe(true);
      expect(ledger.sessionCost('s1')).toBe(3.5);
      expect(ledger.sessionCost('s2')).toBeNull();
      expect(ledger.prune(2_500)).toBe(2);
      expect(ledger.sessionCost('s1')).toBe(0); // a turn kept, of no known cost
      expect(ledger.prune(4_000)).toBe(1);
      expect(ledger.sessionCost('s1')).toBeNull();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
