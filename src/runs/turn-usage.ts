import { readFile } from 'node:fs/promises';
import type { Turn } from './run-fold.js';
import { usageKeys, type Usage } from './usage.js';

/** An assistant message's entry in a transcript, as far as usage goes. */
export interface AssistantEntry {
  readonly at: number;
  readonly id: string | undefined;
  /** The model that wrote it, as the API named it. */
  readonly model: string | undefined;
  readonly usage: Readonly<Record<string, unknown>>;
  readonly texts: readonly string[];
}

/** The assistant entries with usage of a transcript (JSONL). Pure. */
export function assistantEntries(jsonl: string): AssistantEntry[] {
  const entries: AssistantEntry[] = [];
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"usage"')) continue;
    let entry: {
      type?: string;
      timestamp?: string;
      message?: { id?: string; model?: string; usage?: Record<string, unknown>; content?: unknown };
    };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a line being written as we read
    }
    const usage = entry.message?.usage;
    if (entry.type !== 'assistant' || !usage) continue;
    const content = entry.message?.content;
    const texts = Array.isArray(content)
      ? content.flatMap((block: { type?: string; text?: unknown }) =>
          block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
        )
      : [];
    const { id, model } = entry.message ?? {};
    entries.push({ at: Date.parse(entry.timestamp ?? ''), id, model, usage, texts });
  }
  return entries;
}

/**
 * Sums the usage of the assistant entries between two times. A message written as several
 * entries (one per content block) repeats its usage: each message id counts once. Null when no
 * message in that time has any. `hasText` says whether an assistant text block equal to `text`
 * was among them. Pure.
 */
export function usageBetween(
  entries: readonly AssistantEntry[],
  fromMs: number,
  toMs: number,
  text?: string,
): { usage: Usage | null; hasText: boolean } {
  const seen = new Set<string>();
  let total: Usage | null = null;
  let hasText = false;
  for (const { at, id, usage, texts } of entries) {
    if (!(at >= fromMs && at <= toMs)) continue;
    if (text !== undefined) hasText ||= texts.includes(text);
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
    for (const key of usageKeys) if (typeof usage[key] === 'number') total[key] += usage[key];
  }
  return { usage: total, hasText };
}

/** usageBetween over a transcript's text. */
export function sumUsage(jsonl: string, fromMs: number, toMs: number, text?: string) {
  return usageBetween(assistantEntries(jsonl), fromMs, toMs, text);
}

/** Reads a transcript's assistant entries; a missing file has none. */
export async function readAssistantEntries(path: string): Promise<AssistantEntry[]> {
  return assistantEntries(await readFile(path, 'utf8').catch(() => ''));
}

/** How long a completed turn's transcript may take to show its answer. */
const answerWaitMs = 2_000;

/**
 * The transcript entries a turn's usage is read from; null without a transcript. claude may
 * fire Stop before its transcript has the last message: a turn that has just completed waits
 * until `waitMs` (answerWaitMs) after its end for its answer to be written, reading the file
 * again. `entriesOf` may hand out entries read once for several turns of one transcript.
 */
export async function settledEntries(
  turn: Turn,
  now: () => number,
  entriesOf: (path: string) => Promise<readonly AssistantEntry[]> = readAssistantEntries,
  waitMs = answerWaitMs,
): Promise<readonly AssistantEntry[] | null> {
  const transcript = turn.transcriptPath;
  if (!transcript) return null;
  const answer = turn.answer ?? undefined;
  for (
    let entries = await entriesOf(transcript);
    ;
    entries = await readAssistantEntries(transcript)
  ) {
    const { hasText } = usageBetween(entries, turn.startedAt, turn.completedAt ?? now(), answer);
    const waiting = answer !== undefined && !hasText && turn.completedAt !== null;
    if (!waiting || now() - turn.completedAt! > waitMs) return entries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The turn's usage from its transcript (see settledEntries); null when it has none for it. */
export async function turnUsage(
  turn: Turn,
  now: () => number,
  entriesOf?: (path: string) => Promise<readonly AssistantEntry[]>,
): Promise<Usage | null> {
  const entries = await settledEntries(turn, now, entriesOf);
  if (entries === null) return null;
  return usageBetween(entries, turn.startedAt, turn.completedAt ?? now()).usage;
}
