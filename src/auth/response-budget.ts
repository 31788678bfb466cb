import {
  defaultFieldResolver,
  getNamedType,
  isIntrospectionType,
  isLeafType,
  isNonNullType,
  isObjectType,
  lexicographicSortSchema,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode, HubError } from '../errors.js';

/**
 * About how many bytes JSON.stringify writes for `value` (a string's characters, a number's
 * digits, the quotes, brackets, keys and commas), counted without writing it: the walk stops
 * once the count passes `limit`, so a value of megabytes costs no more than the budget left.
 */
export function jsonSize(value: unknown, limit: number): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && size <= limit) {
    const next = pending.pop();
    if (typeof next === 'string') size += next.length + 2;
    else if (typeof next === 'number') size += String(next).length;
    else if (typeof next !== 'object' || next === null) size += 5;
    else if (Array.isArray(next)) {
      size += 2 + next.length;
      for (let i = 0; i < next.length && size <= limit; i++) pending.push(next[i]);
    } else {
      size += 2;
      for (const key in next) {
        size += key.length + 4;
        pending.push((next as Record<string, unknown>)[key]);
        if (size > limit) break;
      }
    }
  }
  return size;
}

/** The bytes one response may still take; an operation's own, in its context. */
class ResponseBudget {
  readonly #max: number;
  #left: number;
  #exceeded = false;

  constructor(max: number) {
    this.#max = max;
    this.#left = max;
  }

  get exceeded(): boolean {
    return this.#exceeded;
  }

  /** Takes a leaf's value and its key; past the bound the value is not kept. */
  take(value: unknown, info: GraphQLResolveInfo): unknown {
    if (this.#exceeded) return this.nothing(info);
    this.#left -= String(info.path.key).length + 4 + jsonSize(value, this.#left);
    if (this.#left >= 0) return value;
    this.#exceeded = true;
    return this.nothing(info);
  }

  /**
   * What a field resolves to once the bound is passed, without running its resolver: null, or
   * for a non-null field the refusal, which ends the list it is in at once (graphql stops a
   * list of non-null items at its first error). The response is replaced by the refusal anyway.
   */
  nothing(info: GraphQLResolveInfo): null {
    if (isNonNullType(info.returnType)) throw this.refusal();
    return null;
  }

  refusal(): HubError {
    return new HubError(
      ErrorCode.ResponseTooLarge,
      `the response would pass ${this.#max} bytes (--max-response-bytes); ask for fewer items (limit, last, after) or fewer fields`,
      { maxResponseBytes: this.#max },
    );
  }
}

/** Where an operation's budget rides in its context. */
const budgetKey = Symbol('response budget');
type Budgeted = { readonly [budgetKey]?: ResponseBudget };

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** Runs a field's resolver under the operation's budget, when it has one. */
function budgeted(
  resolve: GraphQLFieldResolver<unknown, unknown>,
  leaf: boolean,
): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const budget = (context as Budgeted)[budgetKey];
    if (!budget) return resolve(source, args, context, info);
    if (budget.exceeded) return budget.nothing(info);
    const value = resolve(source, args, context, info);
    if (!leaf) return value;
    return isPromiseLike(value)
      ? value.then((resolved) => budget.take(resolved, info))
      : budget.take(value, info);
  };
}

const budgetedSchemas = new WeakMap<GraphQLSchema, GraphQLSchema>();

/**
 * A copy of the schema (graphql's lexicographicSortSchema rebuilds every type, resolvers kept)
 * whose fields answer to the operation's budget: each leaf's value is charged as it resolves,
 * and once the bound is passed no resolver runs again, so no further event is read or parsed.
 * The schema itself stays as it is for subscriptions, whose every event is its own response,
 * bounded by --max-hook-body.
 */
function budgetedSchema(schema: GraphQLSchema): GraphQLSchema {
  let copy = budgetedSchemas.get(schema);
  if (copy) return copy;
  copy = lexicographicSortSchema(schema);
  for (const type of Object.values(copy.getTypeMap())) {
    if (!isObjectType(type) || isIntrospectionType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const leaf = isLeafType(getNamedType(field.type));
      field.resolve = budgeted(field.resolve ?? defaultFieldResolver, leaf);
    }
  }
  budgetedSchemas.set(schema, copy);
  return copy;
}

/**
 * Bounds the bytes of each query's and mutation's response, over HTTP and graphql-ws alike,
 * while it is built rather than after: past `maxBytes` the operation stops reading and answers
 * RESPONSE_TOO_LARGE alone, with no data.
 */
export function useResponseBudget(maxBytes: number): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      const budget = new ResponseBudget(maxBytes);
      setExecuteFn((args) =>
        executeFn({
          ...args,
          schema: budgetedSchema(args.schema),
          contextValue: { ...(args.contextValue as object), [budgetKey]: budget },
        }),
      );
      return {
        onExecuteDone({ setResult }) {
          if (budget.exceeded) setResult({ data: null, errors: [budget.refusal()] });
        },
      };
    },
  };
}
