/**
 * The real claude CLI, offline, against the Anthropic stand-in (test/fixtures/anthropic-stub.ts)
 * run as a process of its own with its default script, so its work stays off the bench's
 * event loop, which offers the load and times the answers.
 */
import { execa } from 'execa';
import { writeClaudeConfig, type ClaudeConfig } from '../harness/claude-config.js';
import { firstLine } from '../harness/ready-line.js';

export interface BenchWorld extends Omit<ClaudeConfig, 'remove'> {
  close(): Promise<void>;
}

export async function startBenchWorld(): Promise<BenchWorld> {
  const stub = execa('node', ['--import', 'tsx', 'test/fixtures/anthropic-stub.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    reject: false,
  });
  const url = (
    await firstLine(stub).catch((error: Error) => {
      throw new Error(`the Anthropic stand-in ${error.message}`);
    })
  ).trim();
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
