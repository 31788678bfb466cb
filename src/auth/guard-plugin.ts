import { GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.js';
import type { HubContext } from '../schema/context.js';
import { operationLimitsRule, type OperationLimits } from '../schema/operation-limits.js';
import { authorize } from './operation-scope.js';

/** Tokens one document may have; far above any real operation, well below parser trouble. */
const maxTokens = 50_000;

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

/**
 * The checks every GraphQL operation passes, over HTTP and graphql-ws alike: the parser is
 * bounded (a query nested thousands deep is an error, not a stack overflow), depth and cost are
 * validated, and each root field is checked against the caller's scope.
 */
export function guardPlugin(limits: OperationLimits): Plugin<HubContext> {
  const limitsRule = operationLimitsRule(limits);
  const refuse = (args: {
    contextValue: HubContext;
    document: DocumentNode;
    operationName?: string | null | undefined;
  }) => authorize(args.contextValue.principal, args.document, args.operationName);
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, { ...options, maxTokens });
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          throw new GraphQLError('the document nests too deeply to parse', {
            extensions: { code: ErrorCode.QueryTooComplex },
          });
        }
      });
    },
    onValidate({ addValidationRule }) {
      addValidationRule(limitsRule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const error = refuse(args);
      if (error) setResultAndStopExecution({ errors: [error] });
      return {
        onExecuteDone({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) setResult(withErrorCodes(result));
        },
      };
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = refuse(args);
      if (error) setResultAndStopExecution({ errors: [error] });
      return {
        onSubscribeResult({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) setResult(withErrorCodes(result));
        },
      };
    },
  };
}
