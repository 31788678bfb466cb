import type { AuditRecord } from '../audit/audit-log.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import {
  lastAnswerChars,
  listPage,
  type ListArgs,
  type OrchestrationPort,
  type StartArgs,
} from '../mcp/orchestration-tools.js';
import {
  isRunning,
  OrchestrationReach,
  SessionStatus,
  type Orchestration,
  type SessionRecord,
} from '../sessions/session.js';
import type { Hub } from './hub.js';

export interface OrchestrationLimits {
  /** Live children one session may have at once (--max-children). */
  readonly maxChildren: number;
  /** The deepest a started session may be (--max-orchestration-depth); a client's is 0. */
  readonly maxDepth: number;
}

export interface OrchestratorDeps {
  /** The hub the schema answers with: this node's, or the cluster's once joined. */
  readonly hub: () => Hub;
  readonly audit: { record(entry: AuditRecord): void };
  readonly limits: OrchestrationLimits;
}

/** The label every child carries: the session that started it. */
export const parentLabel = (parentId: string) => `parent:${parentId}`;

/**
 * The orchestration tools' work, as the calling session: it acts on its children (every session
 * with reach ALL), never on itself. A child runs with its parent's permission mode, model and
 * runtime (never a wider mode), carries its parent's labels and `parent:<id>`, and counts as made
 * by the token that made its parent, so label and token budgets and permission rules hold for the
 * whole tree. Every act is audited with `session:<caller>` as the actor.
 */
export class Orchestrator implements OrchestrationPort {
  readonly #deps: OrchestratorDeps;

  constructor(deps: OrchestratorDeps) {
    this.#deps = deps;
  }

  offered(sessionId: string): boolean {
    return !!this.#deps.hub().get(sessionId)?.orchestration;
  }

  /**
   * A page of the sessions in reach that match, oldest first. A page's `next` is its last
   * session's place (created at, id), so a page goes on where the last ended even when sessions
   * came or went in between.
   */
  async list(caller: string, args: ListArgs): Promise<string> {
    const me = this.#caller(caller);
    const hub = this.#deps.hub();
    const status = args.status?.trim().toUpperCase();
    if (status !== undefined && !statuses.has(status))
      throw new HubError(
        ErrorCode.BadInput,
        `no status is called ${describeValue(args.status)}: one of ${[...statuses].join(', ')}`,
      );
    const after = args.after === undefined ? null : placeOf(args.after);
    const matching = hub
      .list()
      .filter(
        (record) =>
          this.#inReach(me, record) &&
          (args.label === undefined || record.labels.includes(args.label)) &&
          (status === undefined || hub.statusOf(record) === status),
      )
      .sort(byPlace);
    const from = after === null ? 0 : matching.findIndex((record) => byPlace(record, after) > 0);
    const page = from < 0 ? [] : matching.slice(from, from + (args.limit ?? listPage.default));
    const last = page.at(-1);
    const more = last !== undefined && from + page.length < matching.length;
    return JSON.stringify({
      sessions: page.map((record) => this.#summary(record, lastAnswerChars)),
      total: matching.length,
      next: more ? `${last.createdAt}.${last.id}` : null,
    });
  }

  async start(caller: string, args: StartArgs): Promise<string> {
    const parent = this.#caller(caller);
    const grant = parent.orchestration!;
    const { maxChildren, maxDepth } = this.#deps.limits;
    const hub = this.#deps.hub();
    return this.#recorded(parent, 'start_session', { cwd: args.cwd }, async (act) => {
      if (grant.depth + 1 > maxDepth)
        throw new HubError(
          ErrorCode.DepthLimit,
          `you are at depth ${grant.depth} and sessions may start sessions down to depth ${maxDepth} (--max-orchestration-depth)`,
        );
      const live = hub
        .list()
        .filter((record) => record.parentId === parent.id && isRunning(record.status));
      if (live.length >= maxChildren)
        throw new HubError(
          ErrorCode.ChildLimit,
          `you have ${live.length} running children, the most a session may have (--max-children): stop one first`,
        );
      const orchestration: Orchestration | null = args.orchestrate
        ? { reach: OrchestrationReach.Children, depth: grant.depth + 1 }
        : null;
      const child = await hub.create({
        cwd: args.cwd,
        prompt: args.prompt ?? null,
        name: args.name ?? null,
        labels: [...new Set([...parent.labels, ...(args.labels ?? []), parentLabel(parent.id)])],
        worktree: args.worktree ?? null,
        permissionMode: parent.permissionMode,
        model: parent.model,
        runtime: parent.runtime,
        createdBy: parent.createdBy,
        parentId: parent.id,
        orchestration,
        node: hub.nodeOf(parent),
      });
      act.sessionId = child.id;
      return JSON.stringify(this.#summary(child));
    });
  }

