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
 * id counts once. Null when no message in that time has any. `hasText` says whether an
 * assistant text block equal to `text` was among them. Pure.
 */
export function sumUsage(
  jsonl: string,
  fromMs: number,
  toMs: number,
  text?: string,
): { usage: Usage | null; hasText: boolean } {
  const seen = new Set<string>();
  let total: Usage | null = null;
  let hasText = false;
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"usage"')) continue;
    let entry: {
      type?: string;
      timestamp?: string;
      message?: { id?: string; usage?: Record<string, unknown>; content?: unknown };
    };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a line being written as we read
    }
    const at = Date.parse(entry.timestamp ?? '');
    const usage = entry.message?.usage;
    if (entry.type !== 'assistant' || !usage || !(at >= fromMs && at <= toMs)) continue;
    const content = entry.message?.content;
    if (text !== undefined && Array.isArray(content))
      hasText ||= content.some(
        (block: { type?: string; text?: unknown }) => block?.type === 'text' && block.text === text,
      );
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
  return { usage: total, hasText };
}

/** How long a completed turn's transcript may take to show its answer. */
const answerWaitMs = 2_000;

/**
 * The turn's usage from its transcript; null when the transcript has none for it. claude may
 * fire Stop before its transcript has the last message: a turn that has just completed waits
 * a moment for its answer to be written.
 */
export async function turnUsage(turn: Turn, now: () => number): Promise<Usage | null> {
  const transcript = turn.transcriptPath;
  if (!transcript) return null;
  const answer = turn.answer ?? undefined;
  for (;;) {
    const jsonl = await readFile(transcript, 'utf8').catch(() => '');
    const { usage, hasText } = sumUsage(jsonl, turn.startedAt, turn.completedAt ?? now(), answer);
    const waiting = answer !== undefined && !hasText && turn.completedAt !== null;
    if (!waiting || now() - turn.completedAt! > answerWaitMs) return usage;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
