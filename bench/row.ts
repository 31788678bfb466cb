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
