import type { PolicyFileStatus } from '../permissions/policy-file-watch.js';
import { builder } from './builder.js';

type LoadError = NonNullable<PolicyFileStatus['error']>;

const PolicyFileErrorRef = builder.objectRef<LoadError>('PolicyFileError').implement({
  description: 'Why the policy file did not load; the rules loaded before it stay in force.',
  fields: (t) => ({
    message: t.exposeString('message', {
      description: '`FILE:LINE: what`, as the hub logs it (and refuses to start with).',
    }),
    line: t.exposeInt('line', {
      nullable: true,
      description: 'The line to blame, 1-based: of the bad field where the file has it.',
    }),
    at: t.field({ type: 'DateTime', resolve: (error) => error.at }),
  }),
});

const PolicyFileStatusRef = builder.objectRef<PolicyFileStatus>('PolicyFileStatus').implement({
  description:
    'The --policy-file of the node that answers: its rules are read again whenever it changes, and each node reads its own.',
  fields: (t) => ({
    path: t.exposeString('path'),
    loadedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the rules in force were read from it.',
      resolve: (status) => status.loadedAt,
    }),
    rules: t.exposeInt('rules', { description: 'Its rules in force, enabled or not.' }),
    error: t.field({
      type: PolicyFileErrorRef,
      nullable: true,
      description:
        'Why its latest read did not load (a broken edit, the file gone); null when it loaded.',
      resolve: (status) => status.error,
    }),
  }),
});

builder.queryField('policyFile', (t) =>
  t.field({
    type: PolicyFileStatusRef,
    nullable: true,
    authScopes: { read: true },
    description: 'How the --policy-file last loaded; null when the hub has none.',
    resolve: (_root, _args, ctx) => ctx.policyFile?.status() ?? null,
  }),
);
