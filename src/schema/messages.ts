import type { StoredEvent } from '../events/hook-event.js';
import { allows } from '../auth/tokens.js';
import { ErrorCode, HubError } from '../errors.js';
import { MessageStatus, type MessageRecord } from '../sessions/message.js';
import { MessageKind } from '../sessions/message-text.js';
import type { AskOutcome } from '../sessions/session-manager.js';
import { audited, textDetail } from './audit.js';
import type { HubContext } from './context.js';
import { builder } from './builder.js';
import { HookEventRef } from './events.js';
import { SessionRef } from './sessions.js';

const MessageStatusRef = builder.enumType('MessageStatus', {
  values: Object.values(MessageStatus),
});

const MessageKindRef = builder.enumType('MessageKind', {
  description:
    'What a message is to claude. The text never decides: a PROMPT reaches the model as text whatever its first character (`!`, `/`, `exit`...).',
  values: {
    PROMPT: { description: 'Text for the model (the default).' },
    SLASH_COMMAND: {
      description:
        'A slash command line, e.g. `/compact keep the tests`: claude runs it. One line.',
    },
    SHELL: {
      description:
        "A shell line run by claude's bash mode (`!`), with no model call and no permission check: needs the admin scope. One line; tmux sessions only.",
    },
  } as const,
});

/**
 * The kind a caller asked for, when its scope covers it: a SHELL line runs with no permission
 * check, as much as a session that bypasses permissions, so it needs admin.
 */
function allowedKind(ctx: HubContext, kind: MessageKind | null | undefined): MessageKind {
  if (kind === MessageKind.Shell && !allows(ctx.principal, 'admin')) {
    throw new HubError(
      ErrorCode.Forbidden,
      `token "${ctx.principal.name}" has scope ${ctx.principal.scope}; a SHELL message needs admin`,
    );
  }
  return kind ?? MessageKind.Prompt;
}

const kindArgDescription = 'What the text is to claude (default PROMPT).';

export const MessageRef = builder.objectRef<MessageRecord>('Message').implement({
  description: 'Text sent to a session, and how far it got.',
  fields: (t) => ({
    id: t.exposeID('id'),
    sessionId: t.exposeID('sessionId'),
    text: t.exposeString('text'),
    channel: t.string({
      nullable: true,
      description: 'The channel it came from; it was typed below a line naming it.',
      resolve: (message) => message.channel ?? null,
    }),
    kind: t.field({
      type: MessageKindRef,
      resolve: (message) => message.kind ?? MessageKind.Prompt,
    }),
    status: t.field({ type: MessageStatusRef, resolve: (message) => message.status }),
    queuedAt: t.field({ type: 'DateTime', resolve: (message) => message.queuedAt }),
    sentAt: t.field({ type: 'DateTime', nullable: true, resolve: (message) => message.sentAt }),
    deliveredAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (message) => message.deliveredAt,
    }),
    promptSeq: t.exposeInt('promptSeq', {
      nullable: true,
      description: 'seq of the UserPromptSubmit event that confirmed delivery.',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why it FAILED.' }),
    heldBy: t.string({
      nullable: true,
      description:
        "Why a QUEUED message waits though the session is IDLE: a person typing in the session's terminal.",
      resolve: (message) => message.heldBy ?? null,
    }),
  }),
});

builder.objectField(SessionRef, 'messages', (t) =>
  t.field({
    type: [MessageRef],
    description: 'The latest messages, oldest first.',
    args: { last: t.arg.int({ description: 'How many (default 20, at most 1000).' }) },
    resolve: (record, args, ctx) =>
      ctx.hub.messages(record.id, Math.min(Math.max(args.last ?? 20, 0), 1000)),
  }),
);

type Reply = Extract<AskOutcome, { kind: 'reply' }>;
type Timeout = Extract<AskOutcome, { kind: 'timeout' }>;
type Failed = Extract<AskOutcome, { kind: 'failed' }>;

const AskReplyRef = builder.objectRef<Reply>('AskReply').implement({
  description: 'The turn ended: its last assistant message and its events.',
  fields: (t) => ({
    message: t.field({ type: MessageRef, resolve: (result) => result.message }),
    reply: t.string({ nullable: true, resolve: (result) => result.reply }),
    events: t.field({ type: [HookEventRef], resolve: (result): StoredEvent[] => result.events }),
    durationMs: t.exposeInt('durationMs', {
      description: 'From queueing the message to the Stop event.',
    }),
  }),
});

