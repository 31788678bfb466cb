import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { execa, type ResultPromise } from 'execa';
import { claudeBin } from './claude-world.js';
import { killTmuxServer } from './tmux-probe.js';
import { checkHubLogLine } from './unexpected-output.js';

const root = new URL('../..', import.meta.url).pathname;

export interface HubProcess {
  readonly url: string;
  readonly process: ResultPromise;
  /**
   * Everything the hub wrote to stderr so far; a line at error level, or one that is not a log
   * line, fails the test unless it `expectErrorLog`s it.
   */
  readonly stderr: () => string;
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

/** A port that was free a moment ago, for a hub that must come back on the same one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/**
 * Starts the hub in its own process and waits for its ready line: from the TypeScript sources,
 * or with `compiled` from dist/ as `npm start` runs it (build it first).
 */
export async function spawnHub(
  args: string[],
  env: Record<string, string | undefined>,
  options: { compiled?: boolean; nodeOptions?: string[] } = {},
): Promise<HubProcess> {
  // Compiled, with the V8 flag that `npm start` and the bin's shebang pass.
  const entry = options.compiled
    ? ['--max-semi-space-size=2', 'dist/main.js']
    : ['--import', 'tsx', 'src/main.ts'];
  const child = execa('node', [...(options.nodeOptions ?? []), ...entry, ...args], {
    cwd: root,
    env,
    reject: false,
  });
  let err = '';
  let partial = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) checkHubLogLine(`hub process ${child.pid}`, line);
  });
  const line = await firstLine(child).catch((error: Error) => {
    throw new Error(`${error.message}: ${err}`);
  });
  const url = /listening on (\S+)\n/.exec(line)?.[1];
  if (!url) throw new Error(`unexpected ready line ${JSON.stringify(line)}`);
  return { url, process: child, stderr: () => err };
}

/** The first line a hub process prints on stdout (its ready line), newline included. */
export function firstLine(child: ResultPromise): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out);
    });
    child.once('exit', () =>
      reject(new Error(`hub exited before it was ready; stdout: ${JSON.stringify(out)}`)),
    );
  });
}

/** POSTs a GraphQL operation to a hub; throws on errors. */
export async function gqlData<T = Record<string, any>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data as T;
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
  rmSync(home.dataDir, { recursive: true, force: true });
}
