import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** Claude Code's config dir, which CLAUDE_CONFIG_DIR moves away from ~/.claude. */
export function claudeConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  return env.CLAUDE_CONFIG_DIR || path.join(homedir(), '.claude');
}

/**
 * Where claude records a conversation: `<config dir>/projects/<cwd, every character but
 * letters and digits replaced by '-'>/<session id>.jsonl`.
 */
export function transcriptPathFor(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  sessionId: string,
): string {
  return path.join(
    claudeConfigDir(env),
    'projects',
    cwd.replace(/[^a-zA-Z0-9]/g, '-'),
    `${sessionId}.jsonl`,
  );
}

/**
 * The Claude session id in what a person would paste to continue a conversation: the id, or
 * `claude --resume <id>` / `claude -r <id>`, with or without backticks. Null when it is none.
 */
export function resumeId(text: string): string | null {
  const line = text
    .trim()
    .replace(/^`+|`+$/g, '')
    .trim();
  const match = /^(?:(?:claude\s+)?(?:--resume|-r)\s+)?([0-9a-fA-F-]{36})$/.exec(line);
  return match ? match[1]!.toLowerCase() : null;
}

/** One step of a conversation as the transcript records it, shortened for an event. */
export type TranscriptStep =
  | { readonly kind: 'prompt'; readonly at: string; readonly text: string }
  | { readonly kind: 'assistant'; readonly at: string; readonly text: string }
  | {
      readonly kind: 'tool_use';
      readonly at: string;
      readonly name: string;
      readonly input: unknown;
    }
  | {
      readonly kind: 'tool_result';
      readonly at: string;
      readonly isError: boolean;
      readonly text: string;
    };

export interface TranscriptSummary {
  /** How many steps the transcript has after the given time. */
  readonly count: number;
  /** The last of them (at most `maxSteps`). */
  readonly steps: TranscriptStep[];
  /** True when the last step is the assistant's text: the turn is over. */
  readonly turnOver: boolean;
  readonly lastAssistantMessage: string | null;
}

const maxText = 2000;

function shorten(text: string): string {
  return text.length > maxText ? `${text.slice(0, maxText)}…` : text;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: string }) =>
      block?.type === 'text' ? (block.text ?? '') : '',
    )
    .join('');
}

/** The steps of a transcript (JSONL, one entry a line) recorded after `sinceMs`. Pure. */
export function summariseTranscript(
  jsonl: string,
  sinceMs: number,
  maxSteps = 50,
): TranscriptSummary {
  const steps: TranscriptStep[] = [];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let entry: {
      type?: string;
      timestamp?: string;
      isMeta?: boolean;
      message?: { content?: unknown };
    };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a line being written as we read
    }
    const at = entry.timestamp ?? '';
    if (
      (entry.type !== 'user' && entry.type !== 'assistant') ||
      entry.isMeta ||
      !(Date.parse(at) > sinceMs)
    )
      continue;
    const content = entry.message?.content;
    const blocks = Array.isArray(content)
      ? (content as Record<string, unknown>[])
      : [{ type: 'text', text: content }];
    for (const block of blocks) {
      if (block.type === 'text' && typeof block.text === 'string' && block.text) {
        steps.push({
          kind: entry.type === 'user' ? 'prompt' : 'assistant',
          at,
          text: shorten(block.text),
        });
      } else if (block.type === 'tool_use') {
        steps.push({ kind: 'tool_use', at, name: String(block.name), input: block.input });
      } else if (block.type === 'tool_result') {
        steps.push({
          kind: 'tool_result',
          at,
          isError: block.is_error === true,
          text: shorten(blockText(block.content)),
        });
      }
    }
  }
  const last = steps.at(-1);
  return {
    count: steps.length,
    steps: steps.slice(-maxSteps),
    turnOver: last?.kind === 'assistant',
    lastAssistantMessage: last?.kind === 'assistant' ? last.text : null,
  };
}

/** Reads and summarises a transcript file; a missing file has no steps. */
export async function readTranscriptSince(
  path: string,
  sinceMs: number,
): Promise<TranscriptSummary> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return summariseTranscript(text, sinceMs);
}