const AskTimeoutRef = builder.objectRef<Timeout>('AskTimeout').implement({
  description: 'The turn did not end in time; the message goes on (see message.status).',
  fields: (t) => ({
    message: t.field({ type: MessageRef, resolve: (result) => result.message }),
    waitedMs: t.exposeInt('waitedMs'),
  }),
});

const AskFailedRef = builder.objectRef<Failed>('AskFailed').implement({
  description: 'The message could not be delivered; message.error says why.',
  fields: (t) => ({
    message: t.field({ type: MessageRef, resolve: (result) => result.message }),
  }),
});

const AskResultRef = builder.unionType('AskResult', {
  types: [AskReplyRef, AskTimeoutRef, AskFailedRef],
  resolveType: (result) =>
    ({ reply: 'AskReply', timeout: 'AskTimeout', failed: 'AskFailed' })[result.kind],
});

const channelArgDescription =
  'The channel the text comes from (a bot, a bridge): it is typed below a line naming the channel, so Claude answers there with send_to_channel.';

builder.mutationFields((t) => ({
  enqueueMessage: t.field({
    type: MessageRef,
    authScopes: { control: true },
    description:
      'Queues text for the session. Messages are delivered in order, one per turn, once the session is IDLE and nobody has typed in its terminal for --typing-grace seconds (heldBy says so meanwhile); DELIVERED means its UserPromptSubmit carried the text.',
    args: {
      sessionId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      channel: t.arg.string({ description: channelArgDescription }),
      kind: t.arg({ type: MessageKindRef, description: kindArgDescription }),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'enqueueMessage',
        {
          sessionId: String(args.sessionId),
          detail: { ...textDetail(args.text), kind: args.kind ?? MessageKind.Prompt },
        },
        () =>
          ctx.hub.enqueue(String(args.sessionId), args.text, args.channel ?? null, {
            kind: allowedKind(ctx, args.kind),
          }),
        (message) => ({ target: message.id }),
      ),
  }),
  sendMessage: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      "Queues the text as one prompt, exactly as given (enqueueMessage, returning the session), without waiting for a person typing in the session's terminal: the caller chose to send it now.",
    args: {
      sessionId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      kind: t.arg({ type: MessageKindRef, description: kindArgDescription }),
    },
    resolve: async (_root, args, ctx) => {
      const message = await audited(
        ctx,
        'sendMessage',
        {
          sessionId: String(args.sessionId),
          detail: { ...textDetail(args.text), kind: args.kind ?? MessageKind.Prompt },
        },
        () =>
          ctx.hub.enqueue(String(args.sessionId), args.text, null, {
            typingGuard: false,
            kind: allowedKind(ctx, args.kind),
          }),
        (queued) => ({ target: queued.id }),
      );
      return ctx.hub.require(message.sessionId);
    },
  }),
  ask: t.field({
    type: AskResultRef,
    authScopes: { control: true },
    description: 'Sends the text and waits for the end of its turn (default 300 s).',
    args: {
      sessionId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      timeoutSeconds: t.arg.int(),
      channel: t.arg.string({ description: channelArgDescription }),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'ask',
        { sessionId: String(args.sessionId), detail: textDetail(args.text) },
        () =>
          ctx.hub.ask(
            String(args.sessionId),
            args.text,
            Math.max(1, args.timeoutSeconds ?? 300) * 1000,
            args.channel ?? null,
          ),
        (result) => ({
          target: result.message.id,
          outcome: result.kind === 'reply' ? 'ok' : result.kind.toUpperCase(),
        }),
      ),
  }),
  interruptSession: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description: 'Stops the current turn with Escape, the way a person would.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      audited(ctx, 'interruptSession', { sessionId: String(args.id) }, () =>
        ctx.hub.interrupt(String(args.id)),
      ),
  }),
  sendKeys: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      'Presses keys, for answering dialogs: Enter, Escape, Up, Down, Left, Right, Tab, ShiftTab, Space, Backspace, 0-9, y, n. Anything else is refused (KEY_NOT_ALLOWED).',
    args: { sessionId: t.arg.id({ required: true }), keys: t.arg.stringList({ required: true }) },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'sendKeys',
        { sessionId: String(args.sessionId), detail: { keys: args.keys.slice(0, 50) } },
        () => ctx.hub.sendKeys(String(args.sessionId), args.keys),
      ),
  }),
}));
