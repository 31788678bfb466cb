import type { CliUsageTotalFragment, UsageGroup } from '../gql/graphql.js';
import type { Command, Values } from './command.js';
import { ExitCode, UsageError } from './command-io.js';
import { table } from './format.js';
import { UsageQuery } from './operations.js';

const groups = ['session', 'label', 'token', 'model', 'day'] as const;

/** What a row stands for when its key is null. */
const noKey: Partial<Record<UsageGroup, string>> = { LABEL: '(no label)', TOKEN: '(no token)' };

const units = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** The group of `--by` (default label). */
function groupOption(value: Values[string]): UsageGroup {
  if (value === undefined) return 'LABEL';
  const group = typeof value === 'string' ? value.toLowerCase() : '';
  if (!(groups as readonly string[]).includes(group)) {
    throw new UsageError(
      `--by must be ${groups.slice(0, -1).join(', ')} or ${groups.at(-1)}, got ${JSON.stringify(value)}`,
    );
  }
  return group.toUpperCase() as UsageGroup;
}

/**
 * The moment of `--since`: a date or time (ISO 8601), or a duration back from now (`12h`, `7d`,
 * `2w`, `90m`); null when not given, for the hub's default (the last 30 days).
 */
export function sinceOption(value: Values[string], now = Date.now()): string | null {
  if (value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const duration = /^(\d+)([mhdw])$/.exec(text);
  let at: number;
  if (duration) {
    at = now - Number(duration[1]) * units[duration[2] as keyof typeof units];
    if (Number(duration[1]) === 0 || !Number.isFinite(at)) at = Number.NaN;
  } else {
    at = /^\d{4}-\d\d-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
  }
  if (Number.isNaN(at) || at < -8.64e15) {
    throw new UsageError(
      `--since must be a date or time (ISO 8601, e.g. 2026-11-01 or 2026-11-01T12:00:00Z) or a duration back from now (e.g. 12h, 7d, 2w, 90m), got ${JSON.stringify(value)}`,
    );
  }
  if (at > now)
    throw new UsageError(`--since must not be in the future, got ${JSON.stringify(value)}`);
  return new Date(at).toISOString();
}

const count = (value: number) => String(Math.round(value));
const dollars = (value: number) => value.toFixed(4);

/** The tokens and cost of the completed turns, grouped. */
export const usageCommands: Record<string, Command> = {
  usage: {
    args: '[--by session|label|token|model|day] [--since DATE|DURATION] [--json]',
    summary:
      "Print the tokens and cost of the turns completed on this node since --since, a row per group, the costliest first, then the total: each group's turns, tokens in, out, cache read and cache write, and cost in US dollars (turns of unknown cost left out of it, counted as unpriced).",
    positionals: 0,
    options: { by: { type: 'string' }, since: { type: 'string' }, json: { type: 'boolean' } },
    optionHelp: [
      '--by GROUP      label (the default; a session with two labels counts in both), token',
      '                (that created the session), model (its share of each turn), day (UTC)',
      '                or session',
      '--since WHEN    a date or time (2026-11-01, 2026-11-01T12:00:00Z) or a duration back',
      '                from now (12h, 7d, 2w, 90m); default: the last 30 days',
      '--json          one JSON object a line per group, no total',
    ],
    async run(client, values, _positionals, io) {
      const groupBy = groupOption(values.by);
      const since = sinceOption(values.since);
      const { usage, bySession } = await client.request(UsageQuery, { groupBy, since });
      if (values.json) {
        for (const total of usage) io.out(JSON.stringify(total));
        return ExitCode.Ok;
      }
      if (usage.length === 0) {
        io.err(`no turn completed since ${since ?? '30 days ago'}`);
        return ExitCode.Ok;
      }
      const total: CliUsageTotalFragment = {
        key: 'TOTAL',
        turns: 0,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0,
        unpricedTurns: 0,
      };
      // Each turn once: by label or model, a turn may count in more than one row.
      for (const row of bySession) {
        total.turns += row.turns;
        total.inputTokens += row.inputTokens;
        total.outputTokens += row.outputTokens;
        total.cacheReadTokens += row.cacheReadTokens;
        total.cacheWriteTokens += row.cacheWriteTokens;
        total.costUsd += row.costUsd;
        total.unpricedTurns += row.unpricedTurns;
      }
      const unpriced = [...usage, total].some((row) => row.unpricedTurns > 0);
      const line = (row: CliUsageTotalFragment, key: string) => [
        key,
        String(row.turns),
        count(row.inputTokens),
        count(row.outputTokens),
        count(row.cacheReadTokens),
        count(row.cacheWriteTokens),
        dollars(row.costUsd),
        ...(unpriced ? [String(row.unpricedTurns)] : []),
      ];
      const head = [
        groupBy,
        'TURNS',
        'IN',
        'OUT',
        'CACHE READ',
        'CACHE WRITE',
        'COST USD',
        ...(unpriced ? ['UNPRICED'] : []),
      ];
      io.out(
        table([
          head,
          ...usage.map((row) => line(row, row.key ?? noKey[groupBy] ?? '(none)')),
          line(total, 'TOTAL'),
        ]),
      );
      return ExitCode.Ok;
    },
  },
};
