import type Database from 'better-sqlite3';
import { GroupCommit } from '../store/group-commit.js';
import type { CostSource, ModelCost } from './turn-cost.js';

/** One completed turn's cost, as kept. */
export interface TurnCostRow {
  readonly turnId: string;
  readonly sessionId: string;
  readonly completedAt: number;
  readonly costUsd: number | null;
  readonly source: CostSource;
  readonly models: readonly ModelCost[];
  /** The session's labels, and the token that created it, when the turn completed. */
  readonly labels: readonly string[];
  readonly createdBy: string | null;
}

/** How Query.usage groups turns. */
export const UsageGroup = {
  Session: 'SESSION',
  Label: 'LABEL',
  Token: 'TOKEN',
  Model: 'MODEL',
  Day: 'DAY',
} as const;
export type UsageGroup = (typeof UsageGroup)[keyof typeof UsageGroup];

/** The tokens and cost of one group. */
export interface UsageTotal {
  /** The session id, label, token name, model or `YYYY-MM-DD` (UTC); null: no label or token. */
  readonly key: string | null;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The sum of the costs known. */
  costUsd: number;
  /** Turns (or, by MODEL, models of turns) whose cost is unknown: costUsd leaves them out. */
  unpriced: number;
}

interface Row {
  turn_id: string;
  session_id: string;
  completed_at: number;
  cost_usd: number | null;
  cost_source: string;
  models: string;
  labels: string;
  created_by: string | null;
}

const fromRow = (row: Row): TurnCostRow => ({
  turnId: row.turn_id,
  sessionId: row.session_id,
  completedAt: row.completed_at,
  costUsd: row.cost_usd,
  source: row.cost_source as CostSource,
  models: JSON.parse(row.models) as ModelCost[],
  labels: JSON.parse(row.labels) as string[],
  createdBy: row.created_by,
});

/** The keys a turn counts under when grouped so. Pure. */
function keysOf(row: TurnCostRow, group: UsageGroup): (string | null)[] {
  switch (group) {
    case UsageGroup.Session:
      return [row.sessionId];
    case UsageGroup.Label:
      return row.labels.length > 0 ? [...row.labels] : [null];
    case UsageGroup.Token:
      return [row.createdBy];
    case UsageGroup.Day:
      return [new Date(row.completedAt).toISOString().slice(0, 10)];
    case UsageGroup.Model:
      return row.models.map((model) => model.model);
  }
}

/**
 * Turns' costs grouped: a turn counts once in each group it belongs to (a session with two
 * labels counts in both); by MODEL, each model's share of it. Ordered by cost, highest first. Pure.
 */
export function groupUsage(rows: Iterable<TurnCostRow>, group: UsageGroup): UsageTotal[] {
  const totals = new Map<string | null, UsageTotal>();
  const totalOf = (key: string | null) => {
    let total = totals.get(key);
    if (!total) {
      total = {
        key,
        turns: 0,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0,
        unpriced: 0,
      };
      totals.set(key, total);
    }
    return total;
  };
  for (const row of rows) {
    for (const key of keysOf(row, group)) {
      const total = totalOf(key);
      total.turns += 1;
      const models =
        group === UsageGroup.Model ? row.models.filter((m) => m.model === key) : row.models;
      for (const model of models) {
        total.inputTokens += model.input_tokens;
        total.outputTokens += model.output_tokens;
        total.cacheReadTokens += model.cache_read_input_tokens;
        total.cacheWriteTokens += model.cache_creation_input_tokens;
      }
      const cost = group === UsageGroup.Model ? (models[0]?.costUsd ?? null) : row.costUsd;
      if (cost === null) total.unpriced += 1;
      else total.costUsd += cost;
    }
  }
  return [...totals.values()].sort(costliestFirst);
}

/** The order of groups: the costliest first, then the one of more turns; else as they came. */
export function costliestFirst(a: UsageTotal, b: UsageTotal): number {
  return b.costUsd - a.costUsd || b.turns - a.turns;
}

