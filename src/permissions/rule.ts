import { RuntimeKind, SessionOrigin } from '../runtime/session-runtime.js';
import { compilePattern } from './rule-pattern.js';

/** What a rule does to what it matches. */
export const RuleDecision = { Allow: 'ALLOW', Deny: 'DENY', Ask: 'ASK' } as const;
export type RuleDecision = (typeof RuleDecision)[keyof typeof RuleDecision];

/** Where a rule applies: a tool call claude would make, or claude stopping at the end of a turn. */
export const RuleTrigger = { ToolCall: 'TOOL_CALL', Stop: 'STOP' } as const;
export type RuleTrigger = (typeof RuleTrigger)[keyof typeof RuleTrigger];

/** Where a rule comes from: the API (kept in the store) or the --policy-file (read-only). */
export const RuleSource = { Api: 'API', File: 'FILE' } as const;
export type RuleSource = (typeof RuleSource)[keyof typeof RuleSource];

/** A pattern on one field of the tool input. */
export interface InputMatch {
  /** A dotted path into the tool input: `command`, `file_path`, `edits.0.old_string`. */
  readonly path: string;
  /** A glob (`*` matches any characters, `/` included) or a regex written `/.../flags`. */
  readonly pattern: string;
}

/** What a rule matches: every part given must hold; a list part holds when one item does. */
export interface RuleMatch {
  readonly tools?: readonly string[] | null;
  readonly input?: readonly InputMatch[] | null;
  readonly cwdUnder?: readonly string[] | null;
  readonly labels?: readonly string[] | null;
  readonly runtime?: RuntimeKind | null;
  readonly origin?: SessionOrigin | null;
  /** The name of the token that created the session. */
  readonly token?: string | null;
}

/** What a client (or the policy file) gives for a rule. */
export interface RuleInput {
  readonly name: string;
  readonly enabled?: boolean | null;
  readonly priority?: number | null;
  readonly on?: RuleTrigger | null;
  readonly match?: RuleMatch | null;
  readonly decision: RuleDecision;
  readonly message?: string | null;
}

export interface PermissionRule {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  /** Higher first; see orderRules. */
  readonly priority: number;
  readonly on: RuleTrigger;
  readonly match: RuleMatch;
  readonly decision: RuleDecision;
  /** DENY: the reason the model is told; a STOP rule: what claude is sent back to do. */
  readonly message: string | null;
  readonly source: RuleSource;
  readonly createdAt: number;
  /** The token's name, or the policy file's path. */
  readonly createdBy: string | null;
  readonly updatedAt: number;
}

/** A rule input that does not make a rule: `field` names the part, as the input spells it. */
export class RuleInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'RuleInputError';
    this.field = field;
  }
}

const limits = { name: 100, message: 2000, list: 100, item: 1000 } as const;
const namePattern = /^[\w.:/@-][\w .:/@-]*$/;

function list(field: string, value: readonly string[] | null | undefined): string[] | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value)) throw new RuleInputError(field, 'must be a list of strings');
  if (value.length === 0) throw new RuleInputError(field, 'is empty: leave it out to match any');
  if (value.length > limits.list) throw new RuleInputError(field, `holds over ${limits.list}`);
  return value.map((item, i) => {
    if (typeof item !== 'string' || item.length === 0 || item.length > limits.item)
      throw new RuleInputError(`${field}[${i}]`, `must be 1 to ${limits.item} characters`);
    return item;
  });
}

function oneOf<T extends string>(
  field: string,
  value: unknown,
  values: readonly T[],
): T | undefined {
  if (value == null) return undefined;
  if (!values.includes(value as T))
    throw new RuleInputError(field, `must be one of ${values.join(', ')}`);
  return value as T;
}

