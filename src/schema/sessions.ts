import { ErrorCode, HubError } from '../errors.js';
import type { NodeInfo } from '../hub/hub.js';
import { batchIntervals } from '../events/latest-batches.js';
import { permissionModes, type PermissionModeName } from '../runtime/claude-command.js';
import { RuntimeKind, SessionOrigin } from '../runtime/session-runtime.js';
import {
  OrchestrationReach,
  SessionStatus,
  type Orchestration,
  type SessionRecord,
} from '../sessions/session.js';
import { maxLabels } from '../sessions/session-labels.js';
import { audited, textDetail } from './audit.js';
import { builder } from './builder.js';
import { HookEventRef } from './events.js';
import { OrchestrationReachRef } from './orchestration-reach.js';
import { SessionWorktreeRef, WorktreeInputRef } from './worktrees.js';

const SessionStatusRef = builder.enumType('SessionStatus', {
  description: 'Where a session is in its life; its states and moves are in docs/sessions.md.',
  values: Object.fromEntries(Object.values(SessionStatus).map((value) => [value, { value }])),
});

const PermissionModeRef = builder.enumType('PermissionMode', {
  description: "claude's --permission-mode.",
  values: Object.keys(permissionModes) as PermissionModeName[],
});

export const SessionRuntimeRef = builder.enumType('SessionRuntime', {
  description:
    'How claude runs: TMUX (in a tmux pane a person can attach to) or HEADLESS (`claude -p` over stream-json pipes, no terminal).',
  values: Object.values(RuntimeKind),
});

export const SessionOriginRef = builder.enumType('SessionOrigin', {
  description: 'Who started the session.',
  values: {
    MANAGED: { value: SessionOrigin.Managed, description: 'The hub (createSession).' },
    EXTERNAL: {
      value: SessionOrigin.External,
      description:
        'A person, by hand; the installed global hooks report it (see installHooks). The hub never starts, restarts or resumes it.',
    },
  },
});

const cliToPermissionMode = Object.fromEntries(
  Object.entries(permissionModes).map(([name, cli]) => [cli, name]),
) as Record<string, PermissionModeName>;

