import { writeClaudeConfig, type ClaudeConfig } from '../../harness/claude-config.js';
import {
  startAnthropicStub,
  type AnthropicStub,
  type StubScript,
} from '../fixtures/anthropic-stub.js';

export interface ClaudeWorld extends Omit<ClaudeConfig, 'remove'> {
  /** The Anthropic stand-in, in this process, answering by the test's script. */
  readonly stub: AnthropicStub;
  close(): Promise<void>;
}

/**
 * The real claude CLI, offline, against the local Anthropic stand-in run in the test's own
 * process (so a test reads its requests and passes its own script).
 */
export async function startClaudeWorld(
  script?: StubScript,
  options: { approveKey?: boolean } = {},
): Promise<ClaudeWorld> {
  const stub = await startAnthropicStub(script);
  const { env, makeCwd, makeUntrustedCwd, remove } = writeClaudeConfig(stub.url, options);
  return {
    stub,
    env,
    makeCwd,
    makeUntrustedCwd,
    async close() {
      await stub.close();
      await remove();
    },
  };
}
