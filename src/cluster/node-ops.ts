import type { FileChangeRecord } from '../changes/session-file-changes.js';
import type { TurnCost } from '../costs/turn-cost.js';
import type { UsageGroup, UsageTotal } from '../costs/usage-ledger.js';
import { describeValue } from '../errors.js';
import { gitTimeoutMs } from '../git/git.js';
import type { Decision, DecisionResult } from '../permissions/permission-request.js';
import { answerWaitMs, type DialogAnswer } from '../sessions/dialog-watch.js';
import type { AskOutcome, CreateSessionInput } from '../sessions/session-manager.js';
import type { MessageView, SessionView } from './record-mirror.js';
import type { WireEvent } from './remote-event.js';

type AskReply = Extract<AskOutcome, { kind: 'reply' }>;

/** An ask's outcome as it crosses a call: a reply's events come without their parsed payloads. */
export type WireAskOutcome =
  | Exclude<AskOutcome, AskReply>
  | (Omit<AskReply, 'events'> & { readonly events: readonly WireEvent[] });

/** A turn's cost as its owner knows it: kept in its ledger, else worked out there. */
export type WireTurnCost = TurnCost & { readonly turnId: string };

/**
 * The commands one node asks of another, for sessions the other one runs: what the caller sends
 * as `args` and what the owner answers with, both as JSON.
 */
export interface NodeOps {
  create: { args: { input: CreateSessionInput }; result: SessionView };
  resume: { args: { id: string }; result: SessionView };
  stop: { args: { id: string; removeWorktree: boolean }; result: SessionView };
  interrupt: { args: { id: string }; result: SessionView };
  sendKeys: { args: { id: string; keys: readonly string[] }; result: SessionView };
  answerDialog: { args: { id: string; answer: DialogAnswer }; result: SessionView };
  /** `client` empty: the client active last. */
  focus: { args: { id: string; client: string }; result: SessionView };
  setLabels: { args: { id: string; labels: readonly string[] }; result: SessionView };
  enqueue: {
    args: { id: string; text: string; channel: string; typingGuard: boolean; kind: string };
    result: MessageView;
  };
  ask: {
    args: { id: string; text: string; channel: string; timeoutMs: number };
    result: WireAskOutcome;
  };
  decide: { args: { decision: Decision }; result: DecisionResult };
  screen: { args: { id: string }; result: string };
  /** `base` empty: the session's default base. */
  diff: { args: { id: string; base: string }; result: string };
  commitWorktree: { args: { id: string; message: string }; result: string };
  /** `turnId` empty: since `since` (ms; -1: since the session began). */
  changes: { args: { id: string; turnId: string; since: number }; result: FileChangeRecord[] };
  /** This node's ledger, grouped (see UsageLedger.usage); `since` in ms. */
  usage: { args: { since: number; groupBy: UsageGroup }; result: UsageTotal[] };
  /** The cost of each turn of a session this node runs. */
  turnCosts: { args: { id: string }; result: WireTurnCost[] };
}
export type NodeOp = keyof NodeOps;
export type NodeArgs<K extends NodeOp> = NodeOps[K]['args'];
export type NodeResult<K extends NodeOp> = NodeOps[K]['result'];

/** One call as it crosses the wire. */
export type NodeCall<K extends NodeOp = NodeOp> = {
  [P in K]: { readonly op: P; readonly args: NodeArgs<P> };
}[K];

/** What the owner runs for each operation; one left out does not compile. */
export type NodeHandlers = {
  readonly [K in NodeOp]: (args: NodeArgs<K>) => Promise<NodeResult<K>>;
};

export function runNodeCall<K extends NodeOp>(
  handlers: NodeHandlers,
  call: NodeCall<K>,
): Promise<NodeResult<K>> {
  return handlers[call.op](call.args);
}

// Arguments on arrival: the JSON of another node is checked against the table, not trusted.

const argKinds = {
  string: { test: (value: unknown) => typeof value === 'string', what: 'a string' },
  number: { test: (value: unknown) => Number.isFinite(value), what: 'a finite number' },
  boolean: { test: (value: unknown) => typeof value === 'boolean', what: 'true or false' },
  strings: {
    test: (value: unknown) =>
      Array.isArray(value) && value.every((item) => typeof item === 'string'),
    what: 'an array of strings',
  },
  object: { test: isObject, what: 'an object' },
} as const;
type ArgKind = keyof typeof argKinds;

/** The check an argument gets, from its type. */
type KindOf<T> = T extends string
  ? 'string'
  : T extends number
    ? 'number'
    : T extends boolean
      ? 'boolean'
      : T extends readonly string[]
        ? 'strings'
        : 'object';

