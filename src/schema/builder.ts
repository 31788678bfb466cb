import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { forbidden, scopeMap } from '../auth/field-scopes.js';
import type { Scope } from '../auth/tokens.js';
import type { HubContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: HubContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | number };
  };
  /** Each root field declares the scope it needs next to itself: `authScopes: { read: true }`. */
  AuthScopes: Record<Scope, boolean>;
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // Checked once when a subscription starts, not again for each event it delivers.
    authorizeOnSubscribe: true,
    authScopes: (ctx) => scopeMap(ctx.principal),
    unauthorizedError: (_parent, ctx, info, result) =>
      forbidden(ctx.principal, info, result.failure),
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
