import { ApprovalKind, type PermissionDecisionSource } from '../changes/approvals.js';
import { maxFileDiffChars, type FileChangeRecord } from '../changes/session-file-changes.js';
import { maxDiffChars } from '../git/diff-bounds.js';
import { builder } from './builder.js';
import { ActionRef, TurnRef } from './runs.js';
import { SessionRef } from './sessions.js';

const FileChangeKindRef = builder.enumType('FileChangeKind', {
  description: 'How a file changed: added, modified, deleted, or renamed (with or without edits).',
  values: ['ADD', 'MODIFY', 'DELETE', 'RENAME'] as const,
});

const ApprovalKindRef = builder.enumType('PermissionDecisionKind', {
  description:
    "How a tool call came to run: PERSON (decided through the API, with the token named), RULE (a permission rule of the hub's), TERMINAL (answered in claude's own dialog), MODE (the permission mode let it through unasked: acceptEdits for edits, bypassPermissions, auto), NO_PROMPT (nobody was asked: claude's settings allow it, or it needs no permission).",
  values: Object.values(ApprovalKind),
});

const PermissionDecisionSourceRef = builder
  .objectRef<PermissionDecisionSource>('PermissionDecisionSource')
  .implement({
    description: 'How one tool call was allowed.',
    fields: (t) => ({
      kind: t.field({ type: ApprovalKindRef, resolve: (source) => source.kind }),
      toolUseId: t.exposeID('toolUseId', { description: 'The tool call (Action.id).' }),
      token: t.exposeString('token', {
        nullable: true,
        description: 'PERSON: the name of the token that allowed it.',
      }),
      rule: t.exposeString('rule', { nullable: true, description: "RULE: the rule's name." }),
      mode: t.exposeString('mode', {
        nullable: true,
        description: "claude's permission mode at the call (its PreToolUse says it).",
      }),
      requestId: t.exposeID('requestId', {
        nullable: true,
        description: 'The PermissionRequest that decided it, when one did.',
      }),
      decidedAt: t.field({
        type: 'DateTime',
        nullable: true,
        resolve: (source) => source.decidedAt,
      }),
    }),
  });

const FileChangeRef = builder.objectRef<FileChangeRecord>('FileChange').implement({
  description:
    "One changed file. In a git checkout the changes come from snapshots of the work tree the hub takes at each turn's start, after each tool call that may change files, and at its end: every change counts, a shell command's too, and `actions` are the file tools that name the file and the calls at whose end it had changed. Elsewhere they come from the file tools' inputs (Write, Edit, NotebookEdit).",
  fields: (t) => ({
    path: t.exposeString('path', {
      description:
        "From the checkout's top folder in a git checkout; else from the session's cwd (absolute outside it).",
    }),
    oldPath: t.exposeString('oldPath', {
      nullable: true,
      description: 'Where a RENAME came from.',
    }),
    kind: t.field({ type: FileChangeKindRef, resolve: (change) => change.kind }),
    diff: t.exposeString('diff', {
      nullable: true,
      description: `The file's unified diff (git's format), at most ${maxFileDiffChars} characters, and ${maxDiffChars} for all files of one answer; null where the answer's bound came before it, or where no tool said the content (a notebook).`,
    }),
    truncated: t.exposeBoolean('truncated', {
      description: 'Whether the diff was cut (or left out) by a bound.',
    }),
    actions: t.field({
      type: [ActionRef],
      description: 'The tool calls that changed it, in the order they started.',
      resolve: (change) => change.actions,
    }),
    approvedBy: t.field({
      type: [PermissionDecisionSourceRef],
      description: 'How each of those calls was allowed, one per action, in the same order.',
      resolve: (change) => change.approvedBy,
    }),
  }),
});

builder.objectField(TurnRef, 'changes', (t) =>
  t.field({
    type: [FileChangeRef],
    description:
      "The files the turn changed, with their diffs, the calls that changed them and who allowed each. A RUNNING turn's are up to now. Computed by the node that runs the session.",
    resolve: (turn, _args, ctx) =>
      ctx.hub.changes(ctx.hub.require(turn.sessionId), { turnId: turn.id }),
  }),
);

builder.objectField(SessionRef, 'changes', (t) =>
  t.field({
    type: [FileChangeRef],
    description:
      'The files the session changed since `since` (default: since it began) up to now, as Turn.changes says them: in a git checkout from the snapshot taken last before `since` to the work tree now.',
    args: { since: t.arg({ type: 'DateTime' }) },
    resolve: (record, args, ctx) =>
      ctx.hub.changes(record, {
        since: args.since == null ? null : new Date(args.since as never).getTime(),
      }),
  }),
);
