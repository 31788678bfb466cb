import { readFile } from 'node:fs/promises';

/** What claude recorded of a usage or rate limit that ended a turn. */
export interface UsageLimitEntry {
  /** When the limit resets (ms since the epoch), as the API told claude; null when it did not. */
  readonly resetsAt: number | null;
  /** Which limit (`five_hour`, `seven_day`, ...), when the API named it. */
  readonly kind: string | null;
  /** When claude recorded it (ms since the epoch). */
  readonly at: number;
}

/**
 * The last limit refusal in a transcript (JSONL) recorded at or after `since`: the synthetic
 * assistant entry claude writes for an API error with `error: "rate_limit"`. A subscription's
 * usage limit carries `apiErrorParams.rate_limit_info` (`resetsAt` in seconds, `rateLimitType`);
 * an API key's 429, retried by claude until it gave up, carries no reset time. Pure.
 */
export function usageLimitEntry(jsonl: string, since: number): UsageLimitEntry | null {
  let found: UsageLimitEntry | null = null;
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"rate_limit"')) continue;
    let entry: {
      type?: unknown;
      error?: unknown;
      timestamp?: unknown;
      apiErrorParams?: { rate_limit_info?: { resetsAt?: unknown; rateLimitType?: unknown } };
    };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a line being written as we read
    }
    if (entry.type !== 'assistant' || entry.error !== 'rate_limit') continue;
    const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
    if (!(at >= since)) continue;
    const info = entry.apiErrorParams?.rate_limit_info;
    const resetsAt = typeof info?.resetsAt === 'number' ? info.resetsAt * 1000 : null;
    const kind = typeof info?.rateLimitType === 'string' ? info.rateLimitType : null;
    found = { resetsAt: resetsAt !== null && resetsAt > 0 ? resetsAt : null, kind, at };
  }
  return found;
}

/** usageLimitEntry of the transcript at `path`; null when it cannot be read. */
export async function readUsageLimitEntry(
  path: string,
  since: number,
): Promise<UsageLimitEntry | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  return text === null ? null : usageLimitEntry(text, since);
}
