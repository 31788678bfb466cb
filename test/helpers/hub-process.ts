import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import {
  spawnHub as spawnHubProcess,
  stopHub,
  type HubProcess,
  type SpawnHubOptions,
} from '../../harness/hub-process.js';
import { leftovers } from './leftovers.js';
import { checkHubLogLine } from './unexpected-output.js';

/**
 * harness/'s spawnHub for a test: a line the hub writes to stderr at error level, or one that
 * is not a log line, fails the test unless it `expectErrorLog`s it. The process is on the
 * leftovers, ended (SIGTERM) after the test or describe block that spawned it, unless it
 * exited before; a hub that must outlive the test that spawns it is spawned by a `hubHome`.
 */
export async function spawnHub(
  args: string[],
  env: Record<string, string | undefined>,
  options: Omit<SpawnHubOptions, 'onLogLine'> = {},
): Promise<HubProcess> {
  const hub = await spawnChecked(args, env, options);
  leftovers.add(() => endProcess(hub));
  return hub;
}

/** Where a spawned hub keeps its state: a data dir and a tmux socket, kept across restarts. */
export interface HubHome {
  readonly dataDir: string;
  readonly socket: string;
  /**
   * Spawns a hub in this home (its `args` name it: `hubArgs({ port, ...home })`). It is ended
   * with the home, so it outlives the test that spawns it when the home was made in a beforeAll.
   */
  spawn(
    args: string[],
    env: Record<string, string | undefined>,
    options?: Omit<SpawnHubOptions, 'onLogLine'>,
  ): Promise<HubProcess>;
}

let homes = 0;

/**
 * A new home for spawned hubs, on the leftovers: its hubs are ended, then its tmux server (and
 * so the claude sessions it holds), then its data dir is removed.
 */
export function hubHome(name: string): HubHome {
  const home = {
    dataDir: mkdtempSync(path.join(tmpdir(), `cch-${name}-`)),
    socket: `cch-${name}-${process.pid}-${++homes}`,
  };
  const hubs: HubProcess[] = [];
  leftovers.add(async () => {
    for (const hub of hubs.splice(0)) await endProcess(hub);
    await stopHub(null, home);
  });
  return {
    ...home,
    async spawn(args, env, options = {}) {
      const hub = await spawnChecked(args, env, options);
      hubs.push(hub);
      return hub;
    },
  };
}

function spawnChecked(
  args: string[],
  env: Record<string, string | undefined>,
  options: Omit<SpawnHubOptions, 'onLogLine'>,
): Promise<HubProcess> {
  return spawnHubProcess(args, env, {
    ...options,
    onLogLine: (line, pid) => checkHubLogLine(`hub process ${pid}`, line),
  });
}

/** SIGTERM, as a service manager ends the hub; nothing when it has exited already. */
async function endProcess(hub: HubProcess): Promise<void> {
  hub.process.kill('SIGTERM');
  await hub.process;
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
