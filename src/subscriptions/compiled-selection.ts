import { execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * Subscription selections compiled to plain functions (graphql-jit), by parsed document: yoga
 * caches documents by their text, so subscribers of one operation share one. Replaying 100,000
 * events runs the selection 100,000 times; graphql-js would interpret it each time.
 */
const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

/** What a compiled selection depends on. */
type Selection = Pick<ExecutionArgs, 'schema' | 'document' | 'operationName'>;

function compiledFor(args: Selection): CompiledQuery | null {
  let byOperation = compiled.get(args.document);
  if (!byOperation) compiled.set(args.document, (byOperation = new Map()));
  const operation = args.operationName ?? '';
  let query = byOperation.get(operation);
  if (query === undefined) {
    // A document graphql-jit cannot compile runs on graphql-js instead.
    try {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      query = isCompiledQuery(result) ? result : null;
    } catch {
      query = null;
    }
    byOperation.set(operation, query);
  }
  return query;
}

/** Compiles the document's operation now, so its first subscriber's first event does not wait. */
export function precompile(args: Selection): void {
  compiledFor(args);
}

/**
 * The result of a subscription's selection for one event: the operation run with the event as
 * its root value, compiled when graphql-jit can compile it, else by graphql-js.
 */
export function runSelection(
  args: ExecutionArgs,
  event: unknown,
): Promise<ExecutionResult> | ExecutionResult {
  const query = compiledFor(args);
  return query
    ? query.query(event, args.contextValue, args.variableValues)
    : execute({ ...args, rootValue: event });
}
