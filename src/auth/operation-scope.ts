import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ErrorCode, HubError } from '../errors.js';
import { allows, type Principal, type Scope } from './tokens.js';

/** The scope each root field needs where it differs from its operation type's default. */
const fieldScopes: Record<OperationDefinitionNode['operation'], Record<string, Scope>> = {
  query: { audit: 'admin' },
  mutation: { decidePermission: 'approve' },
  subscription: {},
};
const operationScopes: Record<OperationDefinitionNode['operation'], Scope> = {
  query: 'read',
  mutation: 'control',
  subscription: 'read',
};

export function requiredScope(
  operation: OperationDefinitionNode['operation'],
  field: string,
): Scope {
  return fieldScopes[operation][field] ?? operationScopes[operation];
}

/** Root field names of a selection set, through fragments and inline fragments. */
function rootFields(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return rootFields(selection.selectionSet, fragments, seen);
    }
    const name = selection.name.value;
    const fragment = fragments.get(name);
    if (!fragment || seen.has(name)) return [];
    seen.add(name);
    return rootFields(fragment.selectionSet, fragments, seen);
  });
}

/** The operation that runs: the named one, or the only one. */
export function selectedOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return operations.find((operation) => operation.name?.value === operationName);
  return operations.length === 1 ? operations[0] : undefined;
}

/**
 * Null when the principal may run the operation, else a FORBIDDEN error naming the first
 * field it may not use and the scope that field needs.
 */
export function authorize(
  principal: Principal,
  document: DocumentNode,
  operationName: string | null | undefined,
): GraphQLError | null {
  const operation = selectedOperation(document, operationName);
  if (!operation) return null; // graphql itself reports the missing operation
  const fragments = new Map(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  for (const field of rootFields(operation.selectionSet, fragments)) {
    if (field === '__typename') continue;
    const needed = requiredScope(operation.operation, field);
    if (!allows(principal, needed)) {
      return new HubError(
        ErrorCode.Forbidden,
        `token "${principal.name}" has scope ${principal.scope}; ${operation.operation} field ${field} needs ${needed}`,
      );
    }
  }
  return null;
}
