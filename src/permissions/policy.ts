import { RuleTrigger, type PermissionRule, type RuleDecision } from './rule.js';
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
  /** The enabled rules of each trigger, in order: a call never tries a STOP rule, nor a stop a call's. */
  readonly #rules: Readonly<Record<RuleTrigger, readonly CompiledRule[]>>;
  /** Whether a STOP rule looks at the turn's calls, which are then worth keeping. */
  readonly readsTurnCalls: boolean;

  constructor(rules: Iterable<PermissionRule>) {
    const enabled = orderRules(rules).filter((rule) => rule.enabled);
    const of = (on: RuleTrigger) => enabled.filter((rule) => rule.on === on).map(compileRule);
    this.#rules = { TOOL_CALL: of(RuleTrigger.ToolCall), STOP: of(RuleTrigger.Stop) };
    this.readsTurnCalls = this.#rules.STOP.some(
      ({ rule }) => rule.match.tools != null || rule.match.input != null,
    );
  }

  /** How many enabled rules it tries. */
  get size(): number {
    return this.#rules.TOOL_CALL.length + this.#rules.STOP.length;
  }

  decide(subject: RuleSubject): Verdict | null {
    const rules = this.#rules[subject.on];
    if (rules.length === 0) return null;
    const view = new SubjectView(subject);
    let compiled: CompiledRule | undefined;
    for (const rule of rules) {
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
