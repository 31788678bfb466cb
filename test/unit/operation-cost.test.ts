import fc from 'fast-check';
import {
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  parse,
  type DocumentNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  operationCost,
  sizeArguments,
  sizedLists,
  unsizedListItems,
} from '../../src/auth/operation-cost.js';
import { jsonSize } from '../../src/auth/response-budget.js';
import { parseConfig } from '../../src/config/index.js';
import * as operations from '../../src/gql/graphql.js';
import { schema } from '../../src/schema/index.js';

const cost = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  operationCost({ schema, document: parse(query), variables, operationName });

describe('operationCost', () => {
  it('counts a list field and its selection times its items', () => {
    expect(cost('{ session(id: "x") { id cwd } }')).toBe(3);
    // sessions has no size argument: it counts as 100.
    expect(cost('{ sessions { id cwd } }')).toBe(300);
    // events: 100 by default, as its resolver reads it, and never more than 1000.
    expect(cost('{ session(id: "x") { events { seq } } }')).toBe(1 + 200);
    expect(cost('{ session(id: "x") { events(limit: 7) { seq } } }')).toBe(1 + 14);
    expect(cost('{ session(id: "x") { events(limit: 1000000) { seq } } }')).toBe(1 + 2000);
    expect(cost('{ session(id: "x") { events(limit: -5) { seq } } }')).toBe(1);
    // turns honours any `last`: its default is the schema's, 20.
    expect(cost('{ session(id: "x") { turns { id } } }')).toBe(1 + 40);
    expect(cost('{ session(id: "x") { turns(last: 100000) { id } } }')).toBe(1 + 200_000);
    // A list of scalars or enums is one field: its items are values.
    expect(cost('{ sessions { id labels } }')).toBe(300);
    expect(cost('{ permissionRules { match { tools input { path } } } }')).toBe(100 * (3 + 200));
    // Lists multiply lists: the reported attack, one alias of fifteen.
    expect(cost('{ sessions { events(after: 0, limit: 1000) { payload } } }')).toBe(200_100);
  });

  it('reads a size given as a variable, else its default in the operation, else the field’s', () => {
    const query = 'query($n: Int) { session(id: "x") { events(limit: $n) { seq } } }';
    expect(cost(query, { n: 3 })).toBe(1 + 6);
    expect(cost(query, { n: 1000 })).toBe(1 + 2000);
    expect(cost(query, { n: null })).toBe(1 + 200);
    expect(cost(query, {})).toBe(1 + 200);
    const withDefault = 'query($n: Int = 9) { session(id: "x") { turns(last: $n) { id } } }';
    expect(cost(withDefault)).toBe(1 + 18);
    expect(cost(withDefault, { n: 50 })).toBe(1 + 100);
    // A value graphql will refuse counts as absent; the request fails on its own anyway.
    expect(cost(query, { n: 'many' })).toBe(1 + 200);
    expect(operationCost({ schema, document: parse(query), variables: 'not an object' })).toBe(201);
  });

  it('counts fragments at every spread and inline fragments once each', () => {
    const spread = 'query { session(id: "x") { ...F ...F } } fragment F on Session { id cwd }';
    // Each spread: 1, the fragment 1, its fields 2.
    expect(cost(spread)).toBe(1 + 2 * 4);
    const inline =
      '{ session(id: "x") { events(limit: 10) { seq ... on PostToolUseEvent { toolResponse } } } }';
    expect(cost(inline)).toBe(1 + 10 * (1 + 1 + 2));
  });

  it('counts the operation asked for, else the costliest', () => {
    const two = 'query Small { session(id: "x") { id } } query Big { sessions { id } }';
    expect(cost(two, {}, 'Small')).toBe(2);
    expect(cost(two, {}, 'Big')).toBe(200);
    expect(cost(two)).toBe(200);
  });

  it('counts introspection once per field, and survives what validation refuses later', () => {
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(5);
    expect(cost('{ sessions { nope { deeper } } }')).toBe(300);
    expect(cost('{ sessions { ...A } } fragment A on Session { id ...A }')).toBe(100 * 5);
    expect(cost('{ sessions { ...Missing } }')).toBe(200);
  });

  it('names list fields and size arguments the schema has, with its defaults', () => {
    for (const [coordinate, size] of Object.entries(sizedLists)) {
      const [typeName, fieldName] = coordinate.split('.') as [string, string];
      const type = schema.getType(typeName);
      const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
      expect(field && isListType(getNullableType(field.type)), coordinate).toBe(true);
      const argument = field!.args.find((arg) => arg.name === size.argument);
      expect(argument, `${coordinate}(${size.argument})`).toBeDefined();
      if (argument!.defaultValue !== undefined) expect(argument!.defaultValue).toBe(size.default);
    }
    // Every list field with an argument that may size it is one the cost knows how to read.
    const sizable = Object.values(schema.getTypeMap())
      .filter((type) => isObjectType(type) || isInterfaceType(type))
      .filter((type) => !type.name.startsWith('__'))
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((field) => isListType(getNullableType(field.type)))
          .filter((field) =>
            field.args.some((arg) => /^(first|last|limit|size|count|max|top)$/.test(arg.name)),
          )
          .map((field) => ({ coordinate: `${type.name}.${field.name}`, field })),
      );
    for (const { coordinate, field } of sizable) {
      const known =
        coordinate in sizedLists || field.args.some((arg) => sizeArguments.includes(arg.name));
      expect(known, coordinate).toBe(true);
    }
    expect(unsizedListItems).toBe(100);
  });

  it("passes every operation of the hub's own clients at the default limit", () => {
    const parsed = parseConfig([], {});
    if (!parsed.ok) throw new Error('default config');
    const documents = Object.entries(operations as Record<string, unknown>).filter(
      (entry): entry is [string, DocumentNode] =>
        (entry[1] as DocumentNode | null)?.kind === Kind.DOCUMENT &&
        (entry[1] as DocumentNode).definitions.some(
          (definition) => definition.kind === Kind.OPERATION_DEFINITION,
        ),
    );
    expect(documents.length).toBeGreaterThan(20);
    for (const [name, document] of documents) {
      expect(operationCost({ schema, document }), name).toBeLessThanOrEqual(
        parsed.config.maxQueryCost,
      );
    }
  });
});

describe('jsonSize', () => {
  /** Values whose strings need no escaping, so JSON.stringify's length is what is estimated. */
  const plain = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string({ unit: fc.constantFrom('a', 'b', ' ', '1', 'é', '😀') }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(fc.string({ unit: fc.constantFrom('k', 'y') }), tie('value'), {
        maxKeys: 5,
      }),
    ),
  })).value;

  it('is JSON.stringify’s length or a little more: a comma per container', () => {
    fc.assert(
      fc.property(plain, (value) => {
        const written = JSON.stringify(value).length;
        const containers = (JSON.stringify(value).match(/[[{]/g) ?? []).length;
        const size = jsonSize(value, Infinity);
        expect(size).toBeGreaterThanOrEqual(written);
        expect(size).toBeLessThanOrEqual(written + containers);
      }),
      { numRuns: 1000 },
    );
  });

  it('stops soon after the limit, whatever the value’s size', () => {
    const huge = Array.from({ length: 2_000_000 }, (_, i) => ({ i, text: 'x'.repeat(10) }));
    const t0 = performance.now();
    const size = jsonSize(huge, 1000);
    expect(size).toBeGreaterThan(1000);
    expect(size).toBeLessThan(1000 + 2_000_000 + 100);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(jsonSize('x'.repeat(5000), 10)).toBe(5002);
  });
});
