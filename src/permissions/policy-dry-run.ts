import { ErrorCode, HubError } from '../errors.js';
import { PermissionStatus, type PermissionRecord } from './permission-request.js';
import { Policy } from './policy.js';
import {
  checkRuleInput,
  RuleDecision,
  RuleInputError,
  RuleSource,
  RuleTrigger,
  type PermissionRule,
  type RuleInput,
} from './rule.js';
import type { RuleSession } from './rule-match.js';

/** One stored PreToolUse: a tool call claude was about to make. */
export interface PastCall {
  readonly sessionId: string;
  readonly seq: number;
  /** When the hub received it, in ms since the epoch. */
  readonly at: number;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly toolUseId: string | null;
}

/** One call whose replay a dry run shows. */
export interface DryRunExample {
  readonly sessionId: string;
  readonly seq: number;
  readonly at: number;
  readonly toolName: string;
  readonly toolInput: unknown;
  /** What happened to the call. */
  readonly then: RuleDecision;
  /** What the proposed rules make of it. */
  readonly now: RuleDecision;
  /** The decidedBy of the permission request tied to the call; null when none. */
  readonly thenDecidedBy: string | null;
  /** The proposed rule that decides it; null when none matches. */
  readonly rule: string | null;
  readonly explanation: string | null;
}

export interface DryRunResult {
  /** Calls replayed. */
  readonly calls: number;
  /** Sessions whose calls were read. */
  readonly sessions: number;
  readonly allowed: number;
  readonly denied: number;
  readonly asked: number;
  /** Calls whose `now` differs from their `then`. */
  readonly changed: number;
  /** A bound stopped the reading before every call of the period was read. */
  readonly truncated: boolean;
  readonly examples: readonly DryRunExample[];
}

/** The most rules one dry run tries. */
export const maxProposedRules = 500;
/** The most examples a dry run shows. */
export const dryRunExamples = 20;

/**
 * The proposed rules as the rule book would hold them, each checked as createPermissionRule
 * checks one; BAD_USER_INPUT names the first bad one by its index (`rules[2].match.tools[0]`).
 * Their creation is their index, so that rules of equal priority and decision keep the order
 * given.
 */
export function proposedRules(inputs: readonly RuleInput[]): PermissionRule[] {
  if (inputs.length > maxProposedRules)
    throw new HubError(
      ErrorCode.BadInput,
      `a dry run tries at most ${maxProposedRules} rules, got ${inputs.length}`,
      { field: 'rules' },
    );
  const names = new Map<string, number>();
  return inputs.map((input, index) => {
    const refuse = (field: string, message: string): never => {
      throw new HubError(ErrorCode.BadInput, `invalid rule rules[${index}]: ${message}`, {
        field: `rules[${index}].${field}`,
        index,
      });
    };
    let fields: ReturnType<typeof checkRuleInput>;
    try {
      fields = checkRuleInput(input);
    } catch (error) {
      if (!(error instanceof RuleInputError)) throw error;
      return refuse(error.field, error.message);
    }
    const before = names.get(fields.name);
    if (before !== undefined)
      refuse('name', `name: ${JSON.stringify(fields.name)} is taken by rules[${before}]`);
    names.set(fields.name, index);
    return {
      ...fields,
      id: `proposed:${index}`,
      source: RuleSource.Api,
      createdAt: index,
      createdBy: null,
      updatedAt: index,
    };
  });
}

/**
 * What happened to a call, from the permission request tied to it: a rule's ALLOWED or DENIED
 * is that rule's decision; any other request (a person, the terminal, the hold running out) is
 * ASK; no request means it ran without anybody asked.
 */
export function thenDecision(record: PermissionRecord | null): RuleDecision {
  if (!record) return RuleDecision.Allow;
  if (record.decidedBy?.startsWith('rule ')) {
    if (record.status === PermissionStatus.Allowed) return RuleDecision.Allow;
    if (record.status === PermissionStatus.Denied) return RuleDecision.Deny;
  }
  return RuleDecision.Ask;
}

const callKey = (toolName: string, toolInput: unknown) =>
  `${toolName}\u0000${JSON.stringify(toolInput)}`;

/**
 * The permission request tied to each of a session's calls (in seq order), or null: the one
 * with the call's tool_use_id (a rule decided at its PreToolUse), else the first one after the
 * call of the same tool and the same JSON input, before the next call of that tool and input
 * (claude asked, at its PermissionRequest). Each request ties to one call at most.
 */
export function tieRequests(
  calls: readonly PastCall[],
  records: readonly PermissionRecord[],
): (PermissionRecord | null)[] {
  const byToolUse = new Map<string, PermissionRecord>();
  /** The requests of a PermissionRequest, by tool, then by tool and input, in seq order. */
  const asked = new Map<string, Map<string, PermissionRecord[]>>();
  for (const record of [...records].sort((a, b) => a.eventSeq - b.eventSeq)) {
    if (record.toolUseId) {
      if (!byToolUse.has(record.toolUseId)) byToolUse.set(record.toolUseId, record);
      continue;
    }
    const ofTool = asked.get(record.toolName) ?? new Map<string, PermissionRecord[]>();
    asked.set(record.toolName, ofTool);
    const key = callKey(record.toolName, record.toolInput);
    const list = ofTool.get(key);
    if (list) list.push(record);
    else ofTool.set(key, [record]);
  }
  // Only a call of a tool some request names needs its input serialised.
  const keys = calls.map((call) =>
    asked.has(call.toolName) ? callKey(call.toolName, call.toolInput) : null,
  );
  const nextSeq: number[] = [];
  const seen = new Map<string, number>();
  for (let i = calls.length - 1; i >= 0; i--) {
    const key = keys[i];
    if (key === null || key === undefined) continue;
    nextSeq[i] = seen.get(key) ?? Number.POSITIVE_INFINITY;
    seen.set(key, calls[i]!.seq);
  }
  const next = new Map<string, number>();
  return calls.map((call, i) => {
    const ruled = call.toolUseId ? byToolUse.get(call.toolUseId) : undefined;
    if (ruled) return ruled;
    const key = keys[i];
    if (key === null || key === undefined) return null;
    const list = asked.get(call.toolName)?.get(key);
    if (!list) return null;
    let at = next.get(key) ?? 0;
    while (at < list.length && list[at]!.eventSeq <= call.seq) at += 1;
    const record = list[at];
    if (!record || record.eventSeq >= nextSeq[i]!) {
      next.set(key, at);
      return null;
    }
    next.set(key, at + 1);
    return record;
  });
}

