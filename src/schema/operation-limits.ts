import {
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { ErrorCode, HubError } from '../errors.js';

export interface OperationLimits {
  /** Deepest field nesting; a root field is depth 1. */
  readonly maxDepth: number;
  /** Most fields, with each fragment counted at every place it is spread. */
  readonly maxCost: number;
}

interface Size {
  readonly depth: number;
  readonly cost: number;
}

/**
 * The levels a field adds to the depth. An introspection `ofType` adds none: a chain of them
 * ends in null after a type's few wrappers, so however deep it is written it costs nothing, and
 * the introspection query of GraphiQL (graphql's own) nests it 9 deep. No field of the hub's
 * schema is named `ofType`.
 */
const levels = (fieldName: string) => (fieldName === 'ofType' ? 0 : 1);

/**
 * Depth and field count of a selection set. Each fragment is measured once (its size does not
 * depend on where it is spread), so a document of fragments spreading fragments many times
 * over is measured in linear time and its true, multiplied cost is what gets compared.
 */
function measure(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  sizes: Map<string, Size>,
): Size {
  let depth = 0;
  let cost = 0;
  for (const selection of selectionSet.selections) {
    let size: Size;
    if (selection.kind === Kind.FIELD) {
      const inner = selection.selectionSet
        ? measure(selection.selectionSet, fragments, sizes)
        : { depth: 0, cost: 0 };
      size = { depth: inner.depth + levels(selection.name.value), cost: inner.cost + 1 };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      size = measure(selection.selectionSet, fragments, sizes);
    } else {
      const name = selection.name.value;
      const known = sizes.get(name);
      const fragment = fragments.get(name);
      if (known) size = known;
      else if (!fragment) size = { depth: 0, cost: 0 };
      else {
        sizes.set(name, { depth: 0, cost: 0 }); // a cycle, which validation reports itself
        size = measure(fragment.selectionSet, fragments, sizes);
        sizes.set(name, size);
      }
    }
    depth = Math.max(depth, size.depth);
    cost = Math.min(cost + size.cost, Number.MAX_SAFE_INTEGER);
  }
  return { depth, cost };
}

/** A validation rule refusing operations beyond the limits with QUERY_TOO_COMPLEX. */
export function operationLimitsRule(limits: OperationLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    );
    const sizes = new Map<string, Size>();
    return {
      OperationDefinition(operation) {
        const size = measure(operation.selectionSet, fragments, sizes);
        const name = operation.name ? ` ${operation.name.value}` : '';
        if (size.depth > limits.maxDepth) {
          context.reportError(
            new HubError(
              ErrorCode.QueryTooComplex,
              `operation${name} nests fields ${size.depth} deep; the limit is ${limits.maxDepth}`,
            ),
          );
        } else if (size.cost > limits.maxCost) {
          context.reportError(
            new HubError(
              ErrorCode.QueryTooComplex,
              `operation${name} selects ${size.cost} fields; the limit is ${limits.maxCost}`,
            ),
          );
        }
      },
    };
  };
}
