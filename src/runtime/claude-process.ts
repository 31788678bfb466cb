import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { processEnv, processRuns } from './process-state.js';
import type { RuntimeSession } from './session-runtime.js';
import { tmuxServer, type PaneAddress } from './tmux-pane.js';

/**
 * The Claude session id a running claude's own session file names (`<its config dir>/sessions/
 * <pid>.json`, the dir from its own environment); null when it has none, or is no claude.
 */
export function claudeSessionOf(pid: number): string | null {
  const env = processEnv(pid);
  const configDir = env.CLAUDE_CONFIG_DIR || path.join(env.HOME || homedir(), '.claude');
  try {
    const file = JSON.parse(
      readFileSync(path.join(configDir, 'sessions', `${pid}.json`), 'utf8'),
    ) as Record<string, unknown>;
    return file.pid === pid && typeof file.sessionId === 'string' ? file.sessionId : null;
  } catch {
    return null;
  }
}

/** The process and its parents up to init, from /proc; stops where one cannot be read. */
export function ancestry(pid: number): number[] {
  const chain: number[] = [];
  for (let at = pid; at > 1 && chain.length < 64;) {
    chain.push(at);
    try {
      const stat = readFileSync(`/proc/${at}/stat`, 'utf8');
      at = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return chain;
}

/** The process a pane runs, as its own tmux server says; null when there is no such pane. */
async function panePid(pane: PaneAddress): Promise<number | null> {
  const run = tmuxServer(['-S', pane.socket], {});
  const shown = await run(['display-message', '-p', '-t', pane.pane, '#{pane_pid}'], {
    reject: false,
  }).catch(() => null);
  const pid = Number(shown?.stdout.trim());
  return shown?.exitCode === 0 && Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Why the hub may not act on an EXTERNAL session's process and pane, or null when it may. Both
 * come from the headers of a hook post, which whoever holds the hook token writes as they like,
 * so each is checked against the machine: the process is a claude whose own session file names
 * this session, and the pane's process is that claude or one of its parents.
 */
export async function externalControlProblem(record: RuntimeSession): Promise<string | null> {
  const { pid, pane } = record;
  if (pid === null) return 'its process is not known';
  if (!processRuns(pid)) return `its process ${pid} is gone`;
  const named = claudeSessionOf(pid);
  if (named !== record.claudeSessionId && named !== record.id) {
    return `process ${pid} is no claude of this session (its session file names ${named ?? 'none'})`;
  }
  if (pane === null) return null;
  const holder = await panePid(pane);
  if (holder === null) return `pane ${pane.pane} of ${pane.socket} is gone`;
  if (!ancestry(pid).includes(holder)) {
    return `pane ${pane.pane} of ${pane.socket} does not run process ${pid}`;
  }
  return null;
}