/** The match as given, checked: every pattern compiles, every folder is absolute. */
export function checkMatch(match: RuleMatch | null | undefined): RuleMatch {
  if (match == null) return {};
  if (typeof match !== 'object' || Array.isArray(match))
    throw new RuleInputError('match', 'must be an object');
  const known = ['tools', 'input', 'cwdUnder', 'labels', 'runtime', 'origin', 'token'];
  const unknown = Object.keys(match).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw new RuleInputError(`match.${unknown}`, `is not a part (${known.join(', ')})`);
  const tools = list('match.tools', match.tools);
  tools?.forEach((tool, i) => compileOrThrow(`match.tools[${i}]`, tool));
  const cwdUnder = list('match.cwdUnder', match.cwdUnder);
  cwdUnder?.forEach((dir, i) => {
    if (!dir.startsWith('/')) throw new RuleInputError(`match.cwdUnder[${i}]`, 'must be absolute');
  });
  const labels = list('match.labels', match.labels);
  let input: InputMatch[] | undefined;
  if (match.input != null) {
    if (!Array.isArray(match.input) || match.input.length === 0)
      throw new RuleInputError('match.input', 'must be a non-empty list of { path, pattern }');
    input = match.input.map((item, i) => {
      const field = `match.input[${i}]`;
      if (typeof item?.path !== 'string' || !/^[\w-]+(\.[\w-]+)*$/.test(item.path))
        throw new RuleInputError(`${field}.path`, 'must be a dotted field path such as command');
      if (typeof item.pattern !== 'string' || item.pattern.length === 0)
        throw new RuleInputError(`${field}.pattern`, 'must be a glob or a /regex/');
      compileOrThrow(`${field}.pattern`, item.pattern);
      return { path: item.path, pattern: item.pattern };
    });
  }
  const runtime = oneOf('match.runtime', match.runtime, Object.values(RuntimeKind));
  const origin = oneOf('match.origin', match.origin, Object.values(SessionOrigin));
  if (match.token != null && (typeof match.token !== 'string' || match.token.length === 0))
    throw new RuleInputError('match.token', 'must be a token name');
  return {
    ...(tools && { tools }),
    ...(input && { input }),
    ...(cwdUnder && { cwdUnder }),
    ...(labels && { labels }),
    ...(runtime && { runtime }),
    ...(origin && { origin }),
    ...(match.token != null && { token: match.token }),
  };
}

function compileOrThrow(field: string, pattern: string): void {
  try {
    compilePattern(pattern);
  } catch (error) {
    throw new RuleInputError(field, (error as Error).message);
  }
}

/** The checked parts of a rule input; throws RuleInputError naming the first bad part. */
export function checkRuleInput(
  input: RuleInput,
): Omit<PermissionRule, 'id' | 'source' | 'createdAt' | 'createdBy' | 'updatedAt'> {
  if (typeof input !== 'object' || input === null)
    throw new RuleInputError('rule', 'must be an object');
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name.length === 0 || name.length > limits.name || !namePattern.test(name))
    throw new RuleInputError(
      'name',
      `must be 1 to ${limits.name} letters, digits, spaces or ._:/@- (not starting with a space)`,
    );
  const decision = oneOf('decision', input.decision, Object.values(RuleDecision));
  if (decision === undefined) throw new RuleInputError('decision', 'is required');
  const on = oneOf('on', input.on, Object.values(RuleTrigger)) ?? RuleTrigger.ToolCall;
  const priority = input.priority ?? 0;
  if (!Number.isSafeInteger(priority)) throw new RuleInputError('priority', 'must be an integer');
  if (input.enabled != null && typeof input.enabled !== 'boolean')
    throw new RuleInputError('enabled', 'must be true or false');
  const message = input.message ?? null;
  if (message !== null && (typeof message !== 'string' || message.length > limits.message))
    throw new RuleInputError('message', `must be a string of at most ${limits.message}`);
  if (on === RuleTrigger.Stop) {
    if (decision === RuleDecision.Ask)
      throw new RuleInputError('decision', 'a STOP rule decides ALLOW (let it stop) or DENY');
    if (decision === RuleDecision.Deny && !message?.trim())
      throw new RuleInputError('message', 'a STOP rule that denies says what to do instead');
  }
  return {
    name,
    enabled: input.enabled ?? true,
    priority,
    on,
    match: checkMatch(input.match),
    decision,
    message: message?.trim() ? message : null,
  };
}
