import type { ClaudeFacts } from '../claude/claude-cli.js';
import { testedClaudeVersions } from '../claude/claude-version.js';
import type { SupportedHookEvent } from '../claude/hook-event-support.js';
import { builder } from './builder.js';

const StandingRef = builder.enumType('ClaudeVersionStanding', {
  description: 'A claude version against the versions the whole end-to-end suite has passed on.',
  values: {
    TESTED: { value: 'tested', description: 'Within the tested range.' },
    OLDER: { value: 'older', description: 'Older than the oldest tested.' },
    NEWER: { value: 'newer', description: 'Newer than the newest tested.' },
    UNKNOWN: { value: 'unknown', description: 'claude did not run, so its version is unknown.' },
  },
});

const SourceRef = builder.enumType('HookEventSource', {
  description: "Where the hub learned a claude's hook events.",
  values: {
    CLI: {
      value: 'cli',
      description: 'From claude itself: its settings validator listed the events it accepts.',
    },
    BINARY: { value: 'binary', description: "Read from the event list in claude's binary." },
    REGISTRY: {
      value: 'registry',
      description:
        "Neither worked: the hub's own registry stands in, and events a newer claude adds are missed.",
    },
  },
});

const RangeRef = builder.objectRef<typeof testedClaudeVersions>('ClaudeVersionRange').implement({
  description: 'The claude versions the whole end-to-end suite has passed on.',
  fields: (t) => ({
    oldest: t.exposeString('oldest'),
    newest: t.exposeString('newest'),
  }),
});

const HookEventRef = builder.objectRef<SupportedHookEvent>('ClaudeHookEvent').implement({
  description: "A hook event claude supports; every session's settings register it.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'hook_event_name, as claude posts it.' }),
    typed: t.exposeBoolean('typed', {
      description:
        'The hub knows its fields: it arrives as `<name>Event`. False: as UnknownHookEvent, with its payload as posted.',
    }),
    http: t.exposeBoolean('http', {
      description: 'Registered as an HTTP hook; false: a command hook running the forwarder.',
    }),
  }),
});

const ClaudeRef = builder.objectRef<ClaudeFacts>('ClaudeCli').implement({
  description: "The claude CLI the hub's sessions run (`--claude-bin`), as the hub found it.",
  fields: (t) => ({
    bin: t.exposeString('bin', { description: 'The executable, as configured.' }),
    version: t.exposeString('version', {
      nullable: true,
      description: 'From `claude --version`; null when it did not run.',
    }),
    standing: t.field({ type: StandingRef, resolve: (facts) => facts.standing }),
    testedRange: t.field({ type: RangeRef, resolve: () => testedClaudeVersions }),
    hookEvents: t.field({
      type: [HookEventRef],
      description: "Every hook event it supports, in claude's own order.",
      resolve: (facts) => facts.hookEvents,
    }),
    hookEventSource: t.field({ type: SourceRef, resolve: (facts) => facts.hookEventSource }),
    problem: t.exposeString('problem', {
      nullable: true,
      description: 'Why its hook events could not be learned (hookEventSource REGISTRY).',
    }),
  }),
});

builder.queryField('claude', (t) =>
  t.field({
    type: ClaudeRef,
    authScopes: { read: true },
    description:
      'The claude CLI sessions run: its version, against the tested range, and the hook events it supports, learned from claude itself once per binary.',
    resolve: (_root, _args, ctx) => ctx.claude(),
  }),
);
