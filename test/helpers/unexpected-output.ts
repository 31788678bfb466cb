import { formatWithOptions } from 'node:util';

/**
 * What the code under test printed, logged at error level or left unhandled, and which error
 * logs a test said it provokes. `test/setup/fail-on-unexpected-output.ts` fails the test during
 * which anything unexpected happened, so a passing run prints the reporter's lines only.
 */

interface ExpectedLog {
  readonly pattern: string | RegExp;
  /** Set in a test: met by its end; set in a hook outside tests: by the end of the file. */
  readonly scope: 'test' | 'file';
  seen: boolean;
}

const unexpected: string[] = [];
const expectedLogs: ExpectedLog[] = [];
let scope: 'test' | 'file' = 'file';

/** Records something that fails the current test: console output, an unhandled rejection. */
export function reportUnexpected(what: string): void {
  unexpected.push(what);
}

/** One line for an error message, from whatever was passed to console or thrown. */
export function describeValues(values: unknown[]): string {
  const text = formatWithOptions({ depth: 1, breakLength: Infinity }, ...values);
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/**
 * Checks one log line of a hub under test (pino JSON, or anything else a spawned hub wrote to
 * stderr). Lines at error or fatal level, and lines that are not the hub's JSON, fail the test
 * unless it expects them with `expectErrorLog`; lower levels are the hub's normal chatter.
 */
export function checkHubLogLine(hub: string, line: string): void {
  if (line.trim() === '') return;
  const entry = parseLogLine(line);
  if (entry && entry.level !== 'error' && entry.level !== 'fatal') return;
  const match = expectedLogs.find(({ pattern }) =>
    typeof pattern === 'string' ? entry?.msg === pattern : pattern.test(line),
  );
  if (match) match.seen = true;
  else reportUnexpected(`${hub} logged: ${line.length > 500 ? `${line.slice(0, 500)}...` : line}`);
}

/** A pino line's fields; null for anything else (a crash's stack trace, a warning from Node). */
function parseLogLine(line: string): { level?: unknown; msg?: unknown } | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/**
 * Says that the current test (or, called in a `beforeAll`, the current file) makes a hub log at
 * error level: a line whose `msg` is `pattern`, or any line a RegExp matches. Such lines are
 * allowed then, and the test fails if none arrived by its end.
 */
export function expectErrorLog(pattern: string | RegExp): void {
  expectedLogs.push({ pattern, scope, seen: false });
}

/** Marks where the setup file's hooks are: inside a test, or in the file's other hooks. */
export function enterScope(next: 'test' | 'file'): void {
  scope = next;
}

/**
 * Everything unexpected since the last call and, when a test or the file ends, the logs it
 * expected that never came; forgets what it returns.
 */
export function takeFindings(ending: 'test' | 'file' | null): string[] {
  const findings = unexpected.splice(0);
  for (let i = expectedLogs.length - 1; i >= 0; i--) {
    const expected = expectedLogs[i]!;
    if (ending === null || (ending === 'test' && expected.scope === 'file')) continue;
    const { pattern } = expected;
    const quoted = typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern);
    if (!expected.seen) findings.push(`expected a hub to log ${quoted} at error level; none did`);
    expectedLogs.splice(i, 1);
  }
  return findings;
}
