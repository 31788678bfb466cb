import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { CostRecorder } from '../../src/costs/cost-recorder.js';
import { Prices, shippedPrices } from '../../src/costs/prices.js';
import { UsageLedger, type TurnCostRow } from '../../src/costs/usage-ledger.js';
import { TurnStatus, type Turn } from '../../src/runs/run-fold.js';
import { openDatabase } from '../../src/store/database.js';

/** A completed turn of HEADLESS shape: claude's own figure, no transcript to read. */
const turn = (sessionId: string, n: number, costUsd: number): Turn => ({
  id: `${sessionId}:${n}`,
  sessionId,
  number: n,
  prompt: `prompt ${n}`,
  status: TurnStatus.Completed,
  ok: true,
  answer: `answer ${n}`,
  error: null,
  claudeSessionId: sessionId,
  resume: `claude --resume ${sessionId}`,
  transcriptPath: null,
  actions: [],
  startedAt: n * 1_000,
  completedAt: n * 1_000 + 500,
  durationMs: 500,
  completedSeq: n * 10,
  costUsd,
  usage: null,
});

describe('the cost recorder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A recorder over a real ledger, with the session's turns as `turns` holds them now. */
  function recorder(turns: Map<string, Turn[]>, dir = mkdtempSync(path.join(tmpdir(), 'rec-'))) {
    dirs.push(dir);
    const db = openDatabase(dir);
    const ledger = new UsageLedger(db);
    const lookups: string[] = [];
    const recorded: TurnCostRow[] = [];
    const costs = new CostRecorder({
      turns: { turns: async (id) => turns.get(id) ?? [] },
      ledger: {
        add: (row) => ledger.add(row),
        ofTurn: (id) => {
          lookups.push(id);
          return ledger.ofTurn(id);
        },
      },
      prices: new Prices([shippedPrices]),
      session: () => ({ labels: ['team'], createdBy: null }),
      recorded: (row) => recorded.push(row),
      log: pino({ level: 'silent' }),
    });
    return { costs, ledger, lookups, recorded, db, dir };
  }

  it('keeps each completed turn once, and looks a kept turn up in the ledger no more', async () => {
    const turns = new Map([['s1', [turn('s1', 1, 0.5)]]]);
    const { costs, ledger, lookups, recorded, db } = recorder(turns);
    await costs.settle('s1');
    expect(recorded.map((row) => [row.turnId, row.costUsd, row.labels])).toEqual([
      ['s1:1', 0.5, ['team']],
    ]);
    expect(lookups).toEqual(['s1:1']);

    // The next prompt and its Stop settle the session twice more: only the new turn is looked up.
    await costs.settle('s1');
    turns.get('s1')!.push(turn('s1', 2, 0.25));
    await costs.settle('s1');
    await costs.settle('s1');
    expect(lookups).toEqual(['s1:1', 's1:2']);
    expect(recorded.map((row) => row.turnId)).toEqual(['s1:1', 's1:2']);
    expect(ledger.sessionCost('s1')).toBe(0.75);
    db.close();
  });

  it('after a restart, finds what the ledger kept and keeps only what it lacks', async () => {
    const turns = new Map([['s1', [turn('s1', 1, 0.5), turn('s1', 2, 0.25)]]]);
    const first = recorder(turns);
    await first.costs.settle('s1');
    first.db.close();

    turns.get('s1')!.push(turn('s1', 3, 1));
    const again = recorder(turns, first.dir);
    await again.costs.settle('s1');
    expect(again.lookups).toEqual(['s1:1', 's1:2', 's1:3']);
    expect(again.recorded.map((row) => row.turnId)).toEqual(['s1:3']);
    expect(again.ledger.sessionCost('s1')).toBe(1.75);
    again.db.close();
  });
});
