import type { PermissionRule, RuleDecision } from './rule.js';
import {
  compileRule,
  orderRules,
  SubjectView,
  type CompiledRule,
  type RuleSubject,
} from './rule-match.js';

/** The rule that decided, and why it matched. */
export interface Verdict {
  readonly rule: PermissionRule;
  readonly decision: RuleDecision;
  /** Which part of the rule matched what, for the record, the audit and the timeline. */
  readonly explanation: string;
}

/** A set of rules, compiled and ordered once, tried on each call: the first that matches decides. */
export class Policy {
  readonly #rules: readonly CompiledRule[];

  constructor(rules: Iterable<PermissionRule>) {
    this.#rules = orderRules(rules)
      .filter((rule) => rule.enabled)
      .map(compileRule);
  }

  /** How many enabled rules it tries. */
  get size(): number {
    return this.#rules.length;
  }

  decide(subject: RuleSubject): Verdict | null {
    if (this.#rules.length === 0) return null;
    const view = new SubjectView(subject);
    let compiled: CompiledRule | undefined;
    for (const rule of this.#rules) {
      if (!rule.check(view, null)) continue;
      compiled = rule;
      break;
    }
    if (!compiled) return null;
    const said: string[] = [];
    compiled.check(view, said);
    return { rule: compiled.rule, decision: compiled.rule.decision, explanation: said.join('; ') };
  }
}

/** Who decided, as PermissionRequest.decidedBy says it. */
export const decidedByRule = (rule: Pick<PermissionRule, 'name'>): string => `rule ${rule.name}`;
