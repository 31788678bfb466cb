/**
 * How the hub marks the hooks it writes into claude settings, so it can tell them apart later.
 * Claude Code validates settings, so the hub adds no keys of its own to a hook object.
 */

/** Header carried, with the value 'global', by every HTTP hook the hub installs. */
export const hubHeader = 'X-Claude-Code-Hub';

/** Shell comment ending the command of every command hook the hub installs. */
export const hubCommandMark = ' # claude-code-hub';

/** The shape of `settings.hooks`: event name -> matcher groups. */
export type HookGroups = Record<string, { matcher: string; hooks: Record<string, unknown>[] }[]>;
