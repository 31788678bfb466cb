import { execa } from 'execa';
import {
  spawnHub as spawnHubProcess,
  type HubProcess,
  type SpawnHubOptions,
} from '../../harness/hub-process.js';
import { checkHubLogLine } from './unexpected-output.js';

/**
 * harness/'s spawnHub for a test: a line the hub writes to stderr at error level, or one that
 * is not a log line, fails the test unless it `expectErrorLog`s it.
 */
export function spawnHub(
  args: string[],
  env: Record<string, string | undefined>,
  options: Omit<SpawnHubOptions, 'onLogLine'> = {},
): Promise<HubProcess> {
  return spawnHubProcess(args, env, {
    ...options,
    onLogLine: (line, pid) => checkHubLogLine(`hub process ${pid}`, line),
  });
}

/** The checkout's root, where `src/main.ts` runs from. */
const root = new URL('../..', import.meta.url).pathname;

/**
 * Runs the hub's command line from the sources until it exits, for what it refuses at start:
 * resolves with its exit code and output, whatever the code.
 */
export function runHubCommand(args: readonly string[]) {
  return execa('node', ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, reject: false });
}