const argShapes: {
  readonly [K in NodeOp]: { readonly [F in keyof NodeArgs<K>]: KindOf<NodeArgs<K>[F]> };
} = {
  create: { input: 'object' },
  resume: { id: 'string' },
  stop: { id: 'string', removeWorktree: 'boolean' },
  interrupt: { id: 'string' },
  sendKeys: { id: 'string', keys: 'strings' },
  answerDialog: { id: 'string', answer: 'object' },
  focus: { id: 'string', client: 'string' },
  setLabels: { id: 'string', labels: 'strings' },
  enqueue: {
    id: 'string',
    text: 'string',
    channel: 'string',
    typingGuard: 'boolean',
    kind: 'string',
  },
  ask: { id: 'string', text: 'string', channel: 'string', timeoutMs: 'number' },
  decide: { decision: 'object' },
  screen: { id: 'string' },
  diff: { id: 'string', base: 'string' },
  commitWorktree: { id: 'string', message: 'string' },
  changes: { id: 'string', turnId: 'string', since: 'number' },
  usage: { since: 'number', groupBy: 'string' },
  turnCosts: { id: 'string' },
};

export const nodeOps = Object.keys(argShapes) as NodeOp[];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ParsedNodeCall =
  { readonly ok: true; readonly call: NodeCall } | { readonly ok: false; readonly error: string };

/** Reads a call's body: an operation of the table, with arguments of the kinds it declares. */
export function parseNodeCall(text: string): ParsedNodeCall {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the body of a node call must be JSON' };
  }
  if (!isObject(body)) {
    return { ok: false, error: `a node call is {"op", "args"}, got ${describeValue(body)}` };
  }
  const { op, args } = body;
  if (typeof op !== 'string' || !Object.hasOwn(argShapes, op)) {
    return {
      ok: false,
      error: `op must be one of ${nodeOps.join(', ')}, got ${describeValue(op)}`,
    };
  }
  if (!isObject(args)) {
    return { ok: false, error: `args of ${op} must be an object, got ${describeValue(args)}` };
  }
  const shape: Readonly<Record<string, ArgKind>> = argShapes[op as NodeOp];
  for (const [field, kind] of Object.entries(shape)) {
    const { test, what } = argKinds[kind];
    if (!test(args[field])) {
      return {
        ok: false,
        error: `args.${field} of ${op} must be ${what}, got ${describeValue(args[field])}`,
      };
    }
  }
  return { ok: true, call: { op, args } as NodeCall };
}

// How long a caller waits for the answer.

/**
 * How long a call waits for its answer beyond the time its command may take by design; a node
 * silent for longer is NODE_UNREACHABLE, so one hung node does not hang its callers.
 */
export const nodeCallTimeoutMs = 10_000;

export interface NodeCallBounds {
  /** Added to each operation's own time; see nodeCallTimeoutMs. */
  readonly timeoutMs: number;
  /** --start-timeout: how long creating or resuming a session waits for claude. */
  readonly startTimeoutMs: number;
  /** How long stopping a session waits for claude's SessionEnd, and an interrupt for the turn. */
  readonly stopTimeoutMs: number;
}

/** The time each command may take on its owner by design. */
const commandTimeMs: {
  readonly [K in NodeOp]: (args: NodeArgs<K>, bounds: NodeCallBounds) => number;
} = {
  create: (_, { startTimeoutMs }) => startTimeoutMs,
  resume: (_, { startTimeoutMs }) => startTimeoutMs,
  // Behind a stop already under way, a stop waits twice as long; git may then remove a worktree.
  stop: ({ removeWorktree }, { stopTimeoutMs }) =>
    2 * stopTimeoutMs + (removeWorktree ? gitTimeoutMs : 0),
  interrupt: (_, { stopTimeoutMs }) => stopTimeoutMs,
  sendKeys: () => 0,
  answerDialog: () => answerWaitMs,
  focus: () => 0,
  setLabels: () => 0,
  enqueue: () => 0,
  ask: ({ timeoutMs }) => timeoutMs,
  decide: () => 0,
  screen: () => 0,
  // Its git commands in turn: a few quick ones, and staging and diffing the work tree.
  diff: () => 3 * gitTimeoutMs,
  commitWorktree: () => 3 * gitTimeoutMs,
  // A snapshot of the work tree, then a diff per span of the turn and one of the whole.
  changes: () => 5 * gitTimeoutMs,
  usage: () => 0,
  // A turn just completed and not kept yet waits for its answer in its transcript.
  turnCosts: () => answerWaitMs,
};

/** setTimeout's longest wait; an ask may ask for more. */
const maxTimerMs = 2 ** 31 - 1;

/** How long the caller of `op` waits before its node is NODE_UNREACHABLE. */
export function answerWithinMs<K extends NodeOp>(
  op: K,
  args: NodeArgs<K>,
  bounds: NodeCallBounds,
): number {
  return Math.min(commandTimeMs[op](args, bounds) + bounds.timeoutMs, maxTimerMs);
}
