import { Kind, OperationTypeNode, print, type DocumentNode } from 'graphql';
import * as operations from '../gql/graphql.js';
import type { HubYoga } from './hub-yoga.js';
import { precompile } from '../subscriptions/compiled-selection.js';

/** The operations of the hub's own clients (dashboard, CLI, examples), as they send them. */
function clientOperations(): DocumentNode[] {
  return Object.values(operations as Record<string, unknown>).filter(
    (value): value is DocumentNode =>
      typeof value === 'object' &&
      value !== null &&
      (value as DocumentNode).kind === Kind.DOCUMENT &&
      (value as DocumentNode).definitions.some(
        (definition) => definition.kind === Kind.OPERATION_DEFINITION,
      ),
  );
}

function validates(validate: () => readonly unknown[]): boolean {
  try {
    return validate().length === 0;
  } catch {
    return false;
  }
}

/**
 * What the first requests after a start would otherwise pay, done before the ready line: every
 * operation of the hub's own clients parsed and validated through yoga's envelop (whose caches
 * then hold them), each subscription's selection compiled, and one query over yoga's HTTP path.
 * Beside the cached results, the code that parses, validates, compiles and executes has run
 * once, so another client's first operation costs less too.
 */
export async function warmUp(yoga: HubYoga): Promise<void> {
  for (const document of clientOperations()) {
    const query = print(document);
    const enveloped = yoga.getEnveloped({ params: { query } } as never);
    const parsed = enveloped.parse(query) as DocumentNode;
    // A limit of this hub's (--max-query-cost, --max-depth) may refuse one of its own clients'
    // operations by throwing: that operation is not warmed, and the hub starts all the same.
    if (!validates(() => enveloped.validate(enveloped.schema, parsed))) continue;
    const subscription = parsed.definitions.some(
      (definition) =>
        definition.kind === Kind.OPERATION_DEFINITION &&
        definition.operation === OperationTypeNode.SUBSCRIPTION,
    );
    if (subscription)
      precompile({ schema: enveloped.schema, document: parsed, operationName: null });
  }
  const response = await yoga.fetch(
    'http://localhost/graphql',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    },
    { req: { socket: {}, headers: {} }, principal: { name: 'warm-up', scope: 'read' } } as never,
  );
  await response.text();
}