/** Completed turns' costs, durable in the hub's SQLite file (table turn_costs). */
export class UsageLedger {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #since: Database.Statement;
  readonly #ofTurn: Database.Statement;
  readonly #sessionTotal: Database.Statement;
  readonly #prune: Database.Statement;
  readonly #byLabel: Database.Statement;
  readonly #byToken: Database.Statement;
  /**
   * Each session's total as sessionCost last read it, until a turn of it is added or a prune
   * runs: every change a dashboard sees asks for its session's cost, and a session of many
   * turns would be summed again each time.
   */
  readonly #sessionTotals = new Map<string, number | null>();

  readonly #commits: GroupCommit;

  constructor(
    db: Database.Database,
    /** Where its rows are committed, with the other writes of the same turn. */
    commits: GroupCommit = new GroupCommit(db),
  ) {
    this.#db = db;
    this.#commits = commits;
    this.#insert = db.prepare(
      `INSERT OR IGNORE INTO turn_costs (turn_id, session_id, completed_at, cost_usd, cost_source, models, labels, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#since = db.prepare('SELECT * FROM turn_costs WHERE completed_at >= ?');
    this.#ofTurn = db.prepare('SELECT * FROM turn_costs WHERE turn_id = ?');
    this.#sessionTotal = db.prepare(
      'SELECT SUM(cost_usd) AS cost, COUNT(*) AS turns FROM turn_costs WHERE session_id = ?',
    );
    this.#prune = db.prepare('DELETE FROM turn_costs WHERE completed_at < ?');
    // Labels are kept as a JSON list of strings that hold no quote: `"label"` is one of them.
    this.#byLabel = db.prepare(
      'SELECT COALESCE(SUM(cost_usd), 0) AS cost FROM turn_costs WHERE instr(labels, ?) > 0',
    );
    this.#byToken = db.prepare(
      'SELECT COALESCE(SUM(cost_usd), 0) AS cost FROM turn_costs WHERE created_by = ?',
    );
  }

  /**
   * Keeps a turn's cost; a turn kept already stays as it was. Whether it was new, once
   * committed (with the other writes of its turn of the event loop).
   */
  async add(row: TurnCostRow): Promise<boolean> {
    if (!this.#db.open) return false;
    const models = JSON.stringify(row.models);
    const labels = JSON.stringify(row.labels);
    return this.#commits.add(() => {
      const { changes } = this.#insert.run(
        row.turnId,
        row.sessionId,
        row.completedAt,
        row.costUsd,
        row.source,
        models,
        labels,
        row.createdBy,
      );
      if (changes === 0) return false;
      this.#sessionTotals.delete(row.sessionId);
      return true;
    });
  }

  ofTurn(turnId: string): TurnCostRow | null {
    const row = this.#ofTurn.get(turnId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** The session's kept turns' cost; null when it has none kept. */
  sessionCost(sessionId: string): number | null {
    let total = this.#sessionTotals.get(sessionId);
    if (total === undefined) {
      const row = this.#sessionTotal.get(sessionId) as { cost: number | null; turns: number };
      total = row.turns === 0 ? null : (row.cost ?? 0);
      this.#sessionTotals.set(sessionId, total);
    }
    return total;
  }

  /** What the kept turns of sessions with this label cost. */
  labelCost(label: string): number {
    return (this.#byLabel.get(JSON.stringify(label)) as { cost: number }).cost;
  }

  /** What the kept turns of sessions this token created cost. */
  tokenCost(token: string): number {
    return (this.#byToken.get(token) as { cost: number }).cost;
  }

  /** Turns completed at or after `since`, grouped. */
  usage(since: number, group: UsageGroup): UsageTotal[] {
    const rows = this.#since.iterate(since) as IterableIterator<Row>;
    return groupUsage(
      (function* () {
        for (const row of rows) yield fromRow(row);
      })(),
      group,
    );
  }

  /** Deletes the turns completed before `before`; how many. */
  prune(before: number): number {
    if (!this.#db.open) return 0;
    const pruned = this.#prune.run(before).changes;
    if (pruned > 0) this.#sessionTotals.clear();
    return pruned;
  }
}
