/**
 * Processes that stand for the claudes of a fleet started by hand: a claude's global hooks name
 * its process (X-Claude-Hub-Pid), the hub watches that process, and a restarted hub finds the
 * session running while it is. One `sleep` each, under one shell, all ended together.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ClaudePids {
  readonly pids: readonly number[];
  stop(): void;
}

export async function claudePids(count: number): Promise<ClaudePids> {
  const script = `i=0; while [ $i -lt ${count} ]; do sleep 86400 & echo $!; i=$((i+1)); done; wait`;
  const shell = spawn('sh', ['-c', script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pids: number[] = [];
  for await (const line of createInterface({ input: shell.stdout })) {
    pids.push(Number(line));
    if (pids.length === count) break;
  }
  if (pids.length < count) throw new Error(`only ${pids.length} of ${count} stand-ins started`);
  return {
    pids,
    stop() {
      try {
        process.kill(-shell.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
    },
  };
}
