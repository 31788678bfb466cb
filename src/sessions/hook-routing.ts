import type { WorkTreeMarks } from '../changes/work-tree-marks.js';
import type { Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import type { HookPayload, StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import { hubToolAllowance, isOrchestrationTool } from '../mcp/hub-tools.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import { paneAddress } from '../runtime/tmux-pane.js';
import type { EventIntake } from './event-intake.js';
import { externalRecord, isExternal } from './external-session.js';
import type { HookOrigin, IngestResult } from './hook-origin.js';
import type { PolicyGate } from './policy-gate.js';
import { liveClaudes } from './live-claudes.js';
import { hasTerminal, isRunning, type SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';
import type { SessionIndex } from './session-index.js';
import { sha256 } from './session-launch.js';
import { enter, Move } from './session-lifecycle.js';
import { claudeConfigDir } from './transcript.js';

export interface HookRoutingDeps {
  readonly index: SessionIndex;
  readonly intake: Pick<EventIntake, 'append'>;
  readonly changes: SessionChanges;
  readonly permissions: Pick<PermissionBroker, 'observe' | 'hold'>;
  /** The permission rules, tried before anyone is asked. */
  readonly gate: Pick<PolicyGate, 'rule' | 'stop'>;
  /** Snapshots of the work tree at turn starts, after tool calls and at turn ends. */
  readonly marks?: Pick<WorkTreeMarks, 'after'>;
  /**
   * Whether a hook call's secret, by its hex SHA-256, is one of the hub's hook tokens (the
   * installed global hooks): the secret is hashed once per call, for both look-ups.
   */
  readonly isHookToken: (secretSha256: string) => boolean;
  /** The hub's environment: where claude keeps its session files. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * Routes each posted hook event to its session: the secret names a session the hub started; a
 * hook token's call belongs to a claude a person started, which joins as an EXTERNAL session.
 */
export class HookRouting {
  readonly #deps: HookRoutingDeps;

  constructor(deps: HookRoutingDeps) {
    this.#deps = deps;
  }

  /** The running session a hook secret was made for; null for any other secret. */
  sessionOfSecret(secret: string): SessionRecord | null {
    const record = this.#deps.index.bySecretHash(sha256(secret));
    return record && isRunning(record.status) ? record : null;
  }

  /**
   * Routes one posted hook event: the secret names the session; a payload session_id that
   * belongs to another session is refused; a new one (after /clear) joins the secret's session.
   */
  async ingest(
    secret: string,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
    origin: HookOrigin,
  ): Promise<IngestResult> {
    const { index } = this.#deps;
    const secretHash = sha256(secret);
    const record = index.bySecretHash(secretHash);
    if (!record) {
      if (this.#deps.isHookToken(secretHash))
        return this.#ingestExternal(raw, payload, closed, origin);
      return { ok: false, error: new HubError(ErrorCode.Unauthorized, 'unknown hook secret') };
    }
    if (origin.pid !== null && payload.hook_event_name === 'SessionStart') record.pid = origin.pid;
    const owner = index.ownerOf(payload.session_id);
    if (owner !== undefined && owner !== record.id) {
      return {
        ok: false,
        error: new HubError(ErrorCode.Unauthorized, 'session_id belongs to another session'),
      };
    }
    if (owner === undefined) index.claim(payload.session_id, record.id);
    return this.#deliver(record, raw, payload, closed);
  }

  /** Keeps a new EXTERNAL session, and says so. */
  join(record: SessionRecord, how: string): void {
    this.#deps.index.add(record);
    this.#deps.changes.commit(record);
    this.#deps.log.info(
      { sessionId: record.id, cwd: record.cwd, pane: record.pane, pid: record.pid },
      how,
    );
  }

  /**
   * An event of a claude a person started, posted by the global hooks: a session the hub started
   * is dropped (its own hooks post the same event); a new Claude session id continues the
   * session of the same process (after /clear), or becomes a new EXTERNAL session.
   */
  #ingestExternal(
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
    origin: HookOrigin,
  ): Promise<IngestResult> {
    const { index, changes, clock } = this.#deps;
    const dropped: IngestResult = { ok: true, event: null, answer: Promise.resolve({}) };
    const marked = origin.hubSession === null ? undefined : index.get(origin.hubSession);
    const ownerId = index.ownerOf(payload.session_id);
    const owner = ownerId === undefined ? undefined : index.get(ownerId);
    if ((marked && !isExternal(marked)) || (owner && !isExternal(owner))) {
      return Promise.resolve(dropped);
    }
    const pane = paneAddress(origin.tmux, origin.tmuxPane);
    const record = owner ?? index.sameProcess(origin.pid) ?? this.#adopt(payload, origin.pid, pane);
    index.claim(payload.session_id, record.id);
    let moved = false;
    if (origin.pid !== null && record.pid !== origin.pid) {
      record.pid = origin.pid;
      moved = true;
    }
    if (pane && (pane.socket !== record.pane?.socket || pane.pane !== record.pane.pane)) {
      record.pane = pane;
      moved = true;
    }
    if (payload.hook_event_name === 'SessionStart') {
      // claude --resume <id> by hand: the same conversation, so the same session, running again.
      moved = enter(record, Move.ResumedByHand, { at: clock.now() }) || moved;
    }
    if (moved) changes.commit(record);
    return this.#deliver(record, raw, payload, closed);
  }

  /**
   * A new EXTERNAL session for a claude first heard of: its process and pane from the hook's
   * headers, else from its session file. Synchronous, so two calls at once make one session.
   */
  #adopt(
    payload: HookPayload,
    pid: number | null,
    pane: ReturnType<typeof paneAddress>,
  ): SessionRecord {
    const live =
      pid === null
        ? liveClaudes(claudeConfigDir(this.#deps.env)).find(
            (claude) => claude.sessionId === payload.session_id,
          )
        : undefined;
    const record = externalRecord({
      payload,
      pid: pid ?? live?.pid ?? null,
      pane: pane ?? live?.pane ?? null,
      busy: null,
      now: this.#deps.clock.now(),
    });
    this.join(record, 'a claude started by hand joined');
    return record;
  }

  /**
   * Stores the event, then answers: at once (the hub's own tools are let through, a rule may
   * decide), or for a permission request no rule decided, when a person does; an event that
   * ends a span of work is answered once the work tree's snapshot is taken (WorkTreeMarks).
   */
  async #deliver(
    record: SessionRecord,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
  ): Promise<IngestResult> {
    const { intake, permissions, gate } = this.#deps;
    const refusal = payload.hook_event_name === 'Stop' ? await gate.stop(record, payload) : null;
    const event = await intake.append(record, raw, payload, { turnGoesOn: refusal !== null });
    const marked = this.#deps.marks?.after(record, event);
    const result = this.#answer(record, event, refusal, closed);
    return marked ? { ...result, answer: marked.then(() => result.answer) } : result;
  }

  #answer(
    record: SessionRecord,
    event: StoredEvent,
    refusal: Awaited<ReturnType<PolicyGate['stop']>>,
    closed: AbortSignal,
  ): IngestResult & { ok: true } {
    const { permissions, gate } = this.#deps;
    permissions.observe(event);
    if (refusal && 'answer' in refusal) {
      return { ok: true, event, answer: Promise.resolve(refusal.answer) };
    }
    // Only sessions the hub started have its MCP server: a person's own "hub" is theirs.
    const allowance = isExternal(record)
      ? null
      : hubToolAllowance(event.eventName, event.payload.tool_name);
    // The orchestration tools act on other sessions: a permission rule may refuse them.
    if (allowance !== null && !isOrchestrationTool(event.payload.tool_name))
      return { ok: true, event, answer: Promise.resolve(allowance) };
    const ruling = gate.rule(record, event);
    if (ruling && 'answer' in ruling)
      return { ok: true, event, answer: Promise.resolve(ruling.answer) };
    if (allowance !== null) return { ok: true, event, answer: Promise.resolve(allowance) };
    const answer =
      event.eventName === 'PermissionRequest'
        ? permissions.hold(
            event,
            closed,
            () => isRunning(record.status),
            // Without a terminal there is no dialog to fall back to: nobody deciding is a no.
            hasTerminal(record) ? undefined : 'deny',
            ruling?.ask ?? null,
          )
        : Promise.resolve({});
    return { ok: true, event, answer };
  }
}
