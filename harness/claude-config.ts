import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The claude the tests run: the CLI pinned in devDependencies, or the one
 * CLAUDE_HUB_TEST_CLAUDE_BIN names (scripts/test-on-cli.sh runs the suite on another version so).
 */
export const claudeBin =
  process.env.CLAUDE_HUB_TEST_CLAUDE_BIN ||
  fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));

export interface ClaudeConfig {
  /** The environment a hub passes to its sessions: stand-in URL, key, config dir, home. */
  readonly env: Record<string, string | undefined>;
  /** A new, trusted working directory. */
  makeCwd(name?: string): string;
  /** A directory outside the trusted root (claude shows its trust dialog there). */
  makeUntrustedCwd(): string;
  /** Removes the config dir and every directory made. */
  remove(): Promise<void>;
}

/**
 * What the real claude CLI needs to run offline against a local Anthropic stand-in at
 * `anthropicUrl`: a config dir with onboarding done, the test key approved (unless
 * `approveKey: false`), one trusted root for every cwd, and a home of its own. claude's Bash
 * tool runs a login shell, which reads the home's profile: with the machine's home, whatever
 * that profile runs (a version manager's rehash waiting 60 s on a lock left by a killed shell)
 * would hold every command a test's claude runs.
 */
export function writeClaudeConfig(
  anthropicUrl: string,
  options: {
    approveKey?: boolean;
    /** How claude logs in: an API key (the default), or a subscription's OAuth token. */
    login?: 'api-key' | 'oauth-token';
  } = {},
): ClaudeConfig {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'cch-world-')));
  const configDir = path.join(root, 'config');
  const trusted = path.join(root, 'work');
  const home = path.join(root, 'home');
  mkdirSync(configDir);
  mkdirSync(trusted);
  mkdirSync(home);
  const apiKey = `sk-ant-test-${'x'.repeat(12)}${Date.now()}`;
  writeFileSync(
    path.join(configDir, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      customApiKeyResponses: {
        approved: options.approveKey === false ? [] : [apiKey.slice(-20)],
        rejected: [],
      },
      projects: { [trusted]: { hasTrustDialogAccepted: true } },
    }),
  );
  let count = 0;
  const credential =
    options.login === 'oauth-token'
      ? { ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_OAUTH_TOKEN: `test-token-${Date.now()}` }
      : { ANTHROPIC_API_KEY: apiKey };
  return {
    env: {
      ...process.env,
      ANTHROPIC_BASE_URL: anthropicUrl,
      ...credential,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CONFIG_DIR: configDir,
      HOME: home,
    },
    makeCwd(name = 'cwd') {
      const dir = path.join(trusted, `${name}-${++count}`);
      mkdirSync(dir);
      return dir;
    },
    makeUntrustedCwd() {
      const dir = path.join(root, `untrusted-${++count}`);
      mkdirSync(dir);
      return dir;
    },
    async remove() {
      // claude processes that were just killed may still write to the config dir for a moment.
      for (let attempt = 0; attempt < 10; attempt++) {
        try {
          rmSync(root, { recursive: true, force: true });
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      }
    },
  };
}
