import {
  Kind,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isIntrospectionType,
  isLeafType,
  isListType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/**
 * How many items a list field holds, as its resolver reads the argument that says so: the
 * argument's value (a literal, or a variable's), else `default`, and never more than `max`.
 */
export interface ListSize {
  readonly argument: string;
  /** The items when the argument is absent or null. */
  readonly default: number;
  /** The most the resolver returns whatever the argument says; absent when it honours any. */
  readonly max?: number;
}

/** The list fields an argument sizes, with the bounds their resolvers apply. */
export const sizedLists: Readonly<Record<string, ListSize>> = {
  'Query.audit': { argument: 'last', default: 100, max: 1000 },
  'Session.events': { argument: 'limit', default: 100, max: 1000 },
  'Session.messages': { argument: 'last', default: 20, max: 1000 },
  'Session.turns': { argument: 'last', default: 20 },
};

/**
 * Lists with no size argument that are short by nature, at what they count as: the calls that
 * changed one file, and how each was allowed (one per call).
 */
export const shortLists: Readonly<Record<string, number>> = {
  'FileChange.actions': 10,
  'FileChange.approvedBy': 10,
};

/** Arguments that size any other list that has one, taken as given (no bound is known). */
export const sizeArguments: readonly string[] = ['first', 'last', 'limit'];

/**
 * What a list without a size argument counts as: the default --max-sessions, the bound of
 * `sessions` and of the lists that follow sessions (attention, permission requests); the rest
 * (a turn's actions, channels, nodes) are seldom longer.
 */
export const unsizedListItems = 100;

export interface CostRequest {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  /** The operation run; when absent every operation counts, and the costliest decides. */
  readonly operationName?: string | null | undefined;
  /** The request's variables as sent: a variable that sizes a list counts at its value. */
  readonly variables?: unknown;
}

/**
 * The cost of an operation: 1 per field, 2 per fragment spread and 1 per inline fragment, each
 * fragment counted at every place it is spread; a list field's cost (itself and its selection)
 * times the items it holds (see `sizedLists`, `sizeArguments`, `unsizedListItems`), but for a
 * list of scalars or enums, which counts 1.
 * Introspection counts 1 per field: its lists are the schema's, and graphql's own rule bounds
 * the nesting that multiplies them. It reads a document validation has not seen yet: unknown
 * fields count 1 with their selection, a fragment cycle counts nothing the second time round.
 */
export function operationCost(request: CostRequest): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of request.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const variables = isRecord(request.variables) ? request.variables : {};
  let costliest = 0;
  for (const definition of request.document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (request.operationName && definition.name?.value !== request.operationName) continue;
    const counter = new CostCounter(request.schema, fragments, definition, variables);
    costliest = Math.max(costliest, counter.operation());
  }
  return costliest;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One operation's count; a fragment's cost, the same at each spread, is counted once. */
class CostCounter {
  readonly #schema: GraphQLSchema;
  readonly #fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly #operation: OperationDefinitionNode;
  readonly #variables: Readonly<Record<string, unknown>>;
  readonly #fragmentCosts = new Map<string, number>();

  constructor(
    schema: GraphQLSchema,
    fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    operation: OperationDefinitionNode,
    variables: Readonly<Record<string, unknown>>,
  ) {
    this.#schema = schema;
    this.#fragments = fragments;
    this.#operation = operation;
    this.#variables = variables;
  }

  operation(): number {
    const root = this.#schema.getRootType(this.#operation.operation) ?? undefined;
    return this.#selections(this.#operation.selectionSet, root);
  }

  #selections(set: SelectionSetNode, type: GraphQLNamedType | undefined): number {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += this.#field(selection, type);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? this.#type(selection.typeCondition.name.value) : type;
        cost += 1 + this.#selections(selection.selectionSet, on);
      } else {
        cost += 1 + this.#fragment(selection.name.value);
      }
    }
    return cost;
  }

  #type(name: string): GraphQLNamedType | undefined {
    return this.#schema.getType(name) ?? undefined;
  }

  #fragment(name: string): number {
    const known = this.#fragmentCosts.get(name);
    if (known !== undefined) return known;
    const fragment = this.#fragments.get(name);
    if (!fragment) return 0;
    this.#fragmentCosts.set(name, 0);
    const on = this.#type(fragment.typeCondition.name.value);
    const cost = 1 + this.#selections(fragment.selectionSet, on);
    this.#fragmentCosts.set(name, cost);
    return cost;
  }

  #field(node: FieldNode, parent: GraphQLNamedType | undefined): number {
    const field =
      parent && (isObjectType(parent) || isInterfaceType(parent))
        ? parent.getFields()[node.name.value]
        : undefined;
    const inner = node.selectionSet
      ? this.#selections(node.selectionSet, field && getNamedType(field.type))
      : 0;
    // A list of scalars or enums is one field resolved: its items are values, which the
    // response budget bounds, not fields that run resolvers.
    if (
      !field ||
      !isListType(getNullableType(field.type)) ||
      isLeafType(getNamedType(field.type)) ||
      isIntrospectionType(parent!)
    ) {
      return 1 + inner;
    }
    return (1 + inner) * this.#items(node, field, `${parent!.name}.${field.name}`);
  }

  /** The items a list field counts as, as its resolver will read its size argument. */
  #items(node: FieldNode, field: GraphQLField<unknown, unknown>, coordinate: string): number {
    const sized = sizedLists[coordinate];
    const name =
      sized?.argument ?? field.args.find((arg) => sizeArguments.includes(arg.name))?.name;
    if (name === undefined) return shortLists[coordinate] ?? unsizedListItems;
    const argument = node.arguments?.find((given) => given.name.value === name);
    const schemaDefault = field.args.find((arg) => arg.name === name)?.defaultValue;
    const items =
      (argument && this.#number(argument.value)) ??
      (typeof schemaDefault === 'number' ? schemaDefault : null) ??
      sized?.default ??
      unsizedListItems;
    return Math.min(Math.max(0, items), sized?.max ?? Infinity);
  }

  /**
   * An Int argument's value: a literal, or a variable's value as sent, else its default in the
   * operation; null for a value graphql will refuse or treat as absent.
   */
  #number(value: ValueNode): number | null {
    if (value.kind === Kind.INT) return Number(value.value);
    if (value.kind !== Kind.VARIABLE) return null;
    const name = value.name.value;
    if (Object.hasOwn(this.#variables, name)) {
      const given = this.#variables[name];
      return typeof given === 'number' ? given : null;
    }
    const definition = this.#operation.variableDefinitions?.find(
      (variable) => variable.variable.name.value === name,
    );
    return definition?.defaultValue ? this.#number(definition.defaultValue) : null;
  }
}
