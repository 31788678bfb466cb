import type { AuditRecord } from '../audit/audit-log.js';
import type { HookPayload, StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import { decidedByRule, type Policy, type Verdict } from '../permissions/policy.js';
import { RuleDecision, RuleTrigger } from '../permissions/rule.js';
import type { RuleSession, ToolCall } from '../permissions/rule-match.js';
import type { EventIntake } from './event-intake.js';
import type { SessionRecord } from './session.js';

/** What the rules make of a hook event: an answer now, a person asked with a reason, or nothing. */
export type Ruling = { readonly answer: Record<string, unknown> } | { readonly ask: string } | null;

export interface PolicyGateDeps {
  /** The rules in force now (they change while the hub runs). */
  readonly rules: { readonly policy: Policy };
  readonly permissions: Pick<PermissionBroker, 'ruled'>;
  readonly intake: Pick<EventIntake, 'appendHub'>;
  readonly audit: (entry: AuditRecord) => void;
  readonly log: Logger;
}

/** The most tool calls of one turn kept for STOP rules that look at what the turn did. */
const turnCallLimit = 500;

/**
 * Where permission rules meet claude's hooks. At a PreToolUse or a PermissionRequest the first
 * matching rule decides before anyone is held: ALLOW and DENY answer at once and are kept as a
 * settled PermissionRequest record (and in the audit), ASK holds the call for a person. At a
 * Stop a STOP rule may send claude back to work, once per turn. No rule: claude as without them.
 */
export class PolicyGate {
  readonly #deps: PolicyGateDeps;
  /** The tool calls of each session's turn so far, for STOP rules. */
  readonly #turnCalls = new Map<string, ToolCall[]>();

  constructor(deps: PolicyGateDeps) {
    this.#deps = deps;
  }

  rule(record: SessionRecord, event: StoredEvent): Ruling {
    const { payload } = event;
    switch (event.eventName) {
      case 'PreToolUse':
      case 'PermissionRequest': {
        const call: ToolCall = {
          toolName: typeof payload.tool_name === 'string' ? payload.tool_name : '',
          toolInput: payload.tool_input ?? {},
        };
        // Kept only while a STOP rule reads them: most hubs have none, and this runs at every call.
        if (event.eventName === 'PreToolUse' && this.#deps.rules.policy.readsTurnCalls)
          this.#remember(record.id, call);
        const verdict = this.#deps.rules.policy.decide({
          on: RuleTrigger.ToolCall,
          session: ruleSession(record),
          ...call,
        });
        return verdict && this.#toolCall(record, event, verdict);
      }
      case 'UserPromptSubmit':
      case 'SessionEnd':
        this.#turnCalls.delete(record.id);
        return null;
      default:
        return null;
    }
  }

  #toolCall(record: SessionRecord, event: StoredEvent, verdict: Verdict): Ruling {
    const { rule, decision, explanation } = verdict;
    const by = decidedByRule(rule);
    const pre = event.eventName === 'PreToolUse';
    if (decision === RuleDecision.Ask) {
      const why = `${by} asks a person: ${explanation}`;
      // At PreToolUse, claude is made to ask, whatever its mode: the PermissionRequest follows.
      return pre ? { answer: preToolUse('ask', why) } : { ask: why };
    }
    const allow = decision === RuleDecision.Allow;
    const message = allow ? null : (rule.message ?? `denied by ${by}`);
    const request = this.#deps.permissions.ruled(event, { allow, by, explanation }, message);
    this.#deps.audit({
      actor: by,
      address: '',
      action: 'ruleDecision',
      sessionId: record.id,
      target: request.id,
      outcome: request.status,
      detail: { rule: rule.id, tool: request.toolName, hook: event.eventName, explanation },
    });
    if (pre)
      return { answer: preToolUse(allow ? 'allow' : 'deny', message ?? `${by}: ${explanation}`) };
    return {
      answer: {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: allow ? { behavior: 'allow' } : { behavior: 'deny', message },
        },
      },
    };
  }

  /**
   * At a Stop, before it is stored: a STOP rule that denies sends claude back with its message,
   * unless it was sent back already this turn (`stop_hook_active`). HubStopRefused is stored
   * first, so that whoever reads the stream knows the Stop after it does not end the turn.
   */
  async stop(record: SessionRecord, payload: HookPayload): Promise<Ruling> {
    const sentBack = payload.stop_hook_active === true;
    const turnCalls = this.#turnCalls.get(record.id) ?? [];
    const verdict = sentBack
      ? null
      : this.#deps.rules.policy.decide({
          on: RuleTrigger.Stop,
          session: ruleSession(record),
          turnCalls,
        });
    if (verdict?.decision !== RuleDecision.Deny) {
      this.#turnCalls.delete(record.id);
      return null;
    }
    const { rule, explanation } = verdict;
    const reason = rule.message!;
    this.#deps.audit({
      actor: decidedByRule(rule),
      address: '',
      action: 'ruleDecision',
      sessionId: record.id,
      target: null,
      outcome: 'STOP_REFUSED',
      detail: { rule: rule.id, hook: 'Stop', reason, explanation },
    });
    this.#deps.intake
      .appendHub(record, 'HubStopRefused', { rule: rule.name, reason, explanation })
      .catch((error: unknown) =>
        this.#deps.log.error(
          { sessionId: record.id, err: error },
          'a stop rule could not be stored',
        ),
      );
    return { answer: { decision: 'block', reason } };
  }

  #remember(sessionId: string, call: ToolCall): void {
    const calls = this.#turnCalls.get(sessionId);
    if (!calls) this.#turnCalls.set(sessionId, [call]);
    else if (calls.length < turnCallLimit) calls.push(call);
  }
}

/** A session as rules read it. */
export function ruleSession(record: SessionRecord): RuleSession {
  return {
    cwd: record.cwd,
    labels: record.labels,
    runtime: record.runtime,
    origin: record.origin,
    createdBy: record.createdBy,
  };
}

function preToolUse(decision: 'allow' | 'deny' | 'ask', reason: string): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  };
}
