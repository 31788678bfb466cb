import { dryRunBounds, replayCallHistory } from '../hub/call-history.js';
import {
  dryRunExamples,
  proposedRules,
  type DryRunExample,
  type DryRunResult,
} from '../permissions/policy-dry-run.js';
import { builder } from './builder.js';
import { PermissionRuleInputRef, RuleDecisionRef, ruleInput } from './rules.js';

const PolicyDryRunExampleRef = builder.objectRef<DryRunExample>('PolicyDryRunExample').implement({
  description: 'One replayed tool call: what happened then, and what the proposed rules decide.',
  fields: (t) => ({
    sessionId: t.exposeID('sessionId'),
    seq: t.exposeInt('seq', { description: "The seq of the call's PreToolUse event." }),
    toolName: t.exposeString('toolName'),
    toolInput: t.field({ type: 'JSON', resolve: (example) => example.toolInput }),
    at: t.field({
      type: 'DateTime',
      description: 'When the hub received the PreToolUse.',
      resolve: (example) => example.at,
    }),
    then: t.field({
      type: RuleDecisionRef,
      description:
        'What happened: a rule\'s ALLOW or DENY when a rule decided (`thenDecidedBy: "rule <name>"`); ASK when a person was asked (whoever answered: a token, the terminal, or nobody before the hold ran out); ALLOW when no permission request was made (the call ran unasked).',
      resolve: (example) => example.then,
    }),
    now: t.field({
      type: RuleDecisionRef,
      description:
        'What the proposed rules decide: the first enabled proposed rule that matches; where none does, what claude does without rules (ASK where a permission request was made then, else ALLOW).',
      resolve: (example) => example.now,
    }),
    thenDecidedBy: t.exposeString('thenDecidedBy', {
      nullable: true,
      description:
        'The decidedBy of the permission request tied to the call (`rule <name>`, `token <name>`, `terminal`, `expiry`); null when there was none, or it ended undecided (the session or the hub ended).',
    }),
    rule: t.exposeString('rule', {
      nullable: true,
      description: 'The name of the proposed rule that decides `now`; null when none matches.',
    }),
    explanation: t.exposeString('explanation', {
      nullable: true,
      description: 'Which part of `rule` matched what; null when no proposed rule matches.',
    }),
  }),
});

const PolicyDryRunRef = builder.objectRef<DryRunResult>('PolicyDryRun').implement({
  description:
    'Proposed permission rules replayed on the stored tool calls: how many each decision would take, and how many would go otherwise than they did.',
  fields: (t) => ({
    calls: t.exposeInt('calls', {
      description: 'The tool calls replayed (stored PreToolUse events).',
    }),
    sessions: t.exposeInt('sessions', { description: 'The sessions whose calls were read.' }),
    allowed: t.exposeInt('allowed', { description: 'Calls whose `now` is ALLOW.' }),
    denied: t.exposeInt('denied', { description: 'Calls whose `now` is DENY.' }),
    asked: t.exposeInt('asked', { description: 'Calls whose `now` is ASK.' }),
    changed: t.exposeInt('changed', { description: 'Calls whose `now` is not their `then`.' }),
    truncated: t.exposeBoolean('truncated', {
      description: `A bound stopped the reading before every call of the period was read (at most ${dryRunBounds.maxCalls} calls, of the ${dryRunBounds.maxSessions} most recently active sessions): the counts are of the calls read.`,
    }),
    examples: t.field({
      type: [PolicyDryRunExampleRef],
      description: `At most ${dryRunExamples}: for each \`now\` decision that occurred, its newest call (a changed one if any), and the newest changed calls; changed calls first, then the others, newest first in each.`,
      resolve: (result) => result.examples,
    }),
  }),
});

builder.queryField('policyDryRun', (t) =>
  t.field({
    type: PolicyDryRunRef,
    authScopes: { read: true },
    description:
      "Tries proposed rules on the stored history, changing nothing: each stored PreToolUse (of one session, or of every session the hub lists, every node's in a cluster) is a call, tried on the proposed rules as a live hook would be (the session's cwd, labels, runtime, origin and creating token as they are now). Only TOOL_CALL rules are replayed; STOP rules match no call. Each rule is checked as createPermissionRule checks one: BAD_USER_INPUT names the first bad one by index (`extensions.field`: `rules[2].match.tools[0]`).",
    args: {
      rules: t.arg({
        type: [PermissionRuleInputRef],
        required: true,
        description:
          'The rules to try, alone (the rules in force are not added); at equal priority and decision, in the order given.',
      }),
      since: t.arg({
        type: 'DateTime',
        description: 'Only calls received at or after it; the whole stored history when absent.',
      }),
      sessionId: t.arg.id({
        description: "Only this session's calls; SESSION_NOT_FOUND when there is none.",
      }),
    },
    resolve: (_root, args, ctx) =>
      replayCallHistory(ctx.hub, proposedRules(args.rules.map(ruleInput)), {
        since: args.since?.getTime() ?? null,
        sessionId: args.sessionId == null ? null : String(args.sessionId),
      }),
  }),
);
