import SchemaBuilder from '@pothos/core';
import type { HubContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: HubContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | number };
  };
  DefaultFieldNullability: false;
}>({ defaultFieldNullability: false });

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
