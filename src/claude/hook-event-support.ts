import { hookEventNames, hookEvents, isKnownHookEvent } from '../events/registry.js';

/** One hook event a claude supports, as the hub registers and delivers it. */
export interface SupportedHookEvent {
  readonly name: string;
  /** The registry knows it: it arrives as its own `<Name>Event` type, else as UnknownHookEvent. */
  readonly typed: boolean;
  /** Registered as an HTTP hook; false: a command hook running the forwarder. */
  readonly http: boolean;
}

/** Where the hub learned a claude's hook events, most trusted first. */
export type HookEventSource = 'cli' | 'binary' | 'registry';

/**
 * The name the probe puts in a settings file so that claude lists the valid ones: lowercase and
 * dashed, so never the name of a real event, which are PascalCase.
 */
export const probeEventName = 'claude-code-hub-probe';

/** Events every claude with hooks has had since the first; a list without them is not one. */
const anchorEvents = ['PreToolUse', 'PostToolUse', 'SessionStart', 'Stop'] as const;

/** Bounds on a list read from claude's output or binary, past which it is not taken. */
const maxEvents = 500;
const namePattern = /^[A-Z][A-Za-z0-9]{1,63}$/;

/**
 * Events that run command hooks only, whatever the CLI: claude skips HTTP hooks on them (in
 * 2.1.328 and 2.1.332 a literal `["SessionStart","Setup"]` in its hook runner). The registry's
 * `http: false` entries are exactly these.
 */
const commandOnlyEvents: ReadonlySet<string> = new Set(
  Object.entries(hookEvents)
    .filter(([, spec]) => !spec.http)
    .map(([name]) => name),
);

/** Whether `names` looks like claude's list of hook events: well-formed, distinct, anchored. */
export function isHookEventList(names: readonly string[]): boolean {
  return (
    names.length > 0 &&
    names.length <= maxEvents &&
    new Set(names).size === names.length &&
    names.every((name) => namePattern.test(name)) &&
    anchorEvents.every((name) => names.includes(name))
  );
}

/**
 * The names after "Valid events: " in what claude printed about the probe's unknown event
 * (`Unknown hook event "<probe>" was ignored. Valid events: PreToolUse, PostToolUse, ...`), or
 * null. A list claude cut short (its terminal warning ends in "CwdChanged," at about 600
 * characters) is not taken: only one that ends its line, or a JSON string, counts.
 */
export function parseValidEvents(text: string): string[] | null {
  let best: string[] | null = null;
  for (const match of text.matchAll(/Valid events: ([A-Za-z0-9]+(?:, [A-Za-z0-9]+)*)(.?)/g)) {
    const after = match[2] ?? '';
    if (!['', '\n', '\r', '"', '.'].includes(after)) continue;
    const names = match[1]!.split(', ');
    if (isHookEventList(names) && names.length > (best?.length ?? 0)) best = names;
  }
  return best;
}

/**
 * The hook events in claude's binary (or JS bundle): of the literal arrays that start
 * `["PreToolUse","PostToolUse",` (the texts handed in), the longest that is a whole list. The
 * bundle holds several such arrays; the others are subsets (events that take matchers, that
 * run in the background, ...), so the longest is the list the settings validator uses.
 */
export function pickEventArray(texts: readonly string[]): string[] | null {
  let best: string[] | null = null;
  for (const text of texts) {
    let names: unknown;
    try {
      names = JSON.parse(text);
    } catch {
      continue;
    }
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) continue;
    if (isHookEventList(names) && names.length > (best?.length ?? 0)) best = names;
  }
  return best;
}

/**
 * What the hub registers for a claude that supports `names`: each in the CLI's order, typed
 * when the registry knows it. An event the registry does not know gets an HTTP hook: claude
 * runs HTTP hooks on every event but SessionStart and Setup (checked on PreSkillShellCommand
 * with 2.1.332 before the registry knew it), and they cost no process per event.
 */
export function supportedHookEvents(names: readonly string[]): SupportedHookEvent[] {
  return names.map((name) => ({
    name,
    typed: isKnownHookEvent(name),
    http: !commandOnlyEvents.has(name),
  }));
}

/** The registry's own events: what a claude whose list could not be learned is given. */
export const registryHookEvents: readonly SupportedHookEvent[] =
  supportedHookEvents(hookEventNames);
