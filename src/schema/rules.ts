import {
  RuleDecision,
  RuleSource,
  RuleTrigger,
  type InputMatch,
  type PermissionRule,
  type RuleInput,
  type RuleMatch,
} from '../permissions/rule.js';
import { audited } from './audit.js';
import { builder } from './builder.js';
import { SessionOriginRef, SessionRuntimeRef } from './sessions.js';

export const RuleDecisionRef = builder.enumType('RuleDecision', {
  description: 'What a permission rule does to what it matches.',
  values: {
    ALLOW: {
      value: RuleDecision.Allow,
      description: 'The call runs; nobody is asked. On STOP: claude may stop.',
    },
    DENY: {
      value: RuleDecision.Deny,
      description:
        "The call is refused and the model is told the rule's message. On STOP: claude is sent back to work with the message, once per turn.",
    },
    ASK: {
      value: RuleDecision.Ask,
      description:
        'The call is held for a person, as without rules (claude is made to ask even where its permission mode would not).',
    },
  },
});

export const RuleTriggerRef = builder.enumType('RuleTrigger', {
  description: 'Where a permission rule applies.',
  values: {
    TOOL_CALL: {
      value: RuleTrigger.ToolCall,
      description: 'A tool call, at its PreToolUse and its PermissionRequest.',
    },
    STOP: {
      value: RuleTrigger.Stop,
      description:
        'claude stopping at the end of a turn; `tools` and `input` then match a call the turn made.',
    },
  },
});

const RuleSourceRef = builder.enumType('RuleSource', {
  values: {
    API: { value: RuleSource.Api, description: 'Made through the API; kept in the store.' },
    FILE: {
      value: RuleSource.File,
      description: 'From the --policy-file: read-only here, change the file.',
    },
  },
});

const InputMatchRef = builder.objectRef<InputMatch>('InputMatch').implement({
  description: 'A pattern on one field of the tool input.',
  fields: (t) => ({
    path: t.exposeString('path', {
      description:
        'A dotted path into the tool input: `command`, `file_path`, `edits.0.new_string`.',
    }),
    pattern: t.exposeString('pattern', {
      description:
        "A glob on the whole value (`*` matches any characters, `/` included; `?`, `[...]`, `{a,b}`), or a regex written `/.../flags`. A field named `path` or `*_path` is resolved against the session's cwd first. A Bash `command` is split at `;` `&` `|` and line breaks: ALLOW needs each command to match and none to substitute one (`$(...)`, backquotes); DENY and ASK match when any does.",
    }),
  }),
});

const RuleMatchRef = builder.objectRef<RuleMatch>('RuleMatch').implement({
  description:
    'What a rule matches: every part given must hold; a list holds when one of its items does. No part: everything.',
  fields: (t) => ({
    tools: t.stringList({
      nullable: true,
      description: 'Globs on the tool name (`Bash`, `mcp__github__*`).',
      resolve: (match) => match.tools ?? null,
    }),
    input: t.field({
      type: [InputMatchRef],
      nullable: true,
      resolve: (match) => match.input ?? null,
    }),
    cwdUnder: t.stringList({
      nullable: true,
      description: "Folders the session's cwd must be in (or be).",
      resolve: (match) => match.cwdUnder ?? null,
    }),
    labels: t.stringList({
      nullable: true,
      description: 'Session labels, one of which the session must carry.',
      resolve: (match) => match.labels ?? null,
    }),
    runtime: t.field({
      type: SessionRuntimeRef,
      nullable: true,
      resolve: (match) => match.runtime ?? null,
    }),
    origin: t.field({
      type: SessionOriginRef,
      nullable: true,
      resolve: (match) => match.origin ?? null,
    }),
    token: t.string({
      nullable: true,
      description: 'The name of the token that created the session.',
      resolve: (match) => match.token ?? null,
    }),
  }),
});

