/**
 * What `claude-code-hub rules` makes of its arguments: a PermissionRuleInput from the options of
 * `rules add`, the input that keeps a listed rule as it is, and the rule an argument names.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  CliPermissionRuleFragment,
  PermissionRuleInput,
  RuleDecision,
  RuleMatchInput,
  RuleTrigger,
  SessionOrigin,
  SessionRuntime,
} from '../gql/graphql.js';
import { repeatedOption, textArgument, type Values } from './command.js';
import { UsageError, type Io } from './command-io.js';
import { ClientError } from './client.js';

export type ListedRule = CliPermissionRuleFragment;

const decisions: readonly RuleDecision[] = ['ALLOW', 'DENY', 'ASK'];
const triggers: readonly RuleTrigger[] = ['TOOL_CALL', 'STOP'];
const runtimes: readonly SessionRuntime[] = ['TMUX', 'HEADLESS'];
const origins: readonly SessionOrigin[] = ['MANAGED', 'EXTERNAL'];

/** The options of `rules add` that describe one rule (all but --file). */
export const ruleOptionNames = [
  'name',
  'decision',
  'on',
  'priority',
  'tool',
  'input',
  'cwd-under',
  'label',
  'runtime',
  'origin',
  'created-by',
  'message',
  'disabled',
] as const;

/** An enum option, in any case; undefined when absent; a UsageError naming the choices when not one. */
function choice<T extends string>(
  option: string,
  value: Values[string],
  values: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const upper = String(value).toUpperCase().replaceAll('-', '_') as T;
  if (!values.includes(upper))
    throw new UsageError(
      `--${option} must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}, got ${JSON.stringify(value)}`,
    );
  return upper;
}

/** `PATH=PATTERN`, split at the first `=` (a pattern may hold more). */
function inputMatch(text: string): { path: string; pattern: string } {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1)
    throw new UsageError(
      `--input must be PATH=PATTERN (e.g. command='git push*'), got ${JSON.stringify(text)}`,
    );
  return { path: text.slice(0, at), pattern: text.slice(at + 1) };
}

/**
 * The rule `rules add`'s options describe. The hub checks the rest (patterns, lengths) and names
 * the part it refuses. A relative --cwd-under is taken from `cwd`, as a shell user means it.
 */
export function ruleInputFromOptions(values: Values, cwd: string): PermissionRuleInput {
  const name = values.name;
  if (typeof name !== 'string') throw new UsageError('--name is required (or --file)');
  const decision = choice('decision', values.decision, decisions);
  if (decision === undefined) throw new UsageError('--decision is required (or --file)');
  let priority: number | undefined;
  if (values.priority !== undefined) {
    priority = Number(values.priority);
    if (!(typeof values.priority === 'string' && Number.isSafeInteger(priority)))
      throw new UsageError(
        `--priority must be a whole number, got ${JSON.stringify(values.priority)}`,
      );
  }
  const list = (option: string) => {
    const items = repeatedOption(values[option]);
    return items.length > 0 ? items : undefined;
  };
  const match: RuleMatchInput = {
    tools: list('tool'),
    input: list('input')?.map(inputMatch),
    cwdUnder: list('cwd-under')?.map((dir) => path.resolve(cwd, dir)),
    labels: list('label'),
    runtime: choice('runtime', values.runtime, runtimes),
    origin: choice('origin', values.origin, origins),
    token: typeof values['created-by'] === 'string' ? values['created-by'] : undefined,
  };
  const on = choice('on', values.on, triggers);
  return {
    name,
    decision,
    ...(on && { on }),
    ...(priority !== undefined && { priority }),
    ...(values.disabled === true && { enabled: false }),
    ...(typeof values.message === 'string' && { message: values.message }),
    match: withoutEmpty(match),
  };
}

/** The parts given, nothing else: a rule whose match has no part matches everything. */
function withoutEmpty(match: RuleMatchInput): RuleMatchInput {
  return Object.fromEntries(
    Object.entries(match).filter(([, value]) => value !== undefined && value !== null),
  ) as RuleMatchInput;
}

/** The input that gives a listed rule its own fields again, with `changes` over them. */
export function ruleInputOf(
  rule: ListedRule,
  changes: Partial<PermissionRuleInput> = {},
): PermissionRuleInput {
  const { tools, input, cwdUnder, labels, runtime, origin, token } = rule.match;
  return {
    name: rule.name,
    enabled: rule.enabled,
    priority: rule.priority,
    on: rule.on,
    decision: rule.decision,
    message: rule.message,
    match: withoutEmpty({
      tools,
      input: input?.map(({ path, pattern }) => ({ path, pattern })),
      cwdUnder,
      labels,
      runtime,
      origin,
      token,
    }),
    ...changes,
  };
}

/** The rule with that id, or else that name; RULE_NOT_FOUND when none has either. */
export function findRule(rules: readonly ListedRule[], idOrName: string): ListedRule {
  const found =
    rules.find((rule) => rule.id === idOrName) ?? rules.find((rule) => rule.name === idOrName);
  if (!found)
    throw new ClientError(
      `no permission rule has the id or name ${JSON.stringify(idOrName)} (see rules ls)`,
      'RULE_NOT_FOUND',
    );
  return found;
}

/**
 * The rules of a policy file (JSON or YAML: a list, or `{ rules: [...] }`), checked here as the
 * hub checks them, so a bad file is used for nothing and its error names the line (`rules add
 * --file`, `rules dry-run`). Loaded only then: the parser and the patterns are the hub's.
 */
export async function rulesOfFile(file: string, io: Io): Promise<PermissionRuleInput[]> {
  const text = file === '-' ? await textArgument(file, io) : await readFile(file, 'utf8');
  const { parsePolicyFile } = await import('../permissions/policy-file.js');
  return parsePolicyFile(text, file === '-' ? '(standard input)' : file).map(({ fields }) => {
    const { tools, input, cwdUnder, labels, ...one } = fields.match;
    return {
      ...fields,
      match: {
        ...one,
        ...(tools && { tools: [...tools] }),
        ...(input && { input: input.map(({ path, pattern }) => ({ path, pattern })) }),
        ...(cwdUnder && { cwdUnder: [...cwdUnder] }),
        ...(labels && { labels: [...labels] }),
      },
    };
  });
}
