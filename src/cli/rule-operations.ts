import { graphql } from '../gql/index.js';

/** The operations of `claude-code-hub rules`, typed by codegen (npm run codegen). */

export const PermissionRuleFragment = graphql(`
  fragment CliPermissionRule on PermissionRule {
    id
    name
    enabled
    priority
    on
    decision
    message
    source
    createdBy
    createdAt
    updatedAt
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

export const PermissionRulesQuery = graphql(`
  query CliPermissionRules {
    permissionRules {
      ...CliPermissionRule
    }
  }
`);

export const CreatePermissionRuleMutation = graphql(`
  mutation CliCreatePermissionRule($input: PermissionRuleInput!) {
    createPermissionRule(input: $input) {
      ...CliPermissionRule
    }
  }
`);

export const UpdatePermissionRuleMutation = graphql(`
  mutation CliUpdatePermissionRule($id: ID!, $input: PermissionRuleInput!) {
    updatePermissionRule(id: $id, input: $input) {
      ...CliPermissionRule
    }
  }
`);

export const DeletePermissionRuleMutation = graphql(`
  mutation CliDeletePermissionRule($id: ID!) {
    deletePermissionRule(id: $id)
  }
`);
