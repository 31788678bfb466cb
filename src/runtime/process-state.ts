import { existsSync, readFileSync } from 'node:fs';

const hasProc = existsSync('/proc/self/stat');

/**
 * False once the process has exited. On Linux an exited process can stay a zombie for a while
 * (tmux has not reaped it, or a thread of it is still ending) while its pane is already dead,
 * so its state is read from /proc (the letter after the command's closing parenthesis);
 * elsewhere, whether it exists at all.
 */
export function processRuns(pid: number): boolean {
  if (!hasProc) return processExists(pid);
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a process of that pid exists, a zombie included: one system call, for checks made
 * often (processRuns reads its state too).
 */
export function processExists(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process's environment (same user only); empty when it cannot be read. */
export function processEnv(pid: number): Record<string, string> {
  try {
    const env: Record<string, string> = {};
    for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
      const at = entry.indexOf('=');
      if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
    }
    return env;
  } catch {
    return {};
  }
}
