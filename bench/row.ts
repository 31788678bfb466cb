/** One row of the bench's table, and how its values are computed and written. */
export interface Row {
  readonly section: string;
  readonly metric: string;
  readonly value: string;
  readonly target?: string;
  readonly ok?: boolean;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Milliseconds as the table writes them: two decimals under 10 ms, one above. */
export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/** p50 / p99 / max of latencies, as the table writes them. */
export const spread = (values: number[]) =>
  `${[50, 99].map((p) => ms(percentile(values, p))).join(' / ')} / ${ms(values.reduce((a, b) => Math.max(a, b), -Infinity))}`;

/**
 * A latency against the machine's floor for the same work in the same run: both spreads, and
 * whether the hub's p99 is within `times` the floor's plus `plusMs`.
 */
export function againstFloor(
  hub: number[],
  floor: number[],
  times: number,
  plusMs = 0,
): Pick<Row, 'value' | 'target' | 'ok'> {
  const bound = times * percentile(floor, 99) + plusMs;
  return {
    value: `hub ${spread(hub)}, floor ${spread(floor)}`,
    target: `p99 <= ${times}x floor${plusMs ? ` + ${plusMs} ms` : ''} (${ms(bound)})`,
    ok: percentile(hub, 99) <= bound,
  };
}
