import { stringField, type HookPayload, type StoredEvent } from '../events/hook-event.js';
import { ActionKind, ActionPhase, describeTool, fileChanges, type Action } from './action.js';
import { streamUsage, type Usage } from './usage.js';

export const TurnStatus = {
  Running: 'RUNNING',
  Completed: 'COMPLETED',
  Failed: 'FAILED',
  Interrupted: 'INTERRUPTED',
} as const;
export type TurnStatus = (typeof TurnStatus)[keyof typeof TurnStatus];

/** One prompt claude took and everything it did for it, up to its one completion. */
export interface Turn {
  /** `<session id>:<seq of the event that started it>`. */
  readonly id: string;
  readonly sessionId: string;
  /** 1, 2, 3, ... in the session, counted from its oldest kept event. */
  readonly number: number;
  readonly prompt: string | null;
  readonly status: TurnStatus;
  /** Null while RUNNING; true only when COMPLETED. */
  readonly ok: boolean | null;
  readonly answer: string | null;
  readonly error: string | null;
  /** The Claude session id that ran it: what `claude --resume` takes. */
  readonly claudeSessionId: string;
  /** The line a person pastes to continue the conversation in a terminal. */
  readonly resume: string;
  readonly transcriptPath: string | null;
  /** Each action in its latest phase, in the order they started. */
  readonly actions: readonly Action[];
  readonly startedAt: number;
  readonly completedAt: number | null;
  readonly durationMs: number | null;
  /** The seq of the event that completed it. */
  readonly completedSeq: number | null;
  /** What claude's `result` line said the turn cost (HEADLESS sessions), else null. */
  readonly costUsd: number | null;
  /** The usage claude's `result` line reported (HEADLESS sessions), else null. */
  readonly usage: Usage | null;
}

/** What one event did to the run. */
export interface RunChange {
  /** Action phases, in order. */
  readonly actions: readonly Action[];
  readonly started: Turn | null;
  /** The turn this event completed (a new prompt can complete one and start the next). */
  readonly completed: Turn | null;
}

/** The event names that can change a run; reads of the log can skip the rest. */
export const runEventNames = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'Stop',
  'StopFailure',
  'SessionEnd',
  'HubPermissionResolved',
  'HubStopRefused',
  'HubEventsMissed',
  'HubTurnEnded',
  'StreamMessage',
] as const;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** Ends the running turn, if any; `result` is what claude's result line said of it. */
type Complete = (
  status: TurnStatus,
  answer: string | null,
  error: string | null,
  result?: Pick<Turn, 'costUsd' | 'usage'> | null,
) => void;

type MutableTurn = { -readonly [K in keyof Turn]: Turn[K] } & { actions: Action[] };

/**
 * Which actions carry their detail (a tool's input and output can be megabytes): `all`; `phases`,
 * the phases `apply` returns and the calls still open, while the turn keeps a completed action
 * without it (a stream of phases then holds no output once sent); or `none`.
 */
export type Details = 'all' | 'phases' | 'none';

/**
 * Reads a session's events as a run: turns, each with one completion, and the actions of their
 * tool calls, each started then completed. Pure and deterministic: folding the same events
 * always gives the same turns and actions, so replays from the log match what was live.
 */
export class RunFold {
  readonly #sessionId: string;
  readonly #details: Details;
  #turn: MutableTurn | null = null;
  #number = 0;
  /** Indexes into the current turn's actions, by tool call id. */
  readonly #open = new Map<string, number>();
  /** claude prints a stream (a HEADLESS session): its `result` line, not Stop, ends a turn. */
  #streaming = false;
  /** The answer of the Stop of the current turn, while its `result` line has not come. */
  #stopped: { readonly answer: string | null } | null = null;
  /** A HubStopRefused came: the Stop after it does not end the turn. */
  #stopRefused = false;
  /** What claude's process has cost so far: its `result` lines sum from its start. */
  #processCostUsd = 0;

