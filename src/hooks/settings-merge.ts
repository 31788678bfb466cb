/**
 * Merging the hub's global hooks into a Claude Code settings object, and taking them out again.
 * Claude Code validates settings, so the hub adds no keys of its own to a hook object: its
 * hooks are recognised by a header (HTTP hooks) or a trailing shell comment (command hooks).
 */

import { hubCommandMark, hubHeader, type HookGroups } from '../sessions/hook-marks.js';

type Settings = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const text = JSON.stringify(value) ?? String(value);
  return `${text.length > 60 ? `${text.slice(0, 57)}...` : text} (${type})`;
}

/**
 * The events of `settings.hooks` with their matcher groups; throws on a shape no hook could be
 * found in, so a malformed file is reported rather than silently rewritten.
 */
function eventsOf(settings: Settings): [string, unknown[]][] {
  const hooks = settings.hooks;
  if (hooks === undefined) return [];
  if (!isRecord(hooks))
    throw new Error(`settings "hooks" must be an object of events, got ${describe(hooks)}`);
  return Object.entries(hooks).map(([event, groups]) => {
    if (!Array.isArray(groups))
      throw new Error(
        `settings "hooks.${event}" must be an array of matcher groups, got ${describe(groups)}`,
      );
    return [event, groups];
  });
}

/** The hooks of a matcher group; a group of another shape is left to Claude Code to judge. */
function hooksOf(group: unknown): unknown[] {
  return isRecord(group) && Array.isArray(group.hooks) ? group.hooks : [];
}

/** Recognises a hook the hub installed, by its marker: the header or the command's comment. */
export function isHubHook(hook: unknown): boolean {
  if (!isRecord(hook)) return false;
  if (hook.type === 'http') return isRecord(hook.headers) && Object.hasOwn(hook.headers, hubHeader);
  if (hook.type === 'command')
    return typeof hook.command === 'string' && hook.command.trimEnd().endsWith(hubCommandMark);
  return false;
}

/**
 * The events without the hub's hooks, in their order, and the events this emptied: those are
 * dropped unless the hub adds to them again, so an install keeps each event where it was.
 */
function strip(settings: Settings): { events: Map<string, unknown[]>; emptied: Set<string> } {
  const events = new Map<string, unknown[]>();
  const emptied = new Set<string>();
  for (const [event, groups] of eventsOf(settings)) {
    const kept: unknown[] = [];
    for (const group of groups) {
      const hooks = hooksOf(group);
      const own = hooks.filter((hook) => !isHubHook(hook));
      if (own.length === hooks.length) kept.push(group);
      else if (own.length > 0) kept.push({ ...(group as Settings), hooks: own });
    }
    if (groups.length > 0 && kept.length === 0) emptied.add(event);
    events.set(event, kept);
  }
  return { events, emptied };
}

/** Puts the events back into a copy of settings, dropping `hooks` only if the removal emptied it. */
function withEvents(settings: Settings, events: Map<string, unknown[]>): Settings {
  const hadEvents = eventsOf(settings).length > 0;
  if (events.size === 0 && (settings.hooks === undefined || hadEvents)) {
    const rest = { ...settings };
    delete rest.hooks;
    return rest;
  }
  // fromEntries defines own properties, so an event named __proto__ stays data.
  return { ...settings, hooks: Object.fromEntries(events) };
}

/**
 * Settings with the hub's hooks replaced by `groups`, appended after the user's own groups of
 * each event; removing the old ones first makes install idempotent and lets a new URL replace
 * an old one. Throws if a hook of `groups` lacks the hub's marker, as it could not be removed.
 */
export function mergeHubHooks(settings: Settings, groups: HookGroups): Settings {
  const { events, emptied } = strip(settings);
  for (const [event, hubGroups] of Object.entries(groups)) {
    for (const hook of hubGroups.flatMap((group) => group.hooks)) {
      if (!isHubHook(hook))
        throw new Error(`hook for ${event} lacks the hub's marker: ${describe(hook)}`);
    }
    if (hubGroups.length === 0) continue;
    events.set(event, [...(events.get(event) ?? []), ...structuredClone(hubGroups)]);
    emptied.delete(event);
  }
  for (const event of emptied) events.delete(event);
  return withEvents(settings, events);
}

/**
 * Settings without the hub's hooks. Groups, events and `hooks` itself are dropped only when
 * the removal emptied them, so a file that had no hooks before comes back as it was.
 */
export function removeHubHooks(settings: Settings): Settings {
  const { events, emptied } = strip(settings);
  for (const event of emptied) events.delete(event);
  return withEvents(settings, events);
}

/** What `hooks status` shows: the events holding a hub hook, sorted, and where they post. */
export function hubHooksIn(settings: Settings): { events: string[]; url: string | null } {
  const events: string[] = [];
  let url: string | null = null;
  for (const [event, groups] of eventsOf(settings)) {
    const hubHooks = groups.flatMap(hooksOf).filter(isHubHook) as Settings[];
    if (hubHooks.length > 0) events.push(event);
    const http = hubHooks.find((hook) => hook.type === 'http' && typeof hook.url === 'string');
    url ??= (http?.url as string | undefined) ?? null;
  }
  return { events: events.sort(), url };
}

/** How many hub hooks settings hold, for uninstall to report what it removed. */
export function countHubHooks(settings: Settings): number {
  return eventsOf(settings)
    .flatMap(([, groups]) => groups.flatMap(hooksOf))
    .filter(isHubHook).length;
}
