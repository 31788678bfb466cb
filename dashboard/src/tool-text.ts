/** Short, readable text for tool calls: what a tool was asked to do and what it answered. */
import { readable } from './dom.js';

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** The command of a Bash call, the path of a file tool, or the input as JSON. */
export function toolSummary(toolName: string | null, input: unknown): string {
  for (const name of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description']) {
    const value = field(input, name);
    if (typeof value === 'string') return toolName === 'Bash' ? value : `${name}: ${value}`;
  }
  return JSON.stringify(input) ?? '';
}

/** Bash's stdout and stderr as a terminal would show them; other responses as JSON. */
export function toolResult(response: unknown): string {
  const stdout = field(response, 'stdout');
  const stderr = field(response, 'stderr');
  if (typeof stdout === 'string' || typeof stderr === 'string') {
    return [stdout, stderr].filter((part) => typeof part === 'string' && part !== '').join('\n');
  }
  return readable(response);
}
