import type { IncomingMessage } from 'node:http';
import {
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  Lexer,
  OperationTypeNode,
  Source,
  TokenKind,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/tokens.js';
import { ErrorCode } from '../errors.js';
import { outcomeOf, type AuditLog, type AuditRecord } from './audit-log.js';

/**
 * Errors that a resolver's `audited` wrote to the trail already. Any other error of a mutation
 * is one the resolver never saw (a scope refusal, or one thrown before it called `audited`),
 * which the plugin below writes instead.
 */
const auditedErrors = new WeakSet<object>();

/** Marks an error `audited` wrote, so that it is not written a second time. */
export function markAudited(error: unknown): void {
  if (typeof error === 'object' && error !== null) auditedErrors.add(error);
}

/** What the envelop context holds before the hub's context is built: who asks, from where. */
interface Caller {
  readonly principal?: Principal;
  readonly req?: IncomingMessage;
  readonly request?: { readonly method: string };
  readonly params?: { readonly operationName?: string | null };
}

/** The entry of a refused mutation; `refused` is what the caller was told, cut to 200 characters. */
interface Refusal {
  readonly action: string;
  readonly outcome: string;
  readonly refused: string;
  readonly sessionId?: string | null;
  readonly target?: string | null;
}

/** Names quoted from a document that did not validate are cut short, and so is their list. */
const maxActionNames = 5;
const maxNameLength = 100;

/** The root fields an operation selects, through its fragments, each once. */
function rootFields(document: DocumentNode, operation: OperationDefinitionNode): FieldNode[] {
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition]] : [],
    ),
  );
  const seen = new Set<string>();
  const fields: FieldNode[] = [];
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        // A document that failed validation may spread fragments in a cycle.
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return fields;
}

/** The mutation fields an operation names, as one action: `stopSession`, or `a,b` for several. */
function actionOf(fields: readonly FieldNode[]): string {
  const names = [...new Set(fields.map((field) => field.name.value.slice(0, maxNameLength)))];
  const shown = names.slice(0, maxActionNames).join(',');
  return (names.length > maxActionNames ? `${shown},…` : shown) || 'mutation';
}

/** The mutation the request asked to run, or null for a query, a subscription or no choice. */
function mutationOf(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | null {
  const operation = getOperationAST(document, operationName);
  return operation?.operation === OperationTypeNode.MUTATION ? operation : null;
}

/**
 * The first mutation field of a document that does not parse, read from its tokens as far as
 * they go: null when no mutation shows before the tokens end or stop making sense.
 */
export function mutationInText(source: string): string | null {
  const lexer = new Lexer(new Source(source));
  let depth = 0;
  let parens = 0;
  let kind: string | null = null;
  let expectDefinition = true;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (token.kind === TokenKind.PAREN_L) parens += 1;
      else if (token.kind === TokenKind.PAREN_R) parens -= 1;
      // Variables' defaults and directives' arguments may hold braces of their own.
      else if (parens > 0) continue;
      else if (token.kind === TokenKind.BRACE_L) {
        if (depth === 0 && expectDefinition) kind = 'query';
        expectDefinition = false;
        depth += 1;
      } else if (token.kind === TokenKind.BRACE_R) {
        depth -= 1;
        expectDefinition = depth === 0;
      } else if (depth === 0 && expectDefinition && token.kind === TokenKind.NAME) {
        kind = token.value;
        expectDefinition = false;
      } else if (depth === 1 && kind === 'mutation') {
        if (token.kind !== TokenKind.NAME) return 'mutation';
        let field = token;
        if (lexer.lookahead().kind === TokenKind.COLON) {
          lexer.advance();
          field = lexer.advance();
        }
        return field.kind === TokenKind.NAME ? field.value.slice(0, maxNameLength) : 'mutation';
      }
    }
  } catch {
    // A lexical error: what came before it is all there is to go on.
  }
  return kind === 'mutation' ? 'mutation' : null;
}

