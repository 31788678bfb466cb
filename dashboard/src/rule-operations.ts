/**
 * The operations of the Rules panel. `npm run codegen` types them into src/gql; names start with
 * Dashboard, as every operation of the dashboard's does.
 */
import { graphql } from '../../src/gql/index.js';

export const RuleFields = graphql(`
  fragment RuleFields on PermissionRule {
    id
    name
    enabled
    priority
    on
    decision
    message
    source
    createdBy
    match {
      tools
      input {
        path
        pattern
      }
      cwdUnder
      labels
      runtime
      origin
      token
    }
  }
`);

export const PermissionRulesSubscription = graphql(`
  subscription DashboardPermissionRules {
    permissionRules {
      ...RuleFields
    }
  }
`);

export const UpdatePermissionRuleMutation = graphql(`
  mutation DashboardUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {
    updatePermissionRule(id: $id, input: $input) {
      ...RuleFields
    }
  }
`);

/** What the rules given would have decided for the stored tool calls since a time. */
export const PolicyDryRunQuery = graphql(`
  query DashboardPolicyDryRun($rules: [PermissionRuleInput!]!, $since: DateTime) {
    policyDryRun(rules: $rules, since: $since) {
      calls
      sessions
      allowed
      denied
      asked
      changed
      truncated
      examples {
        sessionId
        seq
        at
        toolName
        toolInput
        then
        now
        thenDecidedBy
        rule
        explanation
      }
    }
  }
`);
