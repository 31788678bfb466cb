import path from 'node:path';
import { RuleDecision, RuleTrigger, type InputMatch, type PermissionRule } from './rule.js';
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

/** A rule made ready to try: its patterns compiled and its folders resolved once. */
export interface CompiledRule {
  readonly rule: PermissionRule;
  /**
   * Whether it matches; with `said`, one phrase per part that holds is pushed there (only the
   * rule that decides is asked for them, so the others build no text).
   */
  check(subject: SubjectView, said: string[] | null): boolean;
}

const longest = 100_000;

/** One input field of one call as patterns read it, worked out once however many rules read it. */
interface Field {
  readonly value: string;
  commands?: string[];
  substitutes?: boolean;
}

/** A subject with what its rules read of it worked out once per decision, not once per rule. */
export class SubjectView {
  readonly subject: RuleSubject;
  /** The session's working folder, resolved. */
  readonly cwd: string;
  /** The call a TOOL_CALL rule reads, or the turn's calls a STOP rule reads. */
  readonly calls: readonly ToolCall[];
  /** Per call, made at its first read: most calls meet no rule that reads a field. */
  readonly #fields: Map<string, Field | null>[];

  constructor(subject: RuleSubject) {
    this.subject = subject;
    this.cwd = path.resolve(subject.session.cwd);
    this.calls = subject.on === RuleTrigger.ToolCall ? [subject] : subject.turnCalls;
    this.#fields = [];
  }

  /**
   * A field of a call's input as a string, null when absent, not a scalar or too long. A field
   * named `path` or `*_path` is resolved against the session's cwd (`..` climbs nowhere a
   * pattern did not say).
   */
  field(call: number, dotted: string): Field | null {
    const fields = (this.#fields[call] ??= new Map());
    let field = fields.get(dotted);
    if (field === undefined) {
      const value = fieldValue(this.calls[call]!.toolInput, dotted);
      const name = dotted.slice(dotted.lastIndexOf('.') + 1);
      field =
        value === undefined || value.length > longest
          ? null
          : {
              value:
                name === 'path' || name.endsWith('_path') ? path.resolve(this.cwd, value) : value,
            };
      fields.set(dotted, field);
    }
    return field;
  }
}

export function compileRule(rule: PermissionRule): CompiledRule {
  const { match } = rule;
  const tools = match.tools?.map((glob) => ({ glob, test: compilePattern(glob) }));
  const input = match.input?.map((item) => ({ ...item, test: compilePattern(item.pattern) }));
  const folders = match.cwdUnder?.map((folder) => ({ folder, dir: path.resolve(folder) }));
  const allowing = rule.decision === RuleDecision.Allow;

  const callHolds = (view: SubjectView, index: number, said: string[] | null): boolean => {
    const call = view.calls[index]!;
    if (tools) {
      const hit = matchingGlob(tools, call.toolName);
      if (!hit) return false;
      said?.push(`tool ${call.toolName} matched ${JSON.stringify(hit.glob)}`);
    }
    for (const item of input ?? []) {
      const field = view.field(index, item.path);
      if (field === null || !inputHolds(item, call.toolName, field, allowing, said)) return false;
    }
    return true;
  };

  const sessionHolds = (view: SubjectView, said: string[] | null): boolean => {
    const { session } = view.subject;
    if (folders) {
      const hit = folderHolding(folders, view.cwd);
      if (!hit) return false;
      said?.push(`cwd ${view.cwd} is under ${hit.folder}`);
    }
    if (match.labels) {
      const label = labelCarried(match.labels, session.labels);
      if (label === null) return false;
      said?.push(`the session is labelled ${JSON.stringify(label)}`);
    }
    if (match.runtime) {
      if (session.runtime !== match.runtime) return false;
      said?.push(`runtime ${match.runtime}`);
    }
    if (match.origin) {
      if (session.origin !== match.origin) return false;
      said?.push(`origin ${match.origin}`);
    }
    if (match.token != null) {
      if (session.createdBy !== match.token) return false;
      said?.push(`created by token ${JSON.stringify(match.token)}`);
    }
    return true;
  };

  return {
    rule,
    check(view, said) {
      if (rule.on !== view.subject.on) return false;
      // The session's parts are cheaper to try than patterns: first, and said after the call's.
      if (!sessionHolds(view, null)) return false;
      if (view.subject.on === RuleTrigger.ToolCall) {
        if (!callHolds(view, 0, said)) return false;
      } else if (tools || input) {
        const turnSaid: string[] | null = said && [];
        let index = 0;
        while (index < view.calls.length && !callHolds(view, index, null)) index++;
        if (index === view.calls.length) return false;
        if (said && turnSaid) {
          callHolds(view, index, turnSaid);
          said.push(`the turn made a matching call (${turnSaid.join(', ')})`);
        }
      }
      if (said) {
        sessionHolds(view, said);
        if (said.length === 0)
          said.push(
            rule.on === RuleTrigger.Stop ? 'it matches every stop' : 'it matches every tool call',
          );
      }
      return true;
    },
  };
}

// Loops, not find(): a callback would be a closure made for every rule at every call.
function matchingGlob<T extends { test: Pattern }>(globs: readonly T[], name: string): T | null {
  for (const glob of globs) if (glob.test(name)) return glob;
  return null;
}

function folderHolding<T extends { dir: string }>(folders: readonly T[], cwd: string): T | null {
  for (const folder of folders) if (isUnderDir(cwd, folder.dir)) return folder;
  return null;
}

function labelCarried(wanted: readonly string[], carried: readonly string[]): string | null {
  for (const label of wanted) if (carried.includes(label)) return label;
  return null;
}

const shown = (item: InputMatch, value: string) => `${item.path} ${JSON.stringify(clip(value))}`;

/** Whether `file` (resolved) is the resolved folder `dir` or inside it. */
function isUnderDir(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/**
 * One input part. A Bash `command` is split into its commands at `;`, `&`, `|` and line
 * breaks: an ALLOW rule matches only when each of them matches and none substitutes a command
 * (`$(...)`, backquotes, `<(...)`); DENY and ASK when the whole or any does.
 */
function inputHolds(
  item: InputMatch & { test: Pattern },
  toolName: string,
  field: Field,
  allowing: boolean,
  said: string[] | null,
): boolean {
  // No closure is made here: every rule runs this for every call.
  const { value } = field;
  if (toolName !== 'Bash' || item.path !== 'command') {
    if (!item.test(value)) return false;
    said?.push(`${shown(item, value)} matched ${JSON.stringify(item.pattern)}`);
    return true;
  }
  const commands = (field.commands ??= splitCommands(value));
  if (allowing) {
    field.substitutes ??= /\$\(|`|[<>]\(/.test(value);
    if (field.substitutes || commands.length === 0) return false;
    for (const command of commands) if (!item.test(command)) return false;
    said?.push(
      `${commands.length === 1 ? '' : `each of the ${commands.length} commands of `}${shown(item, value)} matched ${JSON.stringify(item.pattern)}`,
    );
    return true;
  }
  if (item.test(value)) {
    said?.push(`${shown(item, value)} matched ${JSON.stringify(item.pattern)}`);
    return true;
  }
  for (const command of commands) {
    if (!item.test(command)) continue;
    said?.push(
      `${item.path}'s command ${JSON.stringify(clip(command))} matched ${JSON.stringify(item.pattern)}`,
    );
    return true;
  }
  return false;
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
