/** The floor server (bench/floor-server.ts) in its own process, as the sections use a hub. */
import { execa } from 'execa';
import { firstLine } from '../harness/ready-line.js';
import { HookClient } from './hook-client.js';
import type { BenchHub } from './hook-load.js';

export interface Floor extends Omit<BenchHub, 'socket'> {
  stop(): Promise<void>;
}

export async function startFloor(): Promise<Floor> {
  const child = execa('node', ['--import', 'tsx', 'bench/floor-server.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    reject: false,
  });
  const url = /listening on (\S+)\n/.exec(await firstLine(child))![1]!;
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
