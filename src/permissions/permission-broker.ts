import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import { beyondRetention } from '../store/retention.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { RecordTable } from '../store/record-table.js';
import {
  DecisionErrorCode,
  hookAnswer,
  PermissionStatus,
  settledBy,
  type Decision,
  type DecisionResult,
  type PermissionRecord,
} from './permission-request.js';

export interface PermissionBrokerOptions {
  /** How long a request is held open for a decision. */
  readonly holdMs: number;
  /** What an expired request answers: `ask` leaves it to the terminal dialog, `deny` refuses. */
  readonly onExpiry: 'ask' | 'deny';
  /** Called on every new request and every resolution. */
  readonly changed: (request: PermissionRecord) => void;
  /** Records a resolution in the session's event stream. */
  readonly resolved: (request: PermissionRecord) => Promise<void>;
  /** Decides when a request expires, and stamps decisions. */
  readonly clock?: Clock;
}

interface Held {
  readonly answer: (body: Record<string, unknown>) => void;
  readonly cancelExpiry: () => void;
}

/**
 * Holds PermissionRequest hook requests open until a person decides through the API, the
 * terminal answers first, or the hold runs out. A request is resolved exactly once.
 */
export class PermissionBroker {
  readonly #options: PermissionBrokerOptions;
  readonly #clock: Clock;
  readonly #store: RecordTable<PermissionRecord>;
  readonly #requests = new Map<string, PermissionRecord>();
  readonly #held = new Map<string, Held>();

