import { writeClaudeConfig, type ClaudeConfig } from '../../harness/claude-config.js';
import {
  startAnthropicStub,
  type AnthropicStub,
  type StubScript,
} from '../fixtures/anthropic-stub.js';
import { leftovers } from './leftovers.js';

export interface ClaudeWorld extends Omit<ClaudeConfig, 'remove'> {
  /** The Anthropic stand-in, in this process, answering by the test's script. */
  readonly stub: AnthropicStub;
  /** Stops the stand-in and removes the config; the leftovers do it. Calling it again waits. */
  close(): Promise<void>;
}

/**
 * The real claude CLI, offline, against the local Anthropic stand-in run in the test's own
 * process (so a test reads its requests and passes its own script). On the leftovers: start a
 * hub that uses it after it, so that the hub stops first.
 */
export async function startClaudeWorld(
  script?: StubScript,
  options: Parameters<typeof writeClaudeConfig>[1] = {},
): Promise<ClaudeWorld> {
  const stub = await startAnthropicStub(script);
  const { env, makeCwd, makeUntrustedCwd, remove } = writeClaudeConfig(stub.url, options);
  let closed: Promise<void> | null = null;
  const world: ClaudeWorld = {
    stub,
    env,
    makeCwd,
    makeUntrustedCwd,
    close() {
      closed ??= (async () => {
        await stub.close();
        await remove();
      })();
      return closed;
    },
  };
  leftovers.add(() => world.close());
  return world;
}
