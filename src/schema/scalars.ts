import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { maxNesting, nestingExceeds } from '../events/hook-event.js';
import { builder } from './builder.js';

function literalValue(
  node: ValueNode,
  variables: Record<string, unknown> | null | undefined,
): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literalValue(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(
        node.fields.map((field) => [field.name.value, literalValue(field.value, variables)]),
      );
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value; hook payloads are given exactly as Claude Code posted them.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value === 'object' && value !== null && nestingExceeds(value, maxNesting)) {
      throw new GraphQLError(`JSON values may nest at most ${maxNesting} levels`);
    }
    return value;
  },
  parseLiteral: (node, variables) => literalValue(node, variables),
});

builder.scalarType('DateTime', {
  description: 'A point in time as an ISO 8601 string in UTC, e.g. 2026-01-31T12:00:00.000Z.',
  serialize: (value) => new Date(value).toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) {
      throw new GraphQLError(`DateTime must be an ISO 8601 string, got ${JSON.stringify(value)}`);
    }
    return date;
  },
});