export const SessionRef = builder.objectRef<SessionRecord>('Session').implement({
  description: 'One claude CLI running in its own tmux session.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The Claude session id it started with: session_id in its hook payloads.',
    }),
    claudeSessionId: t.exposeID('claudeSessionId', {
      description: 'The current Claude session id; differs from id after /clear.',
    }),
    name: t.exposeString('name', { nullable: true }),
    cwd: t.exposeString('cwd', {
      description:
        'The folder claude runs in: for a session with a worktree, the same subfolder of the worktree as the cwd asked for is of its checkout.',
    }),
    model: t.exposeString('model', { nullable: true }),
    permissionMode: t.field({
      type: PermissionModeRef,
      nullable: true,
      resolve: (record) =>
        record.permissionMode ? (cliToPermissionMode[record.permissionMode] ?? null) : null,
    }),
    runtime: t.field({ type: SessionRuntimeRef, resolve: (record) => record.runtime }),
    origin: t.field({ type: SessionOriginRef, resolve: (record) => record.origin }),
    tmuxPane: t.string({
      nullable: true,
      description:
        "An EXTERNAL session's tmux pane (`%3`); null outside tmux, and for a MANAGED one (see tmuxSession).",
      resolve: (record) => record.pane?.pane ?? null,
    }),
    tmuxSocket: t.string({
      nullable: true,
      description: "The socket of an EXTERNAL session's tmux server; null outside tmux.",
      resolve: (record) => record.pane?.socket ?? null,
    }),
    pid: t.int({
      nullable: true,
      description: "claude's process id, once a hook or its session file said it.",
      resolve: (record) => record.pid,
    }),
    status: t.field({
      type: SessionStatusRef,
      resolve: (record, _args, ctx) => ctx.hub.statusOf(record),
    }),
    blockedReason: t.exposeString('blockedReason', {
      nullable: true,
      description: 'When BLOCKED: WORKSPACE_TRUST, API_KEY or UNKNOWN_SCREEN; `screen` shows it.',
    }),
    screen: t.string({
      description:
        "The pane's visible text, without escape codes. NO_TERMINAL for a HEADLESS session.",
      resolve: (record, _args, ctx) => ctx.hub.screen(record),
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the session crashed or failed to start, with what its screen showed.',
    }),
    restartCount: t.exposeInt('restartCount', {
      description: 'How often the hub restarted it after a crash.',
    }),
    tmuxSession: t.exposeString('tmuxSession', {
      description:
        "A MANAGED session's tmux session, on the hub's tmux server; empty for EXTERNAL.",
    }),
    node: t.string({
      nullable: true,
      description: 'The cluster node it runs on; null on a hub that is not in a cluster.',
      resolve: (record, _args, ctx) => ctx.hub.nodeOf(record),
    }),
    attachCommand: t.string({
      nullable: true,
      description:
        'The shell command a person runs to watch or take over the session; null for a HEADLESS one.',
      resolve: (record, _args, ctx) => ctx.hub.attachCommand(record),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (record) => record.createdAt }),
    lastEventAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (record) => record.lastEventAt,
    }),
    lastAssistantMessage: t.exposeString('lastAssistantMessage', { nullable: true }),
    labels: t.exposeStringList('labels', {
      description:
        'Its labels, in the order given: set by createSession and setSessionLabels; permission policies match sessions by them.',
    }),
    createdBy: t.exposeString('createdBy', {
      nullable: true,
      description:
        'The name of the token whose createSession made it (`local` when the hub has no tokens); null for an EXTERNAL session.',
    }),
    worktree: t.field({
      type: SessionWorktreeRef,
      nullable: true,
      description:
        'The git worktree made for it (createSession with worktree), where cwd lies; null for a session without one.',
      resolve: (record) => record.worktree,
    }),
    events: t.field({
      type: [HookEventRef],
      description: 'Stored events in seq order.',
      args: {
        after: t.arg.int({ description: 'Only events with seq > after.' }),
        limit: t.arg.int({ description: 'At most this many (default 100, at most 1000).' }),
        names: t.arg.stringList({ description: 'Only events with these names.' }),
      },
      resolve: (record, args, ctx) =>
        ctx.hub.log.read(record.id, {
          after: Math.max(0, args.after ?? 0),
          limit: Math.min(Math.max(args.limit ?? 100, 0), 1000),
          ...(args.names ? { names: args.names } : {}),
        }),
    }),
  }),
});

export const CreateSessionInputRef = builder.inputType('CreateSessionInput', {
  fields: (t) => ({
    id: t.id({ description: 'A UUID for the Claude session; generated when absent.' }),
    cwd: t.string({ required: true, description: 'An existing directory claude works in.' }),
    name: t.string(),
    model: t.string({ description: "claude's --model, e.g. sonnet or a full model name." }),
    permissionMode: t.field({ type: PermissionModeRef }),
    runtime: t.field({
      type: SessionRuntimeRef,
      description: "How claude runs; the hub's --default-runtime (TMUX unless told) when absent.",
    }),
    prompt: t.string({ description: 'Sent as the first message as soon as the session is ready.' }),
    node: t.string({
      description:
        'The cluster node to run it on (Query.nodes lists them); the node that answers when absent.',
    }),
    labels: t.stringList({
      description: `Up to ${maxLabels} labels of 1 to 64 letters, digits or \`._:/=-\`; duplicates are dropped.`,
    }),
    trustWorkspace: t.boolean({
      description:
        'Answer claude\'s workspace-trust dialog for this cwd with "Yes, I trust this folder".',
    }),
    worktree: t.field({
      type: WorktreeInputRef,
      description:
        "Run claude in a new git worktree of cwd's repository, on a branch of its own (not with resume).",
    }),
    budgetUsd: t.float({
      description:
        'What the session may spend, in US dollars (more than 0, at most 1,000,000): once its completed turns cost that much, its queued messages wait (budgetHold) until the budget is raised. See docs/costs.md.',
    }),
    orchestrate: t.boolean({
      description:
        "Offer it the hub's orchestration tools (start, ask, message, watch and stop other sessions, its children); never offered otherwise. See docs/orchestration.md.",
    }),
    orchestrationReach: t.field({
      type: OrchestrationReachRef,
      description: 'With orchestrate: which sessions it may act on; CHILDREN when absent.',
    }),
    resume: t.string({
      description:
        "Continue a conversation claude had in cwd (made by hand, say): its id, or its resume line (`claude --resume <id>` or `-r <id>`, backticks or not). The session's id is the conversation's; CONVERSATION_NOT_FOUND when claude has none by that id there.",
    }),
  }),
});

