import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import path from 'node:path';

/** The variables that carry the credential claude calls the API with, in the order it reads them. */
const credentials = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'];

/**
 * Who claude started with `env` bills: the account whose usage limits it meets. Sessions with the
 * same credential variable (and API address) share one; without one, those of one login, which
 * `<config dir>/.claude.json` names by its account id (the config dir on this machine when it
 * names none). An opaque id of 16 hex digits: no credential can be read back from it.
 */
export function claudeAccount(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.ANTHROPIC_BASE_URL ?? '';
  const credential = credentials.map((name) => env[name]).find((value) => value);
  if (credential) return fingerprint(`credential\0${base}\0${credential}`);
  const configDir = env.CLAUDE_CONFIG_DIR || path.join(homedir(), '.claude');
  // claude keeps `.claude.json` in the config dir when one is set, else in the home.
  const login = loginAccount(
    env.CLAUDE_CONFIG_DIR
      ? path.join(env.CLAUDE_CONFIG_DIR, '.claude.json')
      : path.join(homedir(), '.claude.json'),
  );
  return fingerprint(
    login ? `login\0${base}\0${login}` : `dir\0${base}\0${hostname()}\0${configDir}`,
  );
}

function fingerprint(text: string): string {
  return hash('sha256', text, 'hex').slice(0, 16);
}

/** The account id of the login claude keeps in `file`, if any. */
function loginAccount(file: string): string | null {
  try {
    const config = JSON.parse(readFileSync(file, 'utf8')) as {
      oauthAccount?: { accountUuid?: unknown };
    };
    const id = config.oauthAccount?.accountUuid;
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null; // not there, or not JSON
  }
}
