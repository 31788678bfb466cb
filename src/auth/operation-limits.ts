import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import type { GraphQLError, ValidationContext } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { ErrorCode, HubError } from '../errors.js';
import { operationCost } from './operation-cost.js';

export interface OperationLimits {
  /** Deepest field nesting; a root field is depth 1, fragments add none. */
  readonly maxDepth: number;
  /**
   * Largest cost: 1 per field and per fragment, each fragment counted at every place it is
   * spread, a list field's selection times its items: its size argument (`limit`, `first`,
   * `last`), given literally or as a variable, else its bound (see operation-cost.ts).
   */
  readonly maxCost: number;
  /** Most aliases in one operation (`__typename` aliases are free). */
  readonly maxAliases: number;
  /** Most tokens in one document. */
  readonly maxTokens: number;
}

/** Directives one operation may carry: far above @include/@skip in real use. */
const maxDirectives = 50;

/**
 * How graphql-armor's rules refuse: by default they throw a GraphQLError without a code out of
 * validation; here each reports a validation error with QUERY_TOO_COMPLEX instead, which yoga
 * does not mask. Its "Syntax Error:" prefix goes: the document parsed fine.
 */
const tooComplex = {
  exposeLimits: true,
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => {
      const refusal = new HubError(
        ErrorCode.QueryTooComplex,
        error.message.replace(/^Syntax Error: /, ''),
      );
      if (!context) throw refusal;
      context.reportError(refusal);
    },
  ],
};

/**
 * The parser, bounded: at most `maxTokens` tokens (graphql's own option; past it the error is
 * graphql's GRAPHQL_PARSE_FAILED), and a document nested deeper than the parser can recurse is
 * QUERY_TOO_COMPLEX instead of a stack overflow.
 */
function useBoundedParser(maxTokens: number): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, { ...options, maxTokens });
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          throw new HubError(ErrorCode.QueryTooComplex, 'the document nests too deeply to parse');
        }
      });
    },
  };
}

/**
 * The cost limit, checked with the request's variables before the document is validated, and
 * thrown rather than reported by a rule: a rule could not see the variables, and yoga caches
 * each document's validation for every request that sends it, whatever their values. Each
 * request pays one walk of its document, each fragment counted once.
 */
function useOperationCost(maxCost: number): Plugin {
  return {
    onValidate({ params, context }) {
      const request = (context as { params?: Partial<GraphQLParams> }).params;
      const cost = operationCost({
        schema: params.schema,
        document: params.documentAST,
        operationName: request?.operationName,
        variables: request?.variables,
      });
      if (cost > maxCost) {
        throw new HubError(
          ErrorCode.QueryTooComplex,
          `Query Cost limit of ${maxCost} exceeded, found ${cost}.`,
        );
      }
    },
  };
}

/**
 * The size limits every operation passes, over HTTP and graphql-ws alike: its cost, then
 * graphql-armor's validation rules. The depth rule skips `__schema` (GraphiQL's introspection
 * query nests `ofType` 9 deep); graphql's own MaxIntrospectionDepthRule, among the rules every
 * operation passes, bounds the introspection fields that multiply (fields, interfaces,
 * possibleTypes, inputFields), and the cost counts each introspection field once.
 */
export function useOperationLimits(limits: OperationLimits): Plugin[] {
  return [
    useBoundedParser(limits.maxTokens),
    maxDepthPlugin({
      ...tooComplex,
      n: limits.maxDepth,
      flattenFragments: true,
      ignoreIntrospection: true,
    }),
    useOperationCost(limits.maxCost),
    maxAliasesPlugin({ ...tooComplex, n: limits.maxAliases }),
    maxDirectivesPlugin({ ...tooComplex, n: maxDirectives }),
  ];
}
