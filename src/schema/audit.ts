import { outcomeOf, type AuditEntry } from '../audit/audit-log.js';
import { markAudited } from '../audit/refused-mutations.js';
import { builder } from './builder.js';
import type { HubContext } from './context.js';

/** What an audited mutation acted on. */
export interface AuditTarget {
  readonly sessionId?: string | null;
  readonly target?: string | null;
  readonly detail?: Record<string, unknown>;
}

/** The start of a text and its length: enough to recognise a message, bounded in size. */
export function textDetail(text: string): Record<string, unknown> {
  return { text: text.length > 200 ? `${text.slice(0, 200)}…` : text, length: text.length };
}

/**
 * Runs a mutation and writes who did it, from where, to what, and how it ended, to the audit
 * trail, whether it succeeded or failed. `after` adds what is known only from the result. A
 * mutation refused before its resolver runs is written by useRefusedMutationAudit instead.
 */
export async function audited<T>(
  ctx: HubContext,
  action: string,
  target: AuditTarget,
  work: () => Promise<T> | T,
  after?: (result: T) => AuditTarget & { readonly outcome?: string },
): Promise<T> {
  const write = (outcome: string, extra: AuditTarget) =>
    ctx.audit.record({
      actor: ctx.principal.name,
      address: ctx.address,
      action,
      sessionId: extra.sessionId ?? target.sessionId ?? null,
      target: extra.target ?? target.target ?? null,
      outcome,
      detail: { ...target.detail, ...extra.detail },
    });
  let result: T;
  try {
    result = await work();
  } catch (error) {
    write(outcomeOf(error), {});
    markAudited(error);
    throw error;
  }
  const extra = after?.(result) ?? {};
  write(extra.outcome ?? 'ok', extra);
  return result;
}

const AuditEntryRef = builder.objectRef<AuditEntry>('AuditEntry').implement({
  description: 'One mutation someone ran: who, from where, on what, when, and how it ended.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    at: t.field({ type: 'DateTime', resolve: (entry) => entry.at }),
    actor: t.exposeString('actor', {
      description: 'The name of the token used; `local` when the hub has no tokens.',
    }),
    address: t.exposeString('address', { description: "The caller's IP address." }),
    action: t.exposeString('action', { description: 'The mutation, e.g. createSession.' }),
    sessionId: t.exposeID('sessionId', { nullable: true }),
    target: t.exposeString('target', {
      nullable: true,
      description: 'The message or permission request it acted on.',
    }),
    outcome: t.exposeString('outcome', {
      description: '`ok`, or the error code the caller got.',
    }),
    detail: t.field({
      type: 'JSON',
      description: 'Its arguments, with texts cut to 200 characters.',
      resolve: (entry) => entry.detail,
    }),
  }),
});

builder.queryField('audit', (t) =>
  t.field({
    type: [AuditEntryRef],
    authScopes: { admin: true },
    description:
      'The last entries of the audit trail (of one session, or of all), oldest first. Needs the admin scope.',
    args: {
      sessionId: t.arg.id(),
      last: t.arg.int({ defaultValue: 100, description: 'How many, from 1 to 1000.' }),
    },
    resolve: (_root, args, ctx) =>
      ctx.audit.last(
        Math.min(1000, Math.max(1, args.last ?? 100)),
        args.sessionId == null ? null : String(args.sessionId),
      ),
  }),
);
