/** What /proc says about a process' memory and CPU time, and about the machine's idle time. */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * The process' resident memory now (VmRSS), at its peak (VmHWM) or in files mapped (RssFile),
 * in MB.
 */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssFile' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * CPU time the process has used so far, in ms, at the kernel's 10 ms tick: user + system, or
 * with `'system'` the kernel's share alone (system calls: sockets, files).
 */
export function cpuMs(pid: number, only?: 'system'): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const system = Number(fields[12]);
  return (only === 'system' ? system : Number(fields[11]) + system) * 10;
}

/**
 * How long the process' main thread (its event loop) has so far waited for a core while it had
 * work, in ms: the kernel's run-queue delay (/proc/<pid>/task/<pid>/schedstat, in ns). A loop
 * that waits for a core answers late whatever its own code does: that part of a tail is the
 * machine's.
 */
export function runQueueMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ');
  return Number(fields[1]) / 1e6;
}

/** Waits until the machine is mostly idle for half a second, or `maxMs` has passed. */
export async function machineQuiet(maxMs: number): Promise<void> {
  const ticks = () => {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const values = fields.slice(1).map(Number);
    return { idle: values[3]! + values[4]!, total: values.reduce((a, b) => a + b, 0) };
  };
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline) {
    const before = ticks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = ticks();
    if ((after.idle - before.idle) / (after.total - before.total) > 0.8) return;
  }
}
