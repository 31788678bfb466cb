import { readFileSync } from 'node:fs';
import { registryHookEvents, type SupportedHookEvent } from '../claude/hook-event-support.js';
import { hubCommandMark, hubHeader, type HookGroups } from './hook-marks.js';
import { hookOriginHeaders } from './hook-origin.js';
import { mcpPath } from '../mcp/mcp-endpoint.js';
import { hubToolNames, mcpServerName } from '../mcp/hub-tools.js';

/** Environment variable of the tmux session that carries the per-session hook secret. */
export const hookSecretEnv = 'CLAUDE_HUB_HOOK_SECRET';
/**
 * Environment variable of a session the hub starts that names it (not a secret): the global
 * hooks send it, so the hub drops its own sessions' calls through them.
 */
export const hubSessionEnv = 'CLAUDE_HUB_SESSION_ID';

export interface HookSettingsOptions {
  /** The hub's POST /hooks URL, on loopback. */
  readonly hookUrl: string;
  /** Absolute path of hooks/forward.sh, for events that run command hooks only. */
  readonly forwarderPath: string;
  /** Seconds Claude Code waits for the hub before carrying on without it. */
  readonly httpTimeoutSeconds: number;
  /** The same for PermissionRequest, which the hub holds open for a decision. */
  readonly permissionTimeoutSeconds: number;
  /** The events to register: those the session's claude supports; the registry's by default. */
  readonly events?: readonly SupportedHookEvent[];
}

/** Wraps a value in single quotes for the shell that runs command hooks. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** What authenticates a set of hooks, and what they say of where they come from. */
interface HookIdentity {
  readonly headers: Readonly<Record<string, string>>;
  readonly allowedEnvVars: readonly string[];
  /** Arguments of the forwarder after the URL. */
  readonly forwarderArgs: readonly string[];
  /** Appended to the forwarder's command line (a shell comment that marks it). */
  readonly commandMark: string;
}

/**
 * Every event claude supports, delivered to the hub: over HTTP where Claude Code allows it and
 * through the forwarder otherwise.
 */
function hookGroups(options: HookSettingsOptions, identity: HookIdentity): HookGroups {
  const http = {
    type: 'http',
    url: options.hookUrl,
    timeout: options.httpTimeoutSeconds,
    headers: identity.headers,
    allowedEnvVars: identity.allowedEnvVars,
  };
  const command = {
    type: 'command',
    command:
      [options.forwarderPath, options.hookUrl, ...identity.forwarderArgs]
        .map(shellQuote)
        .join(' ') + identity.commandMark,
    timeout: 5,
  };
  const groups: HookGroups = {};
  for (const { name, http: takesHttp } of options.events ?? registryHookEvents) {
    const hook = !takesHttp
      ? command
      : name === 'PermissionRequest'
        ? { ...http, timeout: options.permissionTimeoutSeconds }
        : http;
    groups[name] = [{ matcher: '', hooks: [hook] }];
  }
  return groups;
}

/**
 * The settings file given to a session the hub starts, with --settings: hooks that carry its own
 * secret, and the hub's MCP tools allowed without a prompt.
 */
export function hookSettings(options: HookSettingsOptions): {
  hooks: HookGroups;
  permissions: { allow: string[] };
} {
  return {
    hooks: hookGroups(options, {
      headers: { Authorization: `Bearer $${hookSecretEnv}` },
      allowedEnvVars: [hookSecretEnv],
      forwarderArgs: [],
      commandMark: '',
    }),
    permissions: { allow: hubToolNames.map((tool) => `mcp__${mcpServerName}__${tool}`) },
  };
}

/**
 * The --mcp-config file given to a session the hub starts: the hub's MCP server, beside the
 * hook endpoint, authenticated with the session's secret, which claude expands from its
 * environment (`${VAR}` in MCP headers), so the file holds no secret.
 */
export function mcpConfig(hookUrl: string): object {
  return {
    mcpServers: {
      [mcpServerName]: {
        type: 'http',
        url: new URL(mcpPath, hookUrl).href,
        headers: { Authorization: `Bearer \${${hookSecretEnv}}` },
      },
    },
  };
}

/** The session's --mcp-config file, beside its settings file. */
export function mcpConfigPath(settingsPath: string): string {
  return settingsPath.replace(/(\.settings)?\.json$/, '.mcp.json');
}

/**
 * Where the global hooks post: the hook URL under another name, since Claude Code runs only one
 * of several HTTP hooks with the same URL, and a session the hub starts must run its own.
 */
export function globalHookUrl(hookUrl: string): string {
  return `${hookUrl}?from=global`;
}

/**
 * The hooks `hooks install` merges into a person's settings, so every claude reports to the
 * hub. They carry the hub's hook token in the file itself (an HTTP hook can only read variables
 * of claude's environment, which a claude started by hand does not have); the forwarder reads it
 * from `tokenPath`, never from its command line. They send the pane, its tmux server and, in a
 * session the hub started, that session's id, and are marked (hubHeader, hubCommandMark) so
 * uninstall finds them.
 */
export function globalHookGroups(
  options: HookSettingsOptions & { readonly token: string; readonly tokenPath: string },
): HookGroups {
  return hookGroups(
    { ...options, hookUrl: globalHookUrl(options.hookUrl) },
    {
      headers: {
        Authorization: `Bearer ${options.token}`,
        [hubHeader]: 'global',
        [hookOriginHeaders.tmux]: '$TMUX',
        [hookOriginHeaders.tmuxPane]: '$TMUX_PANE',
        [hookOriginHeaders.hubSession]: `$${hubSessionEnv}`,
      },
      allowedEnvVars: ['TMUX', 'TMUX_PANE', hubSessionEnv],
      forwarderArgs: [options.tokenPath],
      commandMark: hubCommandMark,
    },
  );
}

/** hooks/settings.json: the same hooks for a hub on the default port, to copy into settings. */
export function exampleHookSettings(): string {
  const settings = hookSettings({
    hookUrl: 'http://127.0.0.1:4000/hooks',
    forwarderPath: '/path/to/claude-code-hub/hooks/forward.sh',
    httpTimeoutSeconds: 10,
    permissionTimeoutSeconds: 330,
  });
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/**
 * The hook URL a settings file written by hookSettings posts to, for a session launched before
 * the hub recorded it; null when the file is gone or holds no HTTP hook.
 */
export function hookSettingsUrl(settingsPath: string): string | null {
  try {
    const { hooks } = JSON.parse(readFileSync(settingsPath, 'utf8')) as {
      hooks?: Record<string, { hooks?: { type?: string; url?: unknown }[] }[]>;
    };
    for (const matchers of Object.values(hooks ?? {})) {
      for (const hook of matchers.flatMap((matcher) => matcher.hooks ?? [])) {
        if (hook.type === 'http' && typeof hook.url === 'string') return hook.url;
      }
    }
  } catch {
    // unreadable: the caller says the address is unknown
  }
  return null;
}
