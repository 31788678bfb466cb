import type { HookInstallation } from '../hooks/global-hooks.js';
import { audited } from './audit.js';
import { builder } from './builder.js';

const HookScopeRef = builder.enumType('HookScope', {
  description: 'Which settings file holds the global hooks.',
  values: {
    USER: {
      value: 'user',
      description:
        "The user's: `settings.json` in the Claude config dir (CLAUDE_CONFIG_DIR, else ~/.claude). Every claude the user runs reports.",
    },
    PROJECT: {
      value: 'project',
      description: "One project's `.claude/settings.local.json` (kept out of git by Claude Code).",
    },
  },
});

const HookInstallationRef = builder.objectRef<HookInstallation>('HookInstallation').implement({
  description:
    "The hub's global hooks in one settings file: with them, every claude started by hand reports to the hub and joins it as an EXTERNAL session.",
  fields: (t) => ({
    scope: t.field({ type: HookScopeRef, resolve: (found) => found.scope }),
    path: t.exposeString('path', { description: 'The settings file.' }),
    installed: t.boolean({ resolve: (found) => found.events.length > 0 }),
    events: t.exposeStringList('events', {
      description: 'The hook events whose hooks post to a hub, sorted.',
    }),
    url: t.exposeString('url', { nullable: true, description: 'Where they post.' }),
    current: t.exposeBoolean('current', {
      description: "They post to this hub's hook address.",
    }),
    backupPath: t.exposeString('backupPath', {
      nullable: true,
      description: 'The file as it was before the first install; uninstall puts it back.',
    }),
  }),
});

const scopeArgs = builder.args((t) => ({
  scope: t.field({ type: HookScopeRef, defaultValue: 'user' }),
  dir: t.string({
    description:
      "USER: the Claude config dir (the hub's own when absent). PROJECT: the project's directory (required, inside --allowed-root when set).",
  }),
}));

builder.queryField('hookInstallation', (t) =>
  t.field({
    type: HookInstallationRef,
    authScopes: { admin: true },
    description: "Whether the hub's global hooks are in a settings file, and where they post.",
    args: scopeArgs,
    resolve: (_root, args, ctx) => ctx.globalHooks.status(args.scope ?? 'user', args.dir ?? null),
  }),
);

/** The mutations that change the hooks of a settings file: audited, then what is there. */
const hookEdits = {
  installHooks: {
    act: 'install',
    description:
      "Merges the hub's hooks into a settings file, beside the hooks already there: every event, posting to this hub with its hook token (a token that may post events and nothing else). Idempotent; a reinstall points them at this hub's current address. The file before the first install is kept beside it (`.claude-code-hub.bak`), its mode is kept, and a claude already running picks them up.",
  },
  uninstallHooks: {
    act: 'uninstall',
    description:
      'Removes exactly the hooks installHooks added: when nothing else in the file changed since, it is byte for byte what it was (a file the install created is deleted).',
  },
} as const;

for (const [name, { act, description }] of Object.entries(hookEdits)) {
  builder.mutationField(name, (t) =>
    t.field({
      type: HookInstallationRef,
      authScopes: { admin: true },
      description,
      args: scopeArgs,
      resolve: (_root, args, ctx) =>
        audited(ctx, name, { detail: { scope: args.scope, dir: args.dir ?? null } }, () =>
          ctx.globalHooks[act](args.scope ?? 'user', args.dir ?? null),
        ),
    }),
  );
}
