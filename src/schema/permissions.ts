import {
  DecisionErrorCode,
  PermissionStatus,
  type PermissionRecord,
} from '../permissions/permission-request.js';
import { AttentionReason, attentionItems, type AttentionItem } from '../sessions/attention.js';
import { attentionUpdates, type AttentionUpdate } from '../hub/attention-feed.js';
import { currentThenChanges } from '../events/topic.js';
import { audited } from './audit.js';
import { builder } from './builder.js';
import { SessionRef } from './sessions.js';

const PermissionStatusRef = builder.enumType('PermissionStatus', {
  description: 'Where a permission request is. Only PENDING requests hold claude waiting.',
  values: Object.values(PermissionStatus),
});

export const PermissionRequestRef = builder
  .objectRef<PermissionRecord>('PermissionRequest')
  .implement({
    description:
      'A tool call claude asks permission for, or one a permission rule decided before anyone was asked (decidedBy `rule <name>`). The terminal shows its own dialog while a request waits; whichever answers first wins.',
    fields: (t) => ({
      id: t.exposeID('id'),
      sessionId: t.exposeID('sessionId'),
      eventSeq: t.exposeInt('eventSeq', {
        description: 'seq of its PermissionRequest hook event.',
      }),
      toolName: t.exposeString('toolName'),
      toolInput: t.field({ type: 'JSON', resolve: (request) => request.toolInput }),
      suggestions: t.field({
        type: 'JSON',
        nullable: true,
        description: "claude's permission_suggestions (rules the terminal dialog offers).",
        resolve: (request) => request.suggestions,
      }),
      requestedAt: t.field({ type: 'DateTime', resolve: (request) => request.requestedAt }),
      status: t.field({ type: PermissionStatusRef, resolve: (request) => request.status }),
      decidedAt: t.field({
        type: 'DateTime',
        nullable: true,
        resolve: (request) => request.decidedAt,
      }),
      message: t.exposeString('message', {
        nullable: true,
        description: 'The deny message, or why the request ended without a decision.',
      }),
      decidedBy: t.string({
        nullable: true,
        description:
          "Who decided: `rule <name>` (a permission rule, nobody asked), `token <name>` (a person through the API), `terminal` (claude's own dialog), `expiry` (nobody within the hold). Null while pending, or when the session or the hub ended first.",
        resolve: (request) => request.decidedBy ?? null,
      }),
      explanation: t.string({
        nullable: true,
        description:
          'For a rule that decided, or asked a person: which part of the rule matched what.',
        resolve: (request) => request.explanation ?? null,
      }),
      toolUseId: t.string({
        nullable: true,
        description:
          "The tool call's id, for a rule's decision at its PreToolUse (claude's PermissionRequest carries none).",
        resolve: (request) => request.toolUseId ?? null,
      }),
    }),
  });

const PermissionBehaviorRef = builder.enumType('PermissionBehavior', {
  values: ['ALLOW', 'DENY'] as const,
});

const DecidePermissionInputRef = builder.inputType('DecidePermissionInput', {
  fields: (t) => ({
    requestId: t.id({ required: true }),
    behavior: t.field({ type: PermissionBehaviorRef, required: true }),
    message: t.string({ description: 'With DENY: shown to the model as the reason.' }),
    updatedInput: t.field({
      type: 'JSON',
      description: 'With ALLOW: run the tool with this input instead.',
    }),
    interrupt: t.boolean({ description: 'With DENY: also stop the turn.' }),
  }),
});

const DecisionErrorCodeRef = builder.enumType('PermissionDecisionErrorCode', {
  values: Object.values(DecisionErrorCode),
});

const DecisionErrorRef = builder
  .objectRef<{ code: DecisionErrorCode; message: string }>('PermissionDecisionError')
  .implement({
    description: 'Why a decision was not used; a request takes exactly one decision.',
    fields: (t) => ({
      code: t.field({ type: DecisionErrorCodeRef, resolve: (error) => error.code }),
      message: t.exposeString('message'),
    }),
  });

const DecidePermissionPayloadRef = builder
  .objectRef<{
    request: PermissionRecord | null;
    error: { code: DecisionErrorCode; message: string } | null;
  }>('DecidePermissionPayload')
  .implement({
    fields: (t) => ({
      request: t.field({
        type: PermissionRequestRef,
        nullable: true,
        resolve: (payload) => payload.request,
      }),
      error: t.field({
        type: DecisionErrorRef,
        nullable: true,
        resolve: (payload) => payload.error,
      }),
    }),
  });

const AttentionReasonRef = builder.enumType('AttentionReason', {
  values: Object.values(AttentionReason),
});

const AttentionItemRef = builder.objectRef<AttentionItem>('AttentionItem').implement({
  description:
    'A session that needs a person, with what is needed to act without opening the terminal.',
  fields: (t) => ({
    session: t.field({ type: SessionRef, resolve: (item) => item.session }),
    reason: t.field({ type: AttentionReasonRef, resolve: (item) => item.reason }),
    since: t.field({ type: 'DateTime', resolve: (item) => item.since }),
    permissionRequest: t.field({
      type: PermissionRequestRef,
      nullable: true,
      resolve: (item) => item.permissionRequest,
    }),
    lastAssistantMessage: t.string({
      nullable: true,
      resolve: (item) => item.session.lastAssistantMessage,
    }),
    dialog: t.string({
      nullable: true,
      description:
        'For a BLOCKED turn (blockedReason DIALOG): the text of the dialog it waits on, as its screen shows it (answerDialog answers it).',
      resolve: (item) => item.dialog,
    }),
  }),
});