const NodeRef = builder.objectRef<NodeInfo>('Node').implement({
  description: 'A hub process of the cluster.',
  fields: (t) => ({
    name: t.exposeString('name'),
    url: t.exposeString('url', { description: 'Where the other nodes reach it.' }),
    alive: t.exposeBoolean('alive', {
      description: 'Its lease is current. Sessions of a node that is not alive are UNREACHABLE.',
    }),
    self: t.exposeBoolean('self', { description: 'It is the node answering this request.' }),
    startedAt: t.field({ type: 'DateTime', resolve: (node) => node.startedAt }),
    liveSessions: t.exposeInt('liveSessions', {
      description: 'Its sessions that are neither STOPPED nor CRASHED.',
    }),
  }),
});

builder.queryFields((t) => ({
  nodes: t.field({
    type: [NodeRef],
    authScopes: { read: true },
    description:
      'The nodes of the cluster, by name, with their liveness; empty on a hub that is not in a cluster.',
    resolve: (_root, _args, ctx) => ctx.hub.nodes(),
  }),
  sessions: t.field({
    type: [SessionRef],
    authScopes: { read: true },
    description: 'Every session the hub knows, oldest first; with label, those carrying it.',
    args: { label: t.arg.string({ description: 'Only sessions with this label.' }) },
    resolve: (_root, { label }, ctx) => {
      const sessions = ctx.hub.list();
      return label == null ? sessions : sessions.filter((record) => record.labels.includes(label));
    },
  }),
  session: t.field({
    type: SessionRef,
    authScopes: { read: true },
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.hub.get(String(args.id)) ?? null,
  }),
}));

builder.subscriptionField('sessionUpdates', (t) =>
  t.field({
    type: SessionRef,
    authScopes: { read: true },
    description:
      "Fires on every change of status, pending permissions, lastAssistantMessage or labels: of one session, or of all when id is absent. A subscriber that falls behind (a dashboard of a thousand sessions on a slow link) gets each session's latest state once rather than every change it missed, so it is never cut for it. Over graphql-ws a change may wait up to 25 ms after the connection's last write, to share the next one (the first change after a quiet spell, and any message of another subscription, go at once).",
    args: { id: t.arg.id() },
    subscribe: (_root, args, ctx) =>
      ctx.hub.sessionUpdates(args.id == null ? undefined : ctx.hub.require(String(args.id)).id),
    resolve: (record) => record,
  }),
);

/** sessionUpdateBatches' interval: its default, and its bounds, those of the paces. */
const batchEveryMs = {
  default: 100,
  least: batchIntervals[0],
  most: batchIntervals[batchIntervals.length - 1]!,
};

builder.subscriptionField('sessionUpdateBatches', (t) =>
  t.field({
    type: [SessionRef],
    authScopes: { read: true },
    description: `The sessions changed since the last batch, each in its latest state once, at most one batch every everyMs (${batchEveryMs.least} to ${batchEveryMs.most}, default ${batchEveryMs.default}; taken up to the next of ${batchIntervals.join(', ')}, so that subscribers share their batches). The first change after a quiet interval goes at once. For a dashboard of a fleet: a few messages a second instead of one a change. A subscriber behind gets everything it missed in its next batch and is never cut for it.`,
    args: { everyMs: t.arg.int({ defaultValue: batchEveryMs.default }) },
    subscribe: (_root, args, ctx) => {
      const { least, most } = batchEveryMs;
      const everyMs = args.everyMs ?? batchEveryMs.default;
      if (everyMs < least || everyMs > most)
        throw new HubError(
          ErrorCode.BadInput,
          `everyMs must be ${least} to ${most}, got ${everyMs}`,
          {
            field: 'everyMs',
          },
        );
      return ctx.hub.sessionUpdateBatches(everyMs);
    },
    resolve: (batch) => batch,
  }),
);

