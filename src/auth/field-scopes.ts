import { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import type { GraphQLResolveInfo } from 'graphql';
import { ErrorCode, HubError } from '../errors.js';
import { allows, scopes, type Principal, type Scope } from './tokens.js';

/**
 * What the caller may do, as Pothos scope-auth reads it: each scope it holds, with the grants of
 * tokens.ts (admin holds them all; control and approve hold read). A field declares the one
 * scope it needs with `authScopes: { control: true }`.
 */
export function scopeMap(principal: Principal): Record<Scope, boolean> {
  return Object.fromEntries(scopes.map((scope) => [scope, allows(principal, scope)])) as Record<
    Scope,
    boolean
  >;
}

/** The scopes a failed check asked for (`{ control: true }` fails as one scope inside an any). */
function neededScopes(failure: AuthFailure): string[] {
  switch (failure.kind) {
    case AuthScopeFailureType.AuthScope:
      return [failure.scope];
    case AuthScopeFailureType.AnyAuthScopes:
    case AuthScopeFailureType.AllAuthScopes:
      return failure.failures.flatMap(neededScopes);
    default:
      return [];
  }
}

/**
 * The FORBIDDEN error of a field the principal's scope does not cover, naming the field and the
 * scope it needs: `token "dash" has scope read; mutation field stopSession needs control`.
 */
export function forbidden(
  principal: Principal,
  info: GraphQLResolveInfo,
  failure: AuthFailure,
): HubError {
  const isRoot = info.schema.getRootType(info.operation.operation) === info.parentType;
  const field = isRoot
    ? `${info.operation.operation} field ${info.fieldName}`
    : `field ${info.parentType.name}.${info.fieldName}`;
  const needed = [...new Set(neededScopes(failure))].join(' or ') || 'a scope it lacks';
  return new HubError(
    ErrorCode.Forbidden,
    `token "${principal.name}" has scope ${principal.scope}; ${field} needs ${needed}`,
  );
}