  constructor(sessionId: string, options: { readonly details?: Details } = {}) {
    this.#sessionId = sessionId;
    this.#details = options.details ?? 'all';
  }

  /** The turn running now, if any. */
  get current(): Turn | null {
    return this.#turn;
  }

  apply(event: StoredEvent): RunChange {
    const { payload, seq, receivedAt: at } = event;
    const actions: Action[] = [];
    let started: Turn | null = null;
    let completed: Turn | null = null;
    const complete: Complete = (status, answer, error, result = null) => {
      const turn = this.#turn;
      if (!turn) return;
      if (this.#stopped && result === null) {
        // Its Stop came and its result line did not: the turn was over all the same.
        ({ answer } = this.#stopped);
        [status, error] = [TurnStatus.Completed, null];
      }
      this.#stopped = null;
      for (const index of this.#open.values()) {
        const open = turn.actions[index]!;
        const why =
          status === TurnStatus.Completed
            ? 'the turn ended with the tool call still open'
            : `the turn ended ${status.toLowerCase()}${error ? `: ${error}` : ''}`;
        actions.push(this.#completeAction(turn, index, open, seq, at, false, { error: why }));
      }
      this.#open.clear();
      Object.assign(turn, {
        status,
        ok: status === TurnStatus.Completed,
        answer,
        error,
        completedAt: at,
        durationMs: at - turn.startedAt,
        completedSeq: seq,
        ...result,
      });
      completed = { ...turn, actions: [...turn.actions] };
      this.#turn = null;
    };
    const turn = () => {
      if (this.#turn) return this.#turn;
      started = this.#start(seq, at, null, payload);
      return started as MutableTurn;
    };

    switch (event.eventName) {
      case 'UserPromptSubmit':
        complete(TurnStatus.Interrupted, null, 'a new prompt came before the turn ended');
        started = this.#start(seq, at, stringField(payload, 'prompt') ?? null, payload);
        break;
      case 'SessionStart':
        complete(TurnStatus.Failed, null, 'claude started again before the turn ended');
        this.#processCostUsd = 0;
        break;
      case 'PreToolUse': {
        const current = turn();
        const action = this.#toolCall(current, payload, seq, at);
        this.#open.set(action.id, current.actions.push(action) - 1);
        actions.push(action);
        break;
      }
      case 'PostToolUse':
      case 'PostToolUseFailure': {
        const current = turn();
        const ok = event.eventName === 'PostToolUse';
        const toolName = stringField(payload, 'tool_name') ?? 'unknown';
        const input = record(payload.tool_input);
        const response = payload.tool_response;
        const changes = ok ? fileChanges(toolName, input, response) : [];
        const outcome = ok
          ? { response, ...(changes.length > 0 ? { changes } : {}) }
          : {
              error: stringField(payload, 'error') ?? 'the tool call failed',
              ...(payload.is_interrupt === true ? { interrupted: true } : {}),
            };
        const id = stringField(payload, 'tool_use_id') ?? `${seq}`;
        const index = this.#open.get(id);
        const duration = typeof payload.duration_ms === 'number' ? payload.duration_ms : null;
        if (index !== undefined) {
          this.#open.delete(id);
          const open = current.actions[index]!;
          actions.push(this.#completeAction(current, index, open, seq, at, ok, outcome, duration));
          break;
        }
        // Its PreToolUse never arrived: the action starts and completes here.
        const called = this.#toolCall(current, payload, seq, at);
        const action: Action = {
          ...called,
          phase: ActionPhase.Completed,
          ok,
          detail: this.#detail(() => ({ ...called.detail, ...outcome })),
          startedAt: at - (duration ?? 0),
          completedAt: at,
          durationMs: duration,
        };
        current.actions.push(this.#kept(action));
        actions.push(action);
        break;
      }
      case 'PermissionDenied':
        this.#denial(turn(), { id: stringField(payload, 'tool_use_id') }, seq, at, actions, {
          reason: stringField(payload, 'reason') ?? null,
          toolUseId: stringField(payload, 'tool_use_id') ?? null,
        });
        break;
      case 'HubPermissionResolved':
        if (payload.status === 'DENIED') {
          this.#denial(turn(), { toolName: stringField(payload, 'tool_name') }, seq, at, actions, {
            reason: stringField(payload, 'message') ?? null,
            requestId: stringField(payload, 'request_id') ?? null,
          });
        }
        break;
      case 'HubStopRefused':
        this.#stopRefused = true;
        break;
      case 'Stop': {
        const answer = stringField(payload, 'last_assistant_message') ?? null;
        // A rule sent claude back to work: the turn goes on to its next Stop.
        if (this.#stopRefused) this.#stopRefused = false;
        else if (this.#streaming && this.#turn) this.#stopped = { answer };
        else complete(TurnStatus.Completed, answer, null);
        break;
      }
      case 'StreamMessage':
        this.#streaming = true;
        if (payload.type === 'result') this.#result(record(payload.message), payload, complete);
        break;
      case 'StopFailure':
        complete(
          TurnStatus.Failed,
          stringField(payload, 'last_assistant_message') ?? null,
          stringField(payload, 'error') ?? 'the turn failed',
        );
        break;
      case 'HubEventsMissed':
        if (payload.turn_over === true)
          complete(
            TurnStatus.Completed,
            stringField(payload, 'last_assistant_message') ?? null,
            null,
          );
        break;
      case 'HubTurnEnded': {
        const reason = stringField(payload, 'reason');
        const error = stringField(payload, 'error') ?? `the session was ${reason ?? 'ended'}`;
        complete(reason === 'crashed' ? TurnStatus.Failed : TurnStatus.Interrupted, null, error);
        break;
      }
      case 'SessionEnd':
        complete(
          TurnStatus.Interrupted,
          null,
          `claude ended the session (${stringField(payload, 'reason') ?? 'no reason given'})`,
        );
        break;
    }
    return { actions, started, completed };
  }

  /**
   * A `result` line ends the turn: COMPLETED unless claude says it failed, INTERRUPTED when the
   * hub had asked it to stop, with the answer, cost and usage claude reports.
   */
  #result(result: Record<string, unknown>, payload: HookPayload, complete: Complete): void {
    const text = typeof result.result === 'string' ? result.result : null;
    const stopped = this.#stopped;
    const cost = {
      costUsd: this.#turnCost(result.total_cost_usd),
      usage: streamUsage(result.usage),
    };
    if (result.is_error !== true || stopped) {
      complete(TurnStatus.Completed, text ?? stopped?.answer ?? null, null, cost);
    } else if (payload.interrupted === true) {
      complete(TurnStatus.Interrupted, null, 'interrupted through the API', cost);
    } else {
      const errors = Array.isArray(result.errors) ? result.errors.join('; ') : '';
      const why = errors || text || String(result.subtype ?? 'error');
      complete(TurnStatus.Failed, null, `claude's result: ${why}`, cost);
    }
  }

  /**
   * A turn's cost: `total_cost_usd` counts from the start of claude's process (verified on the
   * pinned CLI), so the turn's is what it added since the last result.
   */
  #turnCost(total: unknown): number | null {
    if (typeof total !== 'number') return null;
    const added = total >= this.#processCostUsd ? total - this.#processCostUsd : total;
    this.#processCostUsd = total;
    return Math.round(added * 1e10) / 1e10;
  }

  /** The STARTED phase of the tool call an event names. */
  #toolCall(turn: Turn, payload: HookPayload, seq: number, at: number): Action {
    const toolName = stringField(payload, 'tool_name') ?? 'unknown';
    const input = record(payload.tool_input);
    // Not spread into the literal: a spread leaves some fields outside the object, and a turn
    // index keeps up to 100,000 actions (spelled out, 15% less memory each).
    const { kind, title } = describeTool(toolName, input);
    return {
      id: stringField(payload, 'tool_use_id') ?? `${seq}`,
      sessionId: this.#sessionId,
      turnId: turn.id,
      seq,
      kind,
      title,
      phase: ActionPhase.Started,
      toolName,
      ok: null,
      detail: this.#detail(() => ({ input, ...agentOf(payload) })),
      startedAt: at,
      completedAt: null,
      durationMs: null,
    };
  }