  async ask(caller: string, session: string, text: string, timeoutSeconds: number) {
    const me = this.#caller(caller);
    return this.#recorded(me, 'ask_session', { session }, async (act) => {
      const target = this.#target(me, session, act);
      const outcome = await this.#deps.hub().ask(target.id, text, timeoutSeconds * 1000);
      if (outcome.kind === 'reply') return outcome.reply ?? '(the turn ended without text)';
      if (outcome.kind === 'timeout')
        throw new HubError(
          ErrorCode.AskTimeout,
          `no answer within ${timeoutSeconds} s; the message is ${outcome.message.status.toLowerCase()} and goes on (session_status tells when the turn ends)`,
        );
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `the message could not be delivered: ${outcome.message.error ?? 'it failed'}`,
      );
    });
  }

  async send(caller: string, session: string, text: string): Promise<string> {
    const me = this.#caller(caller);
    return this.#recorded(me, 'send_to_session', { session }, async (act) => {
      const target = this.#target(me, session, act);
      const message = await this.#deps.hub().enqueue(target.id, text);
      return `queued (message ${message.id})`;
    });
  }

  async status(caller: string, session: string): Promise<string> {
    const target = this.#target(this.#caller(caller), session);
    const hub = this.#deps.hub();
    const waiting = hub
      .messages(target.id, 100)
      .filter((message) => message.status === 'QUEUED' || message.status === 'SENT');
    return JSON.stringify({
      ...this.#summary(target),
      statusSince: new Date(target.statusSince).toISOString(),
      error: target.error,
      waitingMessages: waiting.length,
      pendingPermissions: hub.pendingPermissions(target.id).length,
    });
  }

  async stop(caller: string, session: string): Promise<string> {
    const me = this.#caller(caller);
    return this.#recorded(me, 'stop_session', { session }, async (act) => {
      const target = this.#target(me, session, act);
      const stopped = await this.#deps.hub().stop(target.id);
      return `stopped: ${stopped.status}`;
    });
  }

  #caller(id: string): SessionRecord {
    const record = this.#deps.hub().get(id);
    if (!record?.orchestration)
      throw new HubError(ErrorCode.Forbidden, 'this session was not started with orchestrate');
    return record;
  }

  #inReach(me: SessionRecord, record: SessionRecord): boolean {
    if (record.id === me.id) return false;
    return me.orchestration?.reach === OrchestrationReach.All || record.parentId === me.id;
  }

  /** The session the caller names, which must be in its reach. */
  #target(me: SessionRecord, session: string, act: Act = { sessionId: null }): SessionRecord {
    const target = this.#deps.hub().get(session.trim().toLowerCase());
    if (!target)
      throw new HubError(ErrorCode.SessionNotFound, `no session has id ${describeValue(session)}`);
    act.sessionId = target.id;
    if (!this.#inReach(me, target))
      throw new HubError(
        ErrorCode.OutOfReach,
        target.id === me.id
          ? 'a session cannot act on itself'
          : `session ${target.id} is not one you started: you may act on your children only`,
      );
    return target;
  }

  /** What the tools say of a session; its last answer cut at `answerChars`, when given. */
  #summary(record: SessionRecord, answerChars = Infinity) {
    const answer = record.lastAssistantMessage;
    return {
      id: record.id,
      name: record.name,
      status: this.#deps.hub().statusOf(record),
      labels: record.labels,
      cwd: record.cwd,
      parent: record.parentId,
      lastAnswer:
        answer !== null && answer.length > answerChars
          ? `${answer.slice(0, answerChars)}…`
          : answer,
    };
  }

  /**
   * Runs an act of `me`, recorded in the audit trail with its outcome and the session it acted
   * on (`act.sessionId`, set by the work as soon as it knows it).
   */
  async #recorded(
    me: SessionRecord,
    action: string,
    detail: Record<string, unknown>,
    work: (act: Act) => Promise<string>,
  ): Promise<string> {
    const act: Act = { sessionId: null };
    const entry = (outcome: string) =>
      this.#deps.audit.record({
        actor: `session:${me.id}`,
        address: 'mcp',
        action,
        sessionId: act.sessionId,
        target: me.id,
        outcome,
        detail,
      });
    try {
      const text = await work(act);
      entry('ok');
      return text;
    } catch (error) {
      entry(error instanceof HubError ? error.code : 'INTERNAL');
      throw error;
    }
  }
}

const statuses: ReadonlySet<string> = new Set(Object.values(SessionStatus));

/** Where a session stands in list_sessions' order: oldest first, then by id. */
type Place = Pick<SessionRecord, 'createdAt' | 'id'>;

function byPlace(a: Place, b: Place): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The place a list_sessions page's `next` names. */
function placeOf(after: string): Place {
  const match = /^(\d+)\.(.+)$/.exec(after.trim());
  if (!match)
    throw new HubError(
      ErrorCode.BadInput,
      `after ${describeValue(after)} is not a page's next: pass the next list_sessions gave, or leave after out for the first page`,
    );
  return { createdAt: Number(match[1]), id: match[2]! };
}

/** What an audited act acted on. */
interface Act {
  sessionId: string | null;
}