/** Newer first: by time received, then by session and seq, so the order is total. */
function newer(a: DryRunExample, b: DryRunExample): number {
  return b.at - a.at || b.sessionId.localeCompare(a.sessionId) || b.seq - a.seq;
}

/**
 * Replays stored tool calls against proposed rules, one session at a time: what the first
 * proposed rule that matches decides (`now`), against what happened (`then`). Only TOOL_CALL
 * rules are tried; STOP rules match no call. Where no proposed rule matches, `now` is what
 * claude does without rules: ASK where a permission request was made then (a person or a rule
 * was involved), else ALLOW. Holds the counts and at most `exampleLimit` examples, whatever
 * the number of calls.
 */
export class PolicyReplay {
  readonly #policy: Policy;
  readonly #exampleLimit: number;
  #calls = 0;
  #changed = 0;
  readonly #counts: Record<RuleDecision, number> = { ALLOW: 0, DENY: 0, ASK: 0 };
  /** The newest changed calls, newest first. */
  readonly #newestChanged: DryRunExample[] = [];
  /** Per `now` decision: its newest changed call, and its newest call. */
  readonly #newestChangedOf = new Map<RuleDecision, DryRunExample>();
  readonly #newestOf = new Map<RuleDecision, DryRunExample>();

  constructor(rules: readonly PermissionRule[], exampleLimit = dryRunExamples) {
    this.#policy = new Policy(rules);
    this.#exampleLimit = exampleLimit;
  }

  /** One session's calls, in seq order, with the session's permission requests. */
  replaySession(
    session: RuleSession,
    calls: readonly PastCall[],
    records: readonly PermissionRecord[],
  ): void {
    const tied = tieRequests(calls, records);
    calls.forEach((call, i) => this.replayCall(session, call, tied[i] ?? null));
  }

  /** One call of `session`, with the permission request tieRequests tied to it. */
  replayCall(session: RuleSession, call: PastCall, record: PermissionRecord | null): void {
    const verdict = this.#policy.decide({
      on: RuleTrigger.ToolCall,
      session,
      toolName: call.toolName,
      toolInput: call.toolInput,
    });
    const then = thenDecision(record);
    const now = verdict?.decision ?? (record ? RuleDecision.Ask : RuleDecision.Allow);
    this.#calls += 1;
    this.#counts[now] += 1;
    const example: DryRunExample = {
      sessionId: call.sessionId,
      seq: call.seq,
      at: call.at,
      toolName: call.toolName,
      toolInput: call.toolInput,
      then,
      now,
      thenDecidedBy: record?.decidedBy ?? null,
      rule: verdict?.rule.name ?? null,
      explanation: verdict?.explanation ?? null,
    };
    keepNewest(this.#newestOf, now, example);
    if (now === then) return;
    this.#changed += 1;
    keepNewest(this.#newestChangedOf, now, example);
    const list = this.#newestChanged;
    if (list.length === this.#exampleLimit && newer(example, list.at(-1)!) >= 0) return;
    const at = list.findIndex((other) => newer(example, other) < 0);
    list.splice(at === -1 ? list.length : at, 0, example);
    if (list.length > this.#exampleLimit) list.pop();
  }

  /**
   * The counts, and the examples: for each `now` decision that occurred, its newest call (a
   * changed one if any), and as many of the newest changed calls as there is room for; changed
   * calls first, then the others, newest first in each.
   */
  result(scan: Pick<DryRunResult, 'sessions' | 'truncated'>): DryRunResult {
    const picked = new Set<DryRunExample>();
    const ofEach = Object.values(RuleDecision)
      .flatMap(
        (decision) => this.#newestChangedOf.get(decision) ?? this.#newestOf.get(decision) ?? [],
      )
      .sort((a, b) => Number(b.now !== b.then) - Number(a.now !== a.then) || newer(a, b));
    for (const example of ofEach.slice(0, this.#exampleLimit)) picked.add(example);
    for (const example of this.#newestChanged) {
      if (picked.size >= this.#exampleLimit) break;
      picked.add(example);
    }
    const all = [...picked];
    const examples = [
      ...all.filter((example) => example.now !== example.then).sort(newer),
      ...all.filter((example) => example.now === example.then).sort(newer),
    ];
    return {
      calls: this.#calls,
      sessions: scan.sessions,
      allowed: this.#counts.ALLOW,
      denied: this.#counts.DENY,
      asked: this.#counts.ASK,
      changed: this.#changed,
      truncated: scan.truncated,
      examples,
    };
  }
}

function keepNewest(
  map: Map<RuleDecision, DryRunExample>,
  decision: RuleDecision,
  example: DryRunExample,
): void {
  const kept = map.get(decision);
  if (!kept || newer(example, kept) < 0) map.set(decision, example);
}