  #detail(make: () => Record<string, unknown>): Record<string, unknown> | null {
    return this.#details === 'none' ? null : make();
  }

  /** A completed action as the turn keeps it. */
  #kept(action: Action): Action {
    return this.#details === 'phases' ? { ...action, detail: null } : action;
  }

  #start(seq: number, at: number, prompt: string | null, payload: HookPayload): MutableTurn {
    this.#number += 1;
    this.#turn = {
      id: `${this.#sessionId}:${seq}`,
      sessionId: this.#sessionId,
      number: this.#number,
      prompt,
      status: TurnStatus.Running,
      ok: null,
      answer: null,
      error: null,
      claudeSessionId: payload.session_id,
      resume: `claude --resume ${payload.session_id}`,
      transcriptPath: stringField(payload, 'transcript_path') ?? null,
      actions: [],
      startedAt: at,
      completedAt: null,
      durationMs: null,
      completedSeq: null,
      costUsd: null,
      usage: null,
    };
    return this.#turn;
  }

  #completeAction(
    turn: MutableTurn,
    index: number,
    open: Action,
    seq: number,
    at: number,
    ok: boolean,
    outcome: Record<string, unknown>,
    durationMs: number | null = null,
  ): Action {
    const action: Action = {
      ...open,
      seq,
      phase: ActionPhase.Completed,
      ok,
      detail: this.#detail(() => ({ ...open.detail, ...outcome })),
      completedAt: at,
      durationMs: durationMs ?? at - open.startedAt,
    };
    turn.actions[index] = this.#kept(action);
    return action;
  }

  /**
   * A permission denied: completes the open call it refused, found by its id, or else as the
   * latest open call of the tool (a PermissionRequest names no call id); then a WARNING action.
   */
  #denial(
    turn: MutableTurn,
    call: { id?: string | undefined; toolName?: string | undefined },
    seq: number,
    at: number,
    actions: Action[],
    detail: Record<string, unknown>,
  ): void {
    let found = call.id;
    if (found === undefined) {
      for (const [openId, index] of this.#open)
        if (turn.actions[index]!.toolName === call.toolName) found = openId;
    }
    const index = found === undefined ? undefined : this.#open.get(found);
    const toolName =
      call.toolName ?? (index === undefined ? undefined : turn.actions[index]!.toolName);
    if (index !== undefined) {
      this.#open.delete(found!);
      const open = turn.actions[index]!;
      const outcome = { error: 'permission denied' };
      actions.push(this.#completeAction(turn, index, open, seq, at, false, outcome));
    }
    const warning: Action = {
      id: `${this.#sessionId}:${seq}:warning`,
      sessionId: this.#sessionId,
      turnId: turn.id,
      seq,
      kind: ActionKind.Warning,
      phase: ActionPhase.Completed,
      title: `permission denied: ${toolName ?? 'a tool'}`,
      toolName: toolName ?? null,
      ok: false,
      detail: this.#detail(() => detail),
      startedAt: at,
      completedAt: at,
      durationMs: 0,
    };
    turn.actions.push(this.#kept(warning));
    actions.push(warning);
  }
}

/** The subagent a tool call ran in, when not the main thread. */
function agentOf(payload: HookPayload): Record<string, unknown> {
  const agentId = stringField(payload, 'agent_id');
  return agentId ? { agentId, agentType: stringField(payload, 'agent_type') ?? null } : {};
}