export const PermissionRuleRef = builder.objectRef<PermissionRule>('PermissionRule').implement({
  description:
    'Decides a tool call (or a stop) before a person is asked. The first enabled rule that matches decides: higher priority first; at equal priority DENY, then ASK, then ALLOW; then the older first.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', {
      description: 'Unique; decisions name it (`decidedBy: "rule <name>"`).',
    }),
    enabled: t.exposeBoolean('enabled'),
    priority: t.exposeInt('priority'),
    on: t.field({ type: RuleTriggerRef, resolve: (rule) => rule.on }),
    match: t.field({ type: RuleMatchRef, resolve: (rule) => rule.match }),
    decision: t.field({ type: RuleDecisionRef, resolve: (rule) => rule.decision }),
    message: t.exposeString('message', {
      nullable: true,
      description: 'DENY: what the model is told. STOP: what claude is sent back to do.',
    }),
    source: t.field({ type: RuleSourceRef, resolve: (rule) => rule.source }),
    createdAt: t.field({ type: 'DateTime', resolve: (rule) => rule.createdAt }),
    createdBy: t.exposeString('createdBy', {
      nullable: true,
      description: "The token's name; for a FILE rule, the file's path.",
    }),
    updatedAt: t.field({ type: 'DateTime', resolve: (rule) => rule.updatedAt }),
  }),
});

const InputMatchInputRef = builder.inputType('InputMatchInput', {
  fields: (t) => ({
    path: t.string({ required: true }),
    pattern: t.string({ required: true }),
  }),
});

const RuleMatchInputRef = builder.inputType('RuleMatchInput', {
  fields: (t) => ({
    tools: t.stringList(),
    input: t.field({ type: [InputMatchInputRef] }),
    cwdUnder: t.stringList(),
    labels: t.stringList(),
    runtime: t.field({ type: SessionRuntimeRef }),
    origin: t.field({ type: SessionOriginRef }),
    token: t.string(),
  }),
});

export const PermissionRuleInputRef = builder.inputType('PermissionRuleInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    enabled: t.boolean({ defaultValue: true }),
    priority: t.int({ defaultValue: 0 }),
    on: t.field({ type: RuleTriggerRef, defaultValue: RuleTrigger.ToolCall }),
    match: t.field({ type: RuleMatchInputRef }),
    decision: t.field({ type: RuleDecisionRef, required: true }),
    message: t.string(),
  }),
});

/** What the schema's input gives, as the rule book reads it. */
export type RuleInputArg = typeof PermissionRuleInputRef.$inferInput;
export const ruleInput = (input: RuleInputArg): RuleInput => input as RuleInput;

builder.queryField('permissionRules', (t) =>
  t.field({
    type: [PermissionRuleRef],
    authScopes: { read: true },
    description: 'Every permission rule, in the order they are tried (disabled ones last).',
    resolve: (_root, _args, ctx) => ctx.rules.list(),
  }),
);

builder.subscriptionField('permissionRules', (t) =>
  t.field({
    type: [PermissionRuleRef],
    authScopes: { read: true },
    description:
      'The rules now, in the order they are tried, then again after each change: made through the API on any node of the cluster, or by the policy file of the node that answers. Changes that come while the subscriber is behind make one list.',
    subscribe: (_root, _args, ctx) => ctx.rules.watch(),
    resolve: (rules) => rules,
  }),
);

builder.mutationFields((t) => ({
  createPermissionRule: t.field({
    type: PermissionRuleRef,
    authScopes: { admin: true },
    description:
      'Adds a rule; it applies at once, on every node. BAD_USER_INPUT names the part that is wrong.',
    args: { input: t.arg({ type: PermissionRuleInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      audited(
        ctx,
        'createPermissionRule',
        { detail: { name: input.name, decision: input.decision } },
        () => ctx.rules.create(ruleInput(input), ctx.principal.name),
        (rule) => ({ target: rule.id }),
      ),
  }),
  updatePermissionRule: t.field({
    type: PermissionRuleRef,
    authScopes: { admin: true },
    description:
      "Replaces a rule's fields (its id and creation stay). RULE_READ_ONLY for a rule of the policy file.",
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: PermissionRuleInputRef, required: true }),
    },
    resolve: (_root, { id, input }, ctx) =>
      audited(
        ctx,
        'updatePermissionRule',
        {
          target: String(id),
          detail: { name: input.name, decision: input.decision, enabled: input.enabled },
        },
        () => ctx.rules.update(String(id), ruleInput(input)),
      ),
  }),
  deletePermissionRule: t.boolean({
    authScopes: { admin: true },
    description: 'Removes a rule. RULE_NOT_FOUND for an unknown id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) =>
      audited(ctx, 'deletePermissionRule', { target: String(id) }, () =>
        ctx.rules.delete(String(id)),
      ),
  }),
}));
