import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { processEnv, processRuns } from '../runtime/process-state.js';
import { paneAddress, type PaneAddress } from '../runtime/tmux-pane.js';

/** A claude process that runs now, as its session file says (see liveClaudes). */
export interface LiveClaude {
  readonly pid: number;
  readonly sessionId: string;
  readonly cwd: string;
  /** `interactive` for the terminal UI; headless ones say otherwise. */
  readonly kind: string;
  readonly busy: boolean;
  /** Its tmux pane, from the TMUX and TMUX_PANE of its environment; null outside tmux. */
  readonly pane: PaneAddress | null;
}

/**
 * Every claude that runs now: each registers `<config dir>/sessions/<pid>.json` (pid, sessionId,
 * cwd, kind, status) while it runs, as `claude agents --json` lists them. Files of processes
 * gone, and files being written, are skipped. Synchronous: a few small files.
 */
export function liveClaudes(configDir: string): LiveClaude[] {
  const dir = path.join(configDir, 'sessions');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const found: LiveClaude[] = [];
  for (const name of names) {
    let file: Record<string, unknown>;
    try {
      file = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Record<string, unknown>;
    } catch {
      continue;
    }
    const { pid, sessionId, cwd, kind, status } = file;
    if (typeof pid !== 'number' || typeof sessionId !== 'string' || !processRuns(pid)) continue;
    const env = processEnv(pid);
    found.push({
      pid,
      sessionId,
      cwd: typeof cwd === 'string' ? cwd : '',
      kind: typeof kind === 'string' ? kind : '',
      busy: status === 'busy',
      pane: paneAddress(env.TMUX, env.TMUX_PANE),
    });
  }
  return found;
}
