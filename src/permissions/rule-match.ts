import path from 'node:path';
import {
  RuleDecision,
  RuleTrigger,
  type InputMatch,
  type PermissionRule,
  type RuleMatch,
} from './rule.js';
import { compilePattern, type Pattern } from './rule-pattern.js';

/** One tool call, as a rule reads it. */
export interface ToolCall {
  readonly toolName: string;
  readonly toolInput: unknown;
}

/** The session a call or a stop belongs to, as a rule reads it. */
export interface RuleSession {
  readonly cwd: string;
  readonly labels: readonly string[];
  readonly runtime: string;
  readonly origin: string;
  /** The name of the token that created it. */
  readonly createdBy: string | null;
}

/** What a rule is tried on: a tool call (TOOL_CALL), or claude stopping after its turn's calls. */
export type RuleSubject =
  | ({ readonly on: typeof RuleTrigger.ToolCall; readonly session: RuleSession } & ToolCall)
  | {
      readonly on: typeof RuleTrigger.Stop;
      readonly session: RuleSession;
      readonly turnCalls: readonly ToolCall[];
    };

/** A rule made ready to try: its patterns compiled once. */
export interface CompiledRule {
  readonly rule: PermissionRule;
  /** Why it matches, one phrase per part; null when it does not. */
  explain(subject: RuleSubject): string | null;
}

const longest = 100_000;

export function compileRule(rule: PermissionRule): CompiledRule {
  const { match } = rule;
  const tools = match.tools?.map((glob) => [glob, compilePattern(glob)] as const);
  const input = match.input?.map((item) => ({ ...item, test: compilePattern(item.pattern) }));
  const allowing = rule.decision === RuleDecision.Allow;
  const callParts = (call: ToolCall, cwd: string): string[] | null => {
    const said: string[] = [];
    if (tools) {
      const hit = tools.find(([, test]) => test(call.toolName));
      if (!hit) return null;
      said.push(`tool ${call.toolName} matched ${JSON.stringify(hit[0])}`);
    }
    for (const item of input ?? []) {
      const phrase = inputPart(item, call, cwd, allowing);
      if (phrase === null) return null;
      said.push(phrase);
    }
    return said;
  };
  return {
    rule,
    explain(subject) {
      const sessionSaid = sessionParts(match, subject.session);
      if (sessionSaid === null || rule.on !== subject.on) return null;
      let callSaid: string[] | null = [];
      if (subject.on === RuleTrigger.ToolCall) {
        callSaid = callParts(subject, subject.session.cwd);
      } else if (tools || input) {
        callSaid = null;
        for (const call of subject.turnCalls) {
          const said = callParts(call, subject.session.cwd);
          if (said) {
            callSaid = [`the turn made a matching call (${said.join(', ')})`];
            break;
          }
        }
      }
      if (callSaid === null) return null;
      const all = [...callSaid, ...sessionSaid];
      return all.length > 0
        ? all.join('; ')
        : rule.on === RuleTrigger.Stop
          ? 'it matches every stop'
          : 'it matches every tool call';
    },
  };
}

function sessionParts(match: RuleMatch, session: RuleSession): string[] | null {
  const said: string[] = [];
  if (match.cwdUnder) {
    const cwd = path.resolve(session.cwd);
    const dir = match.cwdUnder.find((folder) => isUnder(cwd, folder));
    if (dir === undefined) return null;
    said.push(`cwd ${cwd} is under ${dir}`);
  }
  if (match.labels) {
    const label = match.labels.find((wanted) => session.labels.includes(wanted));
    if (label === undefined) return null;
    said.push(`the session is labelled ${JSON.stringify(label)}`);
  }
  if (match.runtime) {
    if (session.runtime !== match.runtime) return null;
    said.push(`runtime ${match.runtime}`);
  }
  if (match.origin) {
    if (session.origin !== match.origin) return null;
    said.push(`origin ${match.origin}`);
  }
  if (match.token != null) {
    if (session.createdBy !== match.token) return null;
    said.push(`created by token ${JSON.stringify(match.token)}`);
  }
  return said;
}

/** Whether `file` (resolved) is `folder` or inside it. */
export function isUnder(file: string, folder: string): boolean {
  const dir = path.resolve(folder);
  return file === dir || file.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/**
 * One input part. A field named `path` or `*_path` is resolved against the session's cwd first
 * (`..` climbs nowhere a pattern did not say). A Bash `command` is split into its commands at
 * `;`, `&`, `|` and line breaks: an ALLOW rule matches only when each of them matches and none
 * substitutes a command (`$(...)`, backquotes, `<(...)`); DENY and ASK when the whole or any does.
 */
function inputPart(
  item: InputMatch & { test: Pattern },
  call: ToolCall,
  cwd: string,
  allowing: boolean,
): string | null {
  let value = fieldValue(call.toolInput, item.path);
  if (value === undefined || value.length > longest) return null;
  const field = item.path.split('.').at(-1)!;
  if (field === 'path' || field.endsWith('_path')) value = path.resolve(cwd, value);
  const pattern = JSON.stringify(item.pattern);
  const shown = `${item.path} ${JSON.stringify(clip(value))}`;
  if (call.toolName !== 'Bash' || item.path !== 'command') {
    return item.test(value) ? `${shown} matched ${pattern}` : null;
  }
  const commands = splitCommands(value);
  if (allowing) {
    if (/\$\(|`|[<>]\(/.test(value) || commands.length === 0) return null;
    if (!commands.every((command) => item.test(command))) return null;
    return commands.length === 1
      ? `${shown} matched ${pattern}`
      : `each of the ${commands.length} commands of ${shown} matched ${pattern}`;
  }
  if (item.test(value)) return `${shown} matched ${pattern}`;
  const hit = commands.find((command) => item.test(command));
  return hit === undefined
    ? null
    : `${item.path}'s command ${JSON.stringify(clip(hit))} matched ${pattern}`;
}

/** A shell command line's commands, split at control operators (quotes not understood: a split
 * inside quotes only makes an ALLOW rule match less and a DENY rule more). */
export function splitCommands(line: string): string[] {
  return line
    .split(/&&|\|\||[;&|\n\r]/)
    .map((command) => command.trim())
    .filter((command) => command.length > 0);
}

function fieldValue(input: unknown, dotted: string): string | undefined {
  let value: unknown = input;
  for (const key of dotted.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const rank: Record<RuleDecision, number> = { DENY: 0, ASK: 1, ALLOW: 2 };

/**
 * Rules in the order they are tried: higher priority first; at equal priority DENY, then ASK,
 * then ALLOW (the careful one wins); then the older first, then by name. Disabled rules, which
 * are never tried, come last in the same order.
 */
export function orderRules(rules: Iterable<PermissionRule>): PermissionRule[] {
  return [...rules].sort(
    (a, b) =>
      Number(b.enabled) - Number(a.enabled) ||
      b.priority - a.priority ||
      rank[a.decision] - rank[b.decision] ||
      a.createdAt - b.createdAt ||
      a.name.localeCompare(b.name),
  );
}
