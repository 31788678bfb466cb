/** A permission rule as a person reads it, and as the API takes it back. */
import type { PermissionRuleInput, RuleFieldsFragment } from '../../src/gql/graphql.js';

export type Rule = RuleFieldsFragment;

/**
 * The match on one line: `tools=Bash input=command:git push* cwd=/repo`, each list's items joined
 * by `|` (any one holds); `anything` for a rule with no part, which matches every call.
 */
export function matchSummary(match: Rule['match']): string {
  const parts = [
    match.tools && `tools=${match.tools.join('|')}`,
    match.input && `input=${match.input.map((i) => `${i.path}:${i.pattern}`).join('|')}`,
    match.cwdUnder && `cwd=${match.cwdUnder.join('|')}`,
    match.labels && `labels=${match.labels.join('|')}`,
    match.runtime && `runtime=${match.runtime}`,
    match.origin && `origin=${match.origin}`,
    match.token && `token=${match.token}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'anything';
}

/** The rule's own fields as an input, with `changes` over them: an update that keeps the rest. */
export function ruleInput(
  rule: Rule,
  changes: Partial<PermissionRuleInput> = {},
): PermissionRuleInput {
  const { tools, input, cwdUnder, labels, runtime, origin, token } = rule.match;
  const match = Object.fromEntries(
    Object.entries({
      tools,
      input: input?.map(({ path, pattern }) => ({ path, pattern })),
      cwdUnder,
      labels,
      runtime,
      origin,
      token,
    }).filter(([, value]) => value !== null && value !== undefined),
  );
  return {
    name: rule.name,
    enabled: rule.enabled,
    priority: rule.priority,
    on: rule.on,
    decision: rule.decision,
    message: rule.message,
    match,
    ...changes,
  };
}
