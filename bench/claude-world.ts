/**
 * The real claude CLI, offline, against the Anthropic stand-in (test/fixtures/anthropic-stub.ts)
 * run as a process of its own with its default script, so its work stays off the bench's
 * event loop, which offers the load and times the answers.
 */
import { writeClaudeConfig, type ClaudeConfig } from '../harness/claude-config.js';
import { startScript } from '../harness/ready-line.js';

export interface BenchWorld extends Omit<ClaudeConfig, 'remove'> {
  close(): Promise<void>;
}

export async function startBenchWorld(): Promise<BenchWorld> {
  const started = await startScript('test/fixtures/anthropic-stub.ts', 'the Anthropic stand-in');
  const { child: stub } = started;
  const url = started.line.trim();
  const { env, makeCwd, makeUntrustedCwd, remove } = writeClaudeConfig(url);
  return {
    env,
    makeCwd,
    makeUntrustedCwd,
    async close() {
      stub.kill('SIGTERM');
      await stub;
      await remove();
    },
  };
}
