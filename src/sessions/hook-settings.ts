import { readFileSync } from 'node:fs';
import { hookEvents } from '../events/registry.js';

/** Environment variable of the tmux session that carries the per-session hook secret. */
export const hookSecretEnv = 'CLAUDE_HUB_HOOK_SECRET';

export interface HookSettingsOptions {
  /** The hub's POST /hooks URL, on loopback. */
  readonly hookUrl: string;
  /** Absolute path of hooks/forward.sh, for events that run command hooks only. */
  readonly forwarderPath: string;
  /** Seconds Claude Code waits for the hub before carrying on without it. */
  readonly httpTimeoutSeconds: number;
  /** The same for PermissionRequest, which the hub holds open for a decision. */
  readonly permissionTimeoutSeconds: number;
}

/** Wraps a value in single quotes for the shell that runs command hooks. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The settings file given to claude with --settings: every event of the registry is delivered
 * to the hub, over HTTP where Claude Code allows it and through the forwarder otherwise.
 */
export function hookSettings(options: HookSettingsOptions): { hooks: Record<string, unknown> } {
  const http = {
    type: 'http',
    url: options.hookUrl,
    timeout: options.httpTimeoutSeconds,
    headers: { Authorization: `Bearer $${hookSecretEnv}` },
    allowedEnvVars: [hookSecretEnv],
  };
  const command = {
    type: 'command',
    command: `${shellQuote(options.forwarderPath)} ${shellQuote(options.hookUrl)}`,
    timeout: 5,
  };
  const hooks: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(hookEvents)) {
    const hook = !spec.http
      ? command
      : name === 'PermissionRequest'
        ? { ...http, timeout: options.permissionTimeoutSeconds }
        : http;
    hooks[name] = [{ matcher: '', hooks: [hook] }];
  }
  return { hooks };
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