/** createSession's grant of the orchestration tools: a client's session is at depth 0. */
export function orchestrationOf(input: {
  orchestrate?: boolean | null;
  orchestrationReach?: OrchestrationReach | null;
}): Orchestration | null {
  if (input.orchestrationReach != null && !input.orchestrate)
    throw new HubError(ErrorCode.BadInput, 'orchestrationReach needs orchestrate: true', {
      field: 'orchestrationReach',
    });
  return input.orchestrate
    ? { reach: input.orchestrationReach ?? OrchestrationReach.Children, depth: 0 }
    : null;
}

builder.mutationFields((t) => ({
  createSession: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      'Starts claude in a new tmux session and returns once it is ready (its SessionStart arrived). A start that fails or hangs is an error carrying the screen.',
    args: { input: t.arg({ type: CreateSessionInputRef, required: true }) },
    resolve: (_root, { input }, ctx) => {
      const options = {
        id: input.id == null ? null : String(input.id),
        cwd: input.cwd,
        name: input.name,
        model: input.model,
        permissionMode: input.permissionMode ? permissionModes[input.permissionMode] : null,
        prompt: input.prompt,
        trustWorkspace: input.trustWorkspace,
        resume: input.resume,
        runtime: input.runtime,
        node: input.node,
        labels: input.labels,
        budgetUsd: input.budgetUsd,
        orchestration: orchestrationOf(input),
        worktree: input.worktree
          ? { branch: input.worktree.branch, base: input.worktree.base }
          : null,
      };
      const { prompt, ...detail } = options;
      return audited(
        ctx,
        'createSession',
        {
          sessionId: options.id,
          detail: prompt == null ? detail : { ...detail, prompt: textDetail(prompt) },
        },
        () => ctx.hub.create({ ...options, createdBy: ctx.principal.name }),
        (record) => ({ sessionId: record.id }),
      );
    },
  }),
  resumeSession: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      'Continues a STOPPED or CRASHED session with claude --resume in a new tmux session: same id, same event stream. Returns once it is ready. EXTERNAL_SESSION for a session a person started.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      audited(ctx, 'resumeSession', { sessionId: String(args.id) }, () =>
        ctx.hub.resume(String(args.id)),
      ),
  }),
  focusSession: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      "Takes a person to the session: moves a tmux client attached to the session's tmux server (the hub's, or for an EXTERNAL session the person's own) to its session, window and pane. `client` names the client (`client_name` or its tty, as `tmux list-clients` shows them); the one active last when absent. NO_TMUX_CLIENT when none is attached, NOT_IN_TMUX for an EXTERNAL session outside tmux.",
    args: { id: t.arg.id({ required: true }), client: t.arg.string() },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'focusSession',
        { sessionId: String(args.id), detail: { client: args.client ?? null } },
        () => ctx.hub.focus(String(args.id), args.client ?? null),
      ),
  }),
  setSessionLabels: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description: `Replaces the session's labels (of any status or origin) with these, duplicates dropped, order kept: up to ${maxLabels}, each 1 to 64 letters, digits or \`._:/=-\`; BAD_USER_INPUT otherwise, and nothing changes. An empty list removes them all. sessionUpdates publishes the change.`,
    args: {
      sessionId: t.arg.id({ required: true }),
      labels: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'setSessionLabels',
        { sessionId: String(args.sessionId), detail: { labels: args.labels } },
        () => ctx.hub.setLabels(String(args.sessionId), args.labels),
      ),
  }),
  stopSession: t.field({
    type: SessionRef,
    authScopes: { control: true },
    description:
      "Ends claude (its SessionEnd is still delivered), then its tmux session. For an EXTERNAL session, ends the claude process (SIGTERM): the person's pane and shell stay. A session's worktree is kept unless removeWorktree says otherwise.",
    args: {
      id: t.arg.id({ required: true }),
      removeWorktree: t.arg.boolean({
        description:
          "Also remove the session's worktree (`git worktree remove --force`: what is not committed is lost), of a stopped session too; its branch is deleted only when it has no commit beyond its base or is merged into what base named (Session.worktree.removal says which).",
      }),
    },
    resolve: (_root, args, ctx) => {
      const removeWorktree = args.removeWorktree ?? false;
      return audited(
        ctx,
        'stopSession',
        { sessionId: String(args.id), ...(removeWorktree && { detail: { removeWorktree } }) },
        () => ctx.hub.stop(String(args.id), { removeWorktree }),
      );
    },
  }),
}));