/** Changes this close together make one attention update. */
const attentionSettleMs = 100;

const AttentionUpdateRef = builder.objectRef<AttentionUpdate>('AttentionUpdate').implement({
  description:
    'The attention queue after a change, and how it changed since the previous update. An item is the same item while its session, reason and since (or permission request) are: a session that goes IDLE after a new turn is cleared and raised again.',
  fields: (t) => ({
    items: t.field({
      type: [AttentionItemRef],
      description:
        'The whole queue, in the order of Query.attention. With onlyChanges, the whole queue in the first update only and empty in the ones after it (see whole).',
      resolve: (update) => update.items,
    }),
    whole: t.boolean({
      description:
        'Whether items holds the whole queue: always without onlyChanges, in the first update only with it.',
      resolve: (update) => update.items !== noItems,
    }),
    raised: t.field({
      type: [AttentionItemRef],
      description:
        "Sessions that started to need a person since this subscriber's previous update: a new permission request, a blocked start or turn, a crash, a finished turn (a new IDLE). None in the first update.",
      resolve: (update) => update.raised,
    }),
    cleared: t.field({
      type: [AttentionItemRef],
      description:
        "The items gone from the queue since this subscriber's previous update, as they were (a client that keeps the queue removes them by session, reason and since). None in the first update.",
      resolve: (update) => update.cleared,
    }),
  }),
});

/** The items of an update sent with onlyChanges after the first. */
const noItems: readonly AttentionItem[] = [];

builder.subscriptionField('attention', (t) =>
  t.field({
    type: AttentionUpdateRef,
    authScopes: { read: true },
    description: `The attention queue now, then again after each change to it: the first change after a quiet period at once, the changes within ${attentionSettleMs} ms after an update in the next one. With onlyChanges, items is the whole queue in the first update only: apply raised and cleared to it (the queue's order is Query.attention's), so a large queue is not sent again on every change.`,
    args: { onlyChanges: t.arg.boolean({ defaultValue: false }) },
    subscribe: (_root, _args, ctx) => attentionUpdates(ctx.hub, attentionSettleMs),
    resolve: (update, args) =>
      args.onlyChanges && !update.first ? { ...update, items: noItems } : update,
  }),
);

builder.objectField(SessionRef, 'pendingPermissions', (t) =>
  t.field({
    type: [PermissionRequestRef],
    description: 'Requests waiting for a decision, oldest first.',
    resolve: (record, _args, ctx) => ctx.hub.pendingPermissions(record.id),
  }),
);

builder.queryFields((t) => ({
  permissionRequests: t.field({
    type: [PermissionRequestRef],
    authScopes: { read: true },
    description: 'Permission requests, oldest first; with status, only those.',
    args: { status: t.arg({ type: PermissionStatusRef }) },
    resolve: (_root, args, ctx) => ctx.hub.permissionRequests(args.status),
  }),
  attention: t.field({
    type: [AttentionItemRef],
    authScopes: { read: true },
    description:
      'The sessions that need a person: PERMISSION first, then BLOCKED, CRASHED and IDLE; within each, the longest-waiting first.',
    resolve: (_root, _args, ctx) =>
      attentionItems(ctx.hub.list(), (id) => ctx.hub.pendingPermissions(id)),
  }),
}));

builder.mutationField('decidePermission', (t) =>
  t.field({
    type: DecidePermissionPayloadRef,
    authScopes: { approve: true },
    description:
      'Answers a pending request: claude gets the decision at once. Deciding twice, or an expired or unknown request, returns `error` instead.',
    args: { input: t.arg({ type: DecidePermissionInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(
        ctx,
        'decidePermission',
        {
          target: String(input.requestId),
          detail: { behavior: input.behavior, message: input.message ?? null },
        },
        () =>
          ctx.hub.decide({
            requestId: String(input.requestId),
            behavior: input.behavior,
            message: input.message,
            updatedInput: input.updatedInput,
            interrupt: input.interrupt,
            decidedBy: `token ${ctx.principal.name}`,
          }),
        (result) => ({
          sessionId: result.request?.sessionId ?? null,
          outcome: result.error?.code ?? 'ok',
        }),
      ),
  }),
);

builder.subscriptionField('permissionRequests', (t) =>
  t.field({
    type: PermissionRequestRef,
    authScopes: { read: true },
    description:
      "Fires on each new permission request and on each resolution. With `pending: true`, the requests waiting now come first, so a client that subscribes late misses none. A subscriber that falls behind gets each request's latest state once rather than every change it missed.",
    args: { pending: t.arg.boolean({ defaultValue: false }) },
    subscribe: (_root, args, ctx) =>
      args.pending
        ? currentThenChanges(ctx.hub.permissionChanges(), () =>
            ctx.hub.permissionRequests(PermissionStatus.Pending),
          )
        : ctx.hub.permissionChanges(),
    resolve: (request) => request,
  }),
);