  constructor(options: PermissionBrokerOptions, store: RecordTable<PermissionRecord>) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#store = store;
    for (const request of store.loadAll()) {
      this.#requests.set(request.id, request);
      // Its hook request died with the previous hub; claude's terminal dialog still asks.
      if (request.status === PermissionStatus.Pending) {
        Object.assign(request, {
          status: PermissionStatus.Expired,
          decidedAt: this.#clock.now(),
          message: 'the hub restarted while holding this request; answer it in the terminal',
        });
        store.save(request);
      }
    }
  }

  /**
   * Registers the request of a PermissionRequest event and resolves with the hook answer once
   * it is settled. `closed` fires if claude stops waiting (it was answered in the terminal).
   * `onExpiry` overrides the hub's choice, for a session without a terminal to fall back to.
   */
  hold(
    event: StoredEvent,
    closed: AbortSignal,
    sessionRunning: () => boolean,
    onExpiry = this.#options.onExpiry,
    explanation: string | null = null,
  ): Promise<Record<string, unknown>> {
    const request = this.#keep(event, { explanation });
    return new Promise((resolve) => {
      const cancelExpiry = this.#clock.after(this.#options.holdMs, () => {
        const deny = onExpiry === 'deny';
        const message = `no decision within ${Math.round(this.#options.holdMs / 1000)} s`;
        this.#settle(
          request,
          PermissionStatus.Expired,
          message,
          deny ? hookAnswer({ requestId: request.id, behavior: 'DENY', message }) : {},
          'expiry',
        );
      });
      this.#held.set(request.id, { answer: resolve, cancelExpiry });
      closed.addEventListener('abort', () => {
        if (sessionRunning())
          this.#settle(request, PermissionStatus.AnsweredInTerminal, null, {}, 'terminal');
        else this.#settle(request, PermissionStatus.Expired, 'the session ended', {});
      });
      this.#options.changed(request);
    });
  }

  decide(decision: Decision): DecisionResult {
    const request = this.#requests.get(decision.requestId);
    if (!request) {
      return {
        request: null,
        error: {
          code: DecisionErrorCode.NotFound,
          message: `no permission request has id ${JSON.stringify(decision.requestId)}`,
        },
      };
    }
    if (request.status !== PermissionStatus.Pending || !this.#held.has(request.id)) {
      const code =
        request.status === PermissionStatus.Expired
          ? DecisionErrorCode.Expired
          : request.status === PermissionStatus.AnsweredInTerminal
            ? DecisionErrorCode.AnsweredInTerminal
            : DecisionErrorCode.AlreadyDecided;
      return {
        request,
        error: {
          code,
          message: `permission request ${request.id} is ${request.status.toLowerCase()} already`,
        },
      };
    }
    const status =
      decision.behavior === 'ALLOW' ? PermissionStatus.Allowed : PermissionStatus.Denied;
    this.#settle(
      request,
      status,
      decision.message ?? null,
      hookAnswer(decision),
      decision.decidedBy ?? null,
    );
    return { request, error: null };
  }

  /**
   * Keeps a rule's decision of a tool call (at its PreToolUse or its PermissionRequest) as a
   * request settled at once: nobody was asked, and the record says which rule and why.
   */
  ruled(
    event: StoredEvent,
    decision: { readonly allow: boolean; readonly by: string; readonly explanation: string },
    message: string | null,
  ): PermissionRecord {
    const request = this.#keep(event, {
      status: decision.allow ? PermissionStatus.Allowed : PermissionStatus.Denied,
      decidedAt: this.#clock.now(),
      decidedBy: decision.by,
      message,
      explanation: decision.explanation,
    });
    this.#options.changed(request);
    void this.#options.resolved(request);
    return request;
  }

  /** Settles the session's pending requests that a later event shows were answered elsewhere. */
  observe(event: StoredEvent): void {
    for (const request of this.pending(event.sessionId)) {
      if (request.eventSeq >= event.seq || !settledBy(request, event.eventName, event.payload))
        continue;
      if (event.eventName === 'SessionEnd')
        this.#settle(request, PermissionStatus.Expired, 'the session ended', {});
      else this.#settle(request, PermissionStatus.AnsweredInTerminal, null, {}, 'terminal');
    }
  }

  /** Releases every request of a session that is gone. */
  sessionGone(sessionId: string): void {
    for (const request of this.pending(sessionId))
      this.#settle(request, PermissionStatus.Expired, 'the session ended', {});
  }

  /** The session's requests still waiting, oldest first (only held requests are pending). */
  pending(sessionId: string): PermissionRecord[] {
    const pending: PermissionRecord[] = [];
    for (const id of this.#held.keys()) {
      const request = this.#requests.get(id);
      if (request?.sessionId === sessionId) pending.push(request);
    }
    return pending;
  }

  get(id: string): PermissionRecord | undefined {
    return this.#requests.get(id);
  }

  /** Requests, oldest first, optionally with one status. */
  list(status?: PermissionStatus | null): PermissionRecord[] {
    const all = [...this.#requests.values()];
    return (status ? all.filter((request) => request.status === status) : all).sort(
      (a, b) => a.requestedAt - b.requestedAt,
    );
  }

  /**
   * Deletes every request of the sessions in `forget`, and per session the settled ones beyond
   * the latest `keep` (0 keeps all); returns how many.
   */
  prune(keep: number, forget: ReadonlySet<string>): number {
    const drop = beyondRetention(this.#requests.values(), {
      keep,
      forget,
      time: (request) => request.requestedAt,
      open: (request) => request.status === PermissionStatus.Pending,
    });
    for (const request of drop) this.#requests.delete(request.id);
    this.#store.delete(drop.map((request) => request.id));
    return drop.length;
  }

  /** Answers every held request with `{}`, leaving the decision to the terminal. */
  close(): void {
    for (const request of [...this.#held.keys()].map((id) => this.#requests.get(id)!)) {
      this.#settle(
        request,
        PermissionStatus.Expired,
        'the hub shut down while holding this request',
        {},
      );
    }
  }

  #keep(
    event: StoredEvent,
    outcome: Partial<
      Pick<PermissionRecord, 'status' | 'decidedAt' | 'decidedBy' | 'message' | 'explanation'>
    >,
  ): PermissionRecord {
    const { payload } = event;
    const request: PermissionRecord = {
      id: randomUUID(),
      sessionId: event.sessionId,
      eventSeq: event.seq,
      toolUseId: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : null,
      toolName: typeof payload.tool_name === 'string' ? payload.tool_name : '',
      toolInput: payload.tool_input ?? {},
      suggestions: payload.permission_suggestions ?? null,
      requestedAt: event.receivedAt,
      status: PermissionStatus.Pending,
      decidedAt: null,
      message: null,
      decidedBy: null,
      explanation: null,
      ...outcome,
    };
    this.#requests.set(request.id, request);
    this.#store.save(request);
    return request;
  }

  #settle(
    request: PermissionRecord,
    status: PermissionStatus,
    message: string | null,
    answer: Record<string, unknown>,
    decidedBy: string | null = null,
  ): void {
    const held = this.#held.get(request.id);
    if (request.status !== PermissionStatus.Pending) return;
    Object.assign(request, { status, message, decidedBy, decidedAt: this.#clock.now() });
    this.#store.save(request);
    if (held) {
      held.cancelExpiry();
      this.#held.delete(request.id);
      held.answer(answer);
    }
    this.#options.changed(request);
    void this.#options.resolved(request);
  }
}
