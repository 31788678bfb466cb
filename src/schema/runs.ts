import type { GraphQLResolveInfo } from 'graphql';
import { ErrorCode, HubError } from '../errors.js';
import { ActionKind, ActionPhase, type Action } from '../runs/action.js';
import { TurnStatus, type Turn } from '../runs/run-fold.js';
import { sessionActions, turnFeed } from '../runs/run-reader.js';
import { readAssistantEntries, turnUsage, type AssistantEntry } from '../runs/turn-usage.js';
import { builder } from './builder.js';
import type { HubContext } from './context.js';
import { SessionRef } from './sessions.js';

const ActionKindRef = builder.enumType('ActionKind', {
  description:
    'What a tool call does: COMMAND (Bash), FILE_CHANGE (Write, Edit, MultiEdit, NotebookEdit), READ, WEB_SEARCH, SUBAGENT (Task), MCP, another TOOL, or a WARNING (a permission denied).',
  values: Object.values(ActionKind),
});
const ActionPhaseRef = builder.enumType('ActionPhase', {
  description: 'An action is STARTED, then COMPLETED.',
  values: Object.values(ActionPhase),
});
const TurnStatusRef = builder.enumType('TurnStatus', {
  description:
    "RUNNING until its one completion: COMPLETED (Stop; a HEADLESS session's result line), FAILED (StopFailure, an error result, or claude crashed), INTERRUPTED.",
  values: Object.values(TurnStatus),
});

export const ActionRef = builder.objectRef<Action>('Action').implement({
  description:
    "One phase of one tool call of a turn, derived from the session's hook events: STARTED at its PreToolUse, COMPLETED at its PostToolUse (ok) or PostToolUseFailure, or when its turn ends first (not ok).",
  fields: (t) => ({
    id: t.exposeID('id', { description: "The tool call's id, the same at both phases." }),
    sessionId: t.exposeID('sessionId'),
    turnId: t.exposeID('turnId'),
    seq: t.exposeInt('seq', {
      description: 'The seq of the event that made this phase: a cursor for sessionActions.',
    }),
    kind: t.field({ type: ActionKindRef, resolve: (action) => action.kind }),
    phase: t.field({ type: ActionPhaseRef, resolve: (action) => action.phase }),
    title: t.exposeString('title', {
      description:
        'The command, the file changed, `Read <path>`, the search query, the subagent type, `server/tool`, or the tool name.',
    }),
    toolName: t.exposeString('toolName', { nullable: true }),
    ok: t.exposeBoolean('ok', { nullable: true, description: 'Null while STARTED.' }),
    detail: t.field({
      type: 'JSON',
      description:
        '`input`; once completed `response` or `error`; for FILE_CHANGE `changes: [{path, kind: add|update|delete}]`; `agentId` inside a subagent.',
      resolve: (action, _args, ctx, info) =>
        action.detail ??
        ctx.turns.detail(
          action,
          once(readsOf(ctx, info)?.details, action.turnId, () =>
            ctx.turns.actionsOf(action.sessionId, action.turnId),
          ),
        ),
    }),
    startedAt: t.field({ type: 'DateTime', resolve: (action) => action.startedAt }),
    completedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (action) => action.completedAt,
    }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
  }),
});

export const TurnRef = builder.objectRef<Turn>('Turn').implement({
  description:
    'One prompt claude took (UserPromptSubmit) and everything it did for it, up to its one completion. Derived from the event log, so it replays like events.',
  fields: (t) => ({
    id: t.exposeID('id'),
    sessionId: t.exposeID('sessionId'),
    number: t.exposeInt('number', {
      description: '1, 2, 3, ... in the session, counted from its oldest kept event.',
    }),
    prompt: t.exposeString('prompt', { nullable: true }),
    status: t.field({ type: TurnStatusRef, resolve: (turn) => turn.status }),
    ok: t.exposeBoolean('ok', {
      nullable: true,
      description: 'Null while RUNNING; true only when COMPLETED.',
    }),
    answer: t.exposeString('answer', {
      nullable: true,
      description:
        "The last assistant message: from claude's Stop, or the `result` line of a HEADLESS session.",
    }),
    error: t.exposeString('error', { nullable: true }),
    usage: t.field({
      type: 'JSON',
      nullable: true,
      description:
        "The turn's token usage: input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens. A HEADLESS session's comes from claude's `result` line; a TMUX session's is summed from its transcript. Null where neither has any.",
      resolve: (turn, _args, ctx, info) =>
        turn.usage ??
        turnUsage(turn, Date.now, (path) =>
          once(readsOf(ctx, info)?.transcripts, path, () => readAssistantEntries(path)),
        ),
    }),
    resume: t.exposeString('resume', {
      description: 'The line a person pastes to continue the conversation in a terminal.',
    }),
    actions: t.field({
      type: [ActionRef],
      description: 'Each tool call in its latest phase, in the order they started.',
      resolve: (turn) => turn.actions,
    }),
    startedAt: t.field({ type: 'DateTime', resolve: (turn) => turn.startedAt }),
    completedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (turn) => turn.completedAt,
    }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
  }),
});

