import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import {
  checkRuleInput,
  RuleInputError,
  RuleSource,
  type PermissionRule,
  type RuleInput,
} from './rule.js';

/** A rule of the policy file, checked, with the line it starts on. */
export interface PolicyFileRule {
  readonly fields: ReturnType<typeof checkRuleInput>;
  readonly line: number;
}

/**
 * A policy file that does not load. The message reads `FILE:LINE: what`, as a compiler's does,
 * so an editor can jump to it; `line` is 1-based, null where no line is to blame.
 */
export class PolicyFileError extends Error {
  readonly file: string;
  readonly line: number | null;
  constructor(file: string, line: number | null, detail: string, options?: { cause?: unknown }) {
    super(`${file}:${line === null ? '' : `${line}:`} ${detail}`, options);
    this.name = 'PolicyFileError';
    this.file = file;
    this.line = line;
  }
}

const ruleKeys = ['name', 'enabled', 'priority', 'on', 'match', 'decision', 'message'];
const shape = 'must be a list of rules, or an object { rules: [...] }';

/**
 * The rules of a policy file's text, JSON or YAML (one parser: YAML holds JSON), each checked as
 * the API checks a rule. Throws PolicyFileError at the first fault, with the line of the field
 * to blame: a syntax error, a bad rule, a name used twice, or one an API rule has (`apiNames`).
 * An empty file is refused too: a file caught half-written must not lift every rule.
 */
export function parsePolicyFile(
  text: string,
  file: string,
  apiNames: ReadonlySet<string> = new Set(),
): PolicyFileRule[] {
  const lines = new LineCounter();
  const lineAt = (offset: number) => lines.linePos(offset).line;
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const [syntax] = doc.errors;
  if (syntax) throw new PolicyFileError(file, lineAt(syntax.pos[0]), syntax.message);
  if (doc.contents === null)
    throw new PolicyFileError(file, null, 'is empty: write `rules: []` for a file of no rules');
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new PolicyFileError(file, null, (error as Error).message, { cause: error });
  }
  const root = doc.contents;
  let list: Node | null = root;
  let items: unknown = value;
  if (isMap(root)) {
    const other = root.items.find((pair) => !isScalar(pair.key) || pair.key.value !== 'rules');
    if (other) throw new PolicyFileError(file, lineAt(nodeStart(other.key ?? root)), shape);
    items = (value as { rules?: unknown }).rules;
    list = root.items[0]?.value as Node | null;
  }
  if (!isSeq(list) || !Array.isArray(items))
    throw new PolicyFileError(file, lineAt(nodeStart(list ?? root)), shape);

  const seen = new Map<string, number>();
  return items.map((input: unknown, i) => {
    const node = list.items[i] as Node;
    const fail = (field: string, detail: string): never => {
      const name = (input as { name?: unknown } | null)?.name;
      const which = typeof name === 'string' && name.trim() ? `rule ${JSON.stringify(name)}: ` : '';
      throw new PolicyFileError(
        file,
        lineAt(fieldStart(node, field)),
        `${which}${field}: ${detail}`,
      );
    };
    if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
      const unknown = Object.keys(input).find((key) => !ruleKeys.includes(key));
      if (unknown !== undefined) fail(unknown, `is not a part of a rule (${ruleKeys.join(', ')})`);
    }
    let fields: ReturnType<typeof checkRuleInput>;
    try {
      fields = checkRuleInput(input as RuleInput);
    } catch (error) {
      if (!(error instanceof RuleInputError)) throw error;
      return fail(error.field, error.message.slice(error.field.length + 2));
    }
    const line = lineAt(nodeStart(node));
    const before = seen.get(fields.name);
    if (before !== undefined) fail('name', `is taken by the rule on line ${before}`);
    if (apiNames.has(fields.name)) fail('name', 'is taken by a rule made through the API');
    seen.set(fields.name, line);
    return { fields, line };
  });
}

/**
 * The file's rules as the rule book holds them, loaded at `now`. A rule of a name loaded before
 * keeps its creation, so the order of rules of equal priority stays; an unchanged one stays as
 * it was.
 */
export function fileRules(
  parsed: readonly PolicyFileRule[],
  file: string,
  now: number,
  before: readonly PermissionRule[],
): PermissionRule[] {
  const previous = new Map(before.map((rule) => [rule.name, rule]));
  return parsed.map(({ fields }) => {
    const old = previous.get(fields.name);
    const rule: PermissionRule = {
      ...fields,
      id: `file:${fields.name}`,
      source: RuleSource.File,
      createdAt: old?.createdAt ?? now,
      createdBy: file,
      updatedAt: now,
    };
    return old && sameFields(old, rule) ? old : rule;
  });
}

function sameFields(a: PermissionRule, b: PermissionRule): boolean {
  const { updatedAt: _a, ...left } = a;
  const { updatedAt: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}

function nodeStart(node: unknown): number {
  return (node as Node | null)?.range?.[0] ?? 0;
}

/**
 * Where `field` (`match.input[0].pattern`, as RuleInputError spells it) is written in a rule's
 * node: its key in a map, its item in a list; as deep as the file has it.
 */
function fieldStart(rule: Node, field: string): number {
  const steps = [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) =>
    index === undefined ? key : Number(index),
  );
  let node: unknown = rule;
  let at = nodeStart(rule);
  for (const step of field === 'rule' ? [] : steps) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && item.key.value === step);
      if (!pair) break;
      at = nodeStart(pair.key);
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number' && node.items[step]) {
      node = node.items[step];
      at = nodeStart(node);
    } else break;
  }
  return at;
}