/** The code the caller sees: the error's own, else yoga's for its stage. */
function codeOf(error: unknown, stageCode: string): string {
  const code = error instanceof GraphQLError ? error.extensions.code : undefined;
  return typeof code === 'string' ? code : stageCode;
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

/** A string argument, or null. */
function idArgument(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value.slice(0, maxNameLength) : null;
}

/**
 * The session and request a refused field named, from its arguments as the resolver would have
 * got them (`id` or `sessionId`, `requestId`, at the top or in `input`), as `audited` records
 * them; nothing when they cannot be read.
 */
function subjectOf(
  args: ExecutionArgs,
  operation: OperationDefinitionNode,
  field: FieldNode,
): Pick<Refusal, 'sessionId' | 'target'> {
  const definition = args.schema.getMutationType()?.getFields()[field.name.value];
  if (!definition) return {};
  try {
    const variables = getVariableValues(
      args.schema,
      operation.variableDefinitions ?? [],
      (args.variableValues ?? {}) as Record<string, unknown>,
    );
    if (!variables.coerced) return {};
    const values = getArgumentValues(definition, field, variables.coerced);
    const input = (typeof values.input === 'object' && values.input) || {};
    const all = { ...input, ...values } as Record<string, unknown>;
    return {
      sessionId: idArgument(all.sessionId) ?? idArgument(all.id),
      target: idArgument(all.requestId),
    };
  } catch {
    return {};
  }
}

/**
 * Writes each mutation the hub refused to the audit trail, with who asked, from where, which
 * mutation, and the code the caller got: a document that does not parse or is too large (its
 * first mutation field, as far as its tokens show), one that fails validation or a size limit
 * (those a plugin throws while validating, such as the cost, included), a mutation sent with
 * GET, bad variables, a field the token's scope does not cover, and any error a resolver threw
 * outside `audited`. What `audited` wrote (the mutation ran, and how it ended) is not written
 * again. Unauthenticated requests are not written: they never reach GraphQL, and an anonymous
 * caller could otherwise fill the store.
 */
export function useRefusedMutationAudit(audit: AuditLog): Plugin {
  const write = (caller: Caller, refusal: Refusal) => {
    if (!caller.principal) return;
    const entry: AuditRecord = {
      actor: caller.principal.name,
      address: caller.req?.socket?.remoteAddress ?? '',
      action: refusal.action,
      sessionId: refusal.sessionId ?? null,
      target: refusal.target ?? null,
      outcome: refusal.outcome,
      detail: { refused: refusal.refused },
    };
    audit.record(entry);
  };
  // The document each request parsed, for a refusal thrown while it is validated.
  const parsed = new WeakMap<object, DocumentNode>();
  return {
    instrumentation: {
      // Wraps every plugin's onValidate: one that throws (the cost, checked before validation
      // with the request's variables) ends the stage before any after-hook could see it.
      validate({ context }, validate) {
        try {
          validate();
        } catch (error) {
          const caller = context as Caller;
          const document = parsed.get(context);
          const operation = document && mutationOf(document, caller.params?.operationName);
          if (operation) {
            write(caller, {
              action: actionOf(rootFields(document, operation)),
              outcome: outcomeOf(error),
              refused: messageOf(error),
            });
          }
          throw error;
        }
      },
    },
    onParse({ context, params }) {
      const caller = context as Caller;
      return ({ result }) => {
        if (result instanceof Error) {
          const source = typeof params.source === 'string' ? params.source : params.source.body;
          const action = mutationInText(source);
          if (action) {
            const outcome = codeOf(result, 'GRAPHQL_PARSE_FAILED');
            write(caller, { action, outcome, refused: messageOf(result) });
          }
          return;
        }
        if (result) parsed.set(context, result);
        // yoga refuses it right after this hook (usePreventMutationViaGET): a link could send it.
        const operation = result && mutationOf(result, caller.params?.operationName);
        if (operation && caller.request?.method === 'GET') {
          write(caller, {
            action: actionOf(rootFields(result, operation)),
            outcome: ErrorCode.BadRequest,
            refused: 'Can only perform a mutation operation from a POST request.',
          });
        }
      };
    },
    onValidate({ context, params }) {
      const caller = context as Caller;
      return ({ valid, result }) => {
        if (valid) return;
        const operation = mutationOf(params.documentAST, caller.params?.operationName);
        if (!operation) return;
        write(caller, {
          action: actionOf(rootFields(params.documentAST, operation)),
          outcome: codeOf(result[0], 'GRAPHQL_VALIDATION_FAILED'),
          refused: messageOf(result[0]),
        });
      };
    },
    onExecute({ args }) {
      const operation = mutationOf(args.document, args.operationName);
      if (!operation) return;
      const caller = args.contextValue as Caller;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result || !result.errors) return;
          const fields = rootFields(args.document, operation);
          let wholeOperation = false;
          for (const error of result.errors) {
            if (auditedErrors.has(error.originalError ?? error)) continue;
            const [key, ...below] = error.path ?? [];
            // Below a root field: the mutation ran, and `audited` wrote how it ended.
            if (below.length > 0) continue;
            if (key === undefined) {
              // An error of the whole operation (bad variables, say): one entry for it.
              if (wholeOperation) continue;
              wholeOperation = true;
              write(caller, {
                action: actionOf(fields),
                outcome: outcomeOf(error),
                refused: messageOf(error),
              });
              continue;
            }
            const field = fields.find((node) => (node.alias ?? node.name).value === key);
            write(caller, {
              action: field?.name.value ?? String(key),
              outcome: outcomeOf(error),
              refused: messageOf(error),
              ...(field && subjectOf(args, operation, field)),
            });
          }
        },
      };
    },
  };
}
