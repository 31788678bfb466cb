import type { Orchestration } from '../sessions/session.js';
import { builder } from './builder.js';
import { OrchestrationReachRef } from './orchestration-reach.js';
import { SessionRef } from './sessions.js';

const OrchestrationRef = builder.objectRef<Orchestration>('Orchestration').implement({
  description:
    "A session's grant of the hub's orchestration tools (list_sessions, start_session, ask_session, send_to_session, session_status, stop_session). See docs/orchestration.md.",
  fields: (t) => ({
    reach: t.field({ type: OrchestrationReachRef, resolve: (grant) => grant.reach }),
    depth: t.exposeInt('depth', {
      description:
        "How deep in a tree of starts it is: 0 for a client's session, 1 for its children, ...",
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  orchestration: t.field({
    type: OrchestrationRef,
    nullable: true,
    description:
      'Its grant of the orchestration tools (createSession with orchestrate); null: it is not offered them.',
    resolve: (record) => record.orchestration,
  }),
  parent: t.field({
    type: SessionRef,
    nullable: true,
    description: 'The session that started it with the start_session tool; null for any other.',
    resolve: (record, _args, ctx) =>
      record.parentId ? (ctx.hub.get(record.parentId) ?? null) : null,
  }),
  children: t.field({
    type: [SessionRef],
    description: 'The sessions it started with the start_session tool, oldest first.',
    resolve: (record, _args, ctx) =>
      ctx.hub
        .list()
        .filter((child) => child.parentId === record.id)
        .sort((a, b) => a.createdAt - b.createdAt),
  }),
}));
