/**
 * The environment a session's claude gets: the hub's, less everything of the hub's own. Every
 * tool a session runs can read it, so it holds no secret and no option of the hub: not a
 * `CLAUDE_HUB_*` variable (every option's variable has that prefix, so a new option is left
 * out without a change here), not a variable whose value holds one of the hub's secrets under
 * another name, and not the variables that describe the hub's own terminal.
 */

/** Variables of the hub's own process that say nothing true of a session. */
const hubTerminal = new Set(['TMUX', 'TMUX_PANE', 'CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT']);

/** The prefix of every variable of the hub's options, and of the hub's own session variables. */
export const hubVariablePrefix = 'CLAUDE_HUB_';

/** Secrets shorter than this are not looked for in values (they would match by chance). */
const shortestSecret = 8;

/**
 * The hub's secrets, to be kept out of values under any name: the admin token, the tokens file's
 * path, the Redis URL and its password.
 */
export function hubSecrets(options: {
  readonly token: string;
  readonly tokensFile: string;
  readonly redisUrl: string;
}): string[] {
  const secrets = [options.token, options.tokensFile, options.redisUrl];
  if (options.redisUrl) {
    try {
      const url = new URL(options.redisUrl);
      secrets.push(decodeURIComponent(url.password), url.password);
    } catch {
      // config validated the URL; nothing more to find in one that does not parse
    }
  }
  return secrets.filter((secret) => secret.length >= shortestSecret);
}

/** True when the variable is the hub's and must not reach a session. */
export function isHubVariable(name: string, value: string, secrets: readonly string[]): boolean {
  return (
    name.startsWith(hubVariablePrefix) ||
    hubTerminal.has(name) ||
    secrets.some((secret) => value.includes(secret))
  );
}

/** The hub's environment less its own variables (see isHubVariable), and less unset ones. */
export function sessionEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[],
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    if (!isHubVariable(name, value, secrets)) result[name] = value;
  }
  return result;
}
