/** Token usage as the Messages API reports it, summed. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The fields of a Usage, as the API names them. */
export const usageKeys = [
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
] as const;

/** The usage a stream's `result` line reports, or null when it has none. Pure. */
export function streamUsage(value: unknown): Usage | null {
  if (typeof value !== 'object' || value === null) return null;
  const usage = value as Record<string, unknown>;
  if (!usageKeys.some((key) => typeof usage[key] === 'number')) return null;
  return Object.fromEntries(
    usageKeys.map((key) => [key, typeof usage[key] === 'number' ? usage[key] : 0]),
  ) as unknown as Usage;
}
