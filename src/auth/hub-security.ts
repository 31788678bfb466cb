import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { HubConfig } from '../config/index.js';
import { ErrorCode } from '../errors.js';
import { useJsonBodyNesting } from './graphql-body.js';
import { useOperationLimits } from './operation-limits.js';
import { useResponseBudget } from './response-budget.js';

/**
 * Gives request errors without a code (graphql's own variable errors: a missing or mistyped
 * variable) BAD_USER_INPUT, so that every error a client can cause carries one.
 */
export function withErrorCodes<T extends ExecutionResult>(result: T): T {
  if (!result.errors?.some((error) => error.extensions.code === undefined)) return result;
  const errors = result.errors.map((error) =>
    error.extensions.code !== undefined || error.path !== undefined
      ? error
      : new GraphQLError(error.message, {
          nodes: error.nodes,
          extensions: { ...error.extensions, code: ErrorCode.BadInput },
        }),
  );
  return { ...result, errors };
}

function useErrorCodes(): Plugin {
  return {
    onExecute: () => ({
      onExecuteDone({ result, setResult }) {
        if (!(Symbol.asyncIterator in result)) setResult(withErrorCodes(result));
      },
    }),
    onSubscribe: () => ({
      onSubscribeResult({ result, setResult }) {
        if (!(Symbol.asyncIterator in result)) setResult(withErrorCodes(result));
      },
    }),
  };
}

/**
 * The yoga plugins every GraphQL operation passes, over HTTP and graphql-ws alike: the size
 * limits (of its body's nesting, its document and its response), and a code on every error.
 * Scopes are not here: each field declares its own (Pothos scope-auth, see schema/builder.ts),
 * checked as the field resolves or subscribes.
 */
export function useHubSecurity(
  config: Pick<
    HubConfig,
    'maxQueryDepth' | 'maxQueryCost' | 'maxAliases' | 'maxTokens' | 'maxResponseBytes'
  >,
): Plugin[] {
  return [
    useJsonBodyNesting(),
    ...useOperationLimits({
      maxDepth: config.maxQueryDepth,
      maxCost: config.maxQueryCost,
      maxAliases: config.maxAliases,
      maxTokens: config.maxTokens,
    }),
    useResponseBudget(config.maxResponseBytes),
    useErrorCodes(),
  ];
}
