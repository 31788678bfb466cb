import { beforeAll } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from './claude-world.js';
import { startHub, type TestHub } from './hub.js';
import { disposeWithSuite } from './leftovers.js';

/**
 * The real claude CLI against the local Anthropic stand-in, and a hub that runs it, for the
 * tests of one describe block: started before them, stopped after (the hub first).
 */
export function claudeHubSuite(): { readonly world: ClaudeWorld; readonly hub: TestHub } {
  const suite = {} as { world: ClaudeWorld; hub: TestHub };
  disposeWithSuite();
  beforeAll(async () => {
    suite.world = await startClaudeWorld();
    suite.hub = await startHub({ env: suite.world.env, args: ['--claude-bin', claudeBin] });
  });
  return suite;
}
