import { readFile } from 'node:fs/promises';
import type { Turn } from './run-fold.js';

/** Token usage as the Messages API reports it, summed. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

const keys = [
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
] as const;

/**
 * Sums the usage of the assistant messages a transcript (JSONL) records between two times. A
 * message written as several entries (one per content block) repeats its usage: each message
 * id counts once. Null when no message in that time has any. Pure.
 */
export function sumUsage(jsonl: string, fromMs: number, toMs: number): Usage | null {
  const seen = new Set<string>();
  let total: Usage | null = null;
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"usage"')) continue;
    let entry: {
      type?: string;
      timestamp?: string;
      message?: { id?: string; usage?: Record<string, unknown> };
    };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a line being written as we read
    }
    const at = Date.parse(entry.timestamp ?? '');
    const usage = entry.message?.usage;
    if (entry.type !== 'assistant' || !usage || !(at >= fromMs && at <= toMs)) continue;
    const id = entry.message?.id;
    if (id !== undefined) {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    total ??= {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    for (const key of keys) if (typeof usage[key] === 'number') total[key] += usage[key];
  }
  return total;
}

/** The turn's usage from its transcript; null when the transcript has none for it. */
export async function turnUsage(turn: Turn, now: number): Promise<Usage | null> {
  if (!turn.transcriptPath) return null;
  const text = await readFile(turn.transcriptPath, 'utf8').catch(() => '');
  return sumUsage(text, turn.startedAt, turn.completedAt ?? now);
}