/**
 * What one query or mutation reads once however many fields ask: each session's turns, each
 * turn's actions with their detail, and each transcript's assistant entries (for usage). Not
 * for a subscription: its one context lives as long as it does, and each event must read afresh.
 */
interface Reads {
  readonly turns: Map<string, Promise<Turn[]>>;
  readonly details: Map<string, Promise<Map<string, Action>>>;
  readonly transcripts: Map<string, Promise<AssistantEntry[]>>;
}
const perRequest = new WeakMap<HubContext, Reads>();
function readsOf(ctx: HubContext, info: GraphQLResolveInfo) {
  if (info.operation.operation === 'subscription') return null;
  let reads = perRequest.get(ctx);
  if (!reads)
    perRequest.set(ctx, (reads = { turns: new Map(), details: new Map(), transcripts: new Map() }));
  return reads;
}
function once<T>(cache: Map<string, Promise<T>> | undefined, key: string, read: () => Promise<T>) {
  if (!cache) return read();
  let value = cache.get(key);
  if (!value) cache.set(key, (value = read()));
  return value;
}
const turnsOf = (ctx: HubContext, info: GraphQLResolveInfo, sessionId: string) =>
  once(readsOf(ctx, info)?.turns, sessionId, () => ctx.turns.turns(sessionId));
const events = (ctx: HubContext) => (id: string, after: number | null) =>
  ctx.hub.sessionEvents(id, after);

builder.objectFields(SessionRef, (t) => ({
  turns: t.field({
    type: [TurnRef],
    description: 'The last turns, oldest first; the running one, if any, last.',
    args: { last: t.arg.int({ defaultValue: 20 }) },
    resolve: async (record, args, ctx, info) => {
      const last = args.last ?? 20;
      if (last < 0) throw new HubError(ErrorCode.BadInput, `last must be >= 0, got ${last}`);
      return last === 0 ? [] : (await turnsOf(ctx, info, record.id)).slice(-last);
    },
  }),
  currentTurn: t.field({
    type: TurnRef,
    nullable: true,
    description: 'The turn running now.',
    resolve: async (record, _args, ctx, info) => {
      const last = (await turnsOf(ctx, info, record.id)).at(-1);
      return last?.status === TurnStatus.Running ? last : null;
    },
  }),
}));

builder.queryField('turn', (t) =>
  t.field({
    type: TurnRef,
    nullable: true,
    authScopes: { read: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const id = String(args.id);
      const sessionId = id.slice(0, id.lastIndexOf(':'));
      if (!ctx.hub.get(sessionId)) return null;
      return (await turnsOf(ctx, info, sessionId)).find((turn) => turn.id === id) ?? null;
    },
  }),
);

builder.subscriptionField('sessionActions', (t) =>
  t.field({
    type: ActionRef,
    authScopes: { read: true },
    description:
      'Every phase of every action of the session: those with an event seq greater than `after` (default 0, all that the log keeps) first, then live, with no gap and no duplicate.',
    args: { id: t.arg.id({ required: true }), after: t.arg.int() },
    subscribe: (_root, args, ctx) => {
      const record = ctx.hub.require(String(args.id));
      const after = args.after ?? 0;
      if (after < 0) throw new HubError(ErrorCode.BadInput, `after must be >= 0, got ${after}`);
      return sessionActions(events(ctx), record.id, after);
    },
    resolve: (action) => action,
  }),
);

builder.subscriptionField('turns', (t) =>
  t.field({
    type: TurnRef,
    authScopes: { read: true },
    description:
      'Each turn as it completes, of one session or of all (sessions created later included). With `after`, the turns completed since then come first.',
    args: { sessionId: t.arg.id(), after: t.arg({ type: 'DateTime' }) },
    subscribe: (_root, args, ctx) => {
      const after = args.after == null ? Date.now() : new Date(args.after as never).getTime();
      const sessionId = args.sessionId == null ? null : ctx.hub.require(String(args.sessionId)).id;
      return turnFeed(ctx.hub, sessionId, after);
    },
    resolve: (turn) => turn,
  }),
);
