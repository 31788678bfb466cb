import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startAnthropicStub,
  type AnthropicStub,
  type StubScript,
} from '../fixtures/anthropic-stub.js';

/** The pinned CLI from devDependencies. */
export const claudeBin = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url));

export interface ClaudeWorld {
  readonly stub: AnthropicStub;
  /** The environment a hub passes to its sessions: stub URL, key, config dir. */
  readonly env: Record<string, string | undefined>;
  /** A new, trusted working directory. */
  makeCwd(name?: string): string;
  /** A directory outside the trusted root (claude shows its trust dialog there). */
  makeUntrustedCwd(): string;
  close(): Promise<void>;
}

/**
 * What the real claude CLI needs to run offline against the local Anthropic stand-in: a config
 * dir with onboarding done, the test key approved, and one trusted root for every cwd.
 */
export async function startClaudeWorld(
  script?: StubScript,
  options: { approveKey?: boolean } = {},
): Promise<ClaudeWorld> {
  const stub = await startAnthropicStub(script);
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'cch-world-')));
  const configDir = path.join(root, 'config');
  const trusted = path.join(root, 'work');
  mkdirSync(configDir);
  mkdirSync(trusted);
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
  return {
    stub,
    env: {
      ...process.env,
      ANTHROPIC_BASE_URL: stub.url,
      ANTHROPIC_API_KEY: apiKey,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CONFIG_DIR: configDir,
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
    async close() {
      await stub.close();
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
