/** The floor server (bench/floor-server.ts) in its own process, as the sections use a hub. */
import { startScript } from '../harness/ready-line.js';
import { HookClient } from './hook-client.js';
import type { BenchHub } from './hook-load.js';

export interface Floor extends Omit<BenchHub, 'socket'> {
  stop(): Promise<void>;
}

export async function startFloor(): Promise<Floor> {
  const { child, line } = await startScript('bench/floor-server.ts', 'the floor server');
  const url = /listening on (\S+)\n/.exec(line)![1]!;
  const base = url.replace(/\/graphql$/, '');
  const hooks = new HookClient(base);
  return {
    url,
    base,
    pid: child.pid!,
    hooks,
    async stop() {
      hooks.close();
      child.kill('SIGTERM');
      await child;
    },
  };
}
