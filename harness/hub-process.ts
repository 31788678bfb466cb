/** The hub in its own process, as `npm start` or the bin runs it, for tests and the bench. */
import { rmSync } from 'node:fs';
import { execa, type ResultPromise } from 'execa';
import { claudeBin } from './claude-config.js';
import { firstLine } from './ready-line.js';
import { killTmuxServer } from './tmux-server.js';

const root = new URL('..', import.meta.url).pathname;

export interface HubProcess {
  readonly url: string;
  readonly process: ResultPromise;
  /** Everything the hub wrote to stderr so far. */
  readonly stderr: () => string;
}

export interface SpawnHubOptions {
  /** Run dist/main.js as `npm start` does (build it first), rather than the TypeScript sources. */
  readonly compiled?: boolean;
  /** Flags for node itself, before the entry point (e.g. `--cpu-prof`). */
  readonly nodeOptions?: readonly string[];
  /**
   * Called with each whole line the hub writes to stderr (its log), as it arrives. What it
   * throws goes up from the stderr stream's 'data' handler: it should record, not throw.
   */
  readonly onLogLine?: (line: string, pid: number | undefined) => void;
}

/** The arguments every spawned hub starts with: where it listens and keeps its state, and the pinned claude. */
export function hubArgs(where: {
  port: number | string;
  dataDir: string;
  socket: string;
}): string[] {
  const { port, dataDir, socket } = where;
  return [
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--tmux-socket',
    socket,
    '--claude-bin',
    claudeBin,
  ];
}

/** Starts the hub in its own process and waits for its ready line. */
export async function spawnHub(
  args: string[],
  env: Record<string, string | undefined>,
  options: SpawnHubOptions = {},
): Promise<HubProcess> {
  // Compiled, as `npm start` runs it. With the V8 flag `npm start` and the bin's shebang pass,
  // before the caller's node options, so that theirs win.
  const entry = options.compiled ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const node = ['--max-semi-space-size=8', ...(options.nodeOptions ?? [])];
  const child = execa('node', [...node, ...entry, ...args], {
    cwd: root,
    env,
    reject: false,
  });
  let err = '';
  let partial = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    if (!options.onLogLine) return;
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) options.onLogLine(line, child.pid);
  });
  const line = await firstLine(child).catch((error: Error) => {
    throw new Error(`hub ${error.message}: ${err}`);
  });
  const url = /listening on (\S+)\n/.exec(line)?.[1];
  if (!url) throw new Error(`unexpected ready line ${JSON.stringify(line)}`);
  return { url, process: child, stderr: () => err };
}

/** Ends a hub process with SIGTERM, then its tmux server, and removes its data dir. */
export async function stopHub(
  hub: HubProcess | null | undefined,
  home: { socket: string; dataDir: string },
): Promise<void> {
  if (hub) {
    hub.process.kill('SIGTERM');
    await hub.process;
  }
  await killTmuxServer(home.socket);
  // A claude of its tmux server may still write under it (its config dir) as it ends.
  for (let tries = 1; ; tries++) {
    try {
      rmSync(home.dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || tries >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
