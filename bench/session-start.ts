/**
 * The `start` section: the hub's createSession against the same claude command started in tmux
 * by hand, each to its SessionStart hook. Alternated, after one warm-up each, so neither side
 * gets the warm caches. Each start waits for claude's prompt, and the next begins once the
 * machine is quiet again: a start never overlaps the previous claude's own start or exit. The
 * hub's sessions (`starts` + 1) keep running.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { claudeBin } from '../harness/claude-config.js';
import { gqlData } from '../harness/graphql-http.js';
import { waitForScreen } from '../harness/tmux-server.js';
import { hookSettings } from '../src/sessions/hook-settings.js';
import type { BenchWorld } from './claude-world.js';
import type { BenchHub } from './hook-load.js';
import { machineQuiet } from './proc-stats.js';
import { ms, percentile, type Row } from './row.js';

const section = 'session start (median)';
const forwarder = fileURLToPath(new URL('../hooks/forward.sh', import.meta.url));

/** The starts by hand run on the hub's tmux socket too. */
export async function sessionStart(
  hub: BenchHub,
  options: { readonly world: BenchWorld; readonly starts: number },
): Promise<Row[]> {
  const { url, socket } = hub;
  const { world } = options;
  const startOnce = async () => {
    const t0 = performance.now();
    const { createSession } = await gqlData(
      url,
      'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { tmuxSession } }',
      { cwd: world.makeCwd() },
    );
    const took = performance.now() - t0;
    await waitForScreen(socket, createSession.tmuxSession, /❯/).catch(() => undefined);
    return took;
  };
  const hubStarts: number[] = [];
  const bareStarts: number[] = [];
  await startOnce();
  await bareStartTimes(world, socket, 1);
  for (let i = 0; i < options.starts; i++) {
    await machineQuiet(5_000);
    hubStarts.push(await startOnce());
    await machineQuiet(5_000);
    bareStarts.push(...(await bareStartTimes(world, socket, 1)));
  }
  const [hubMedian, bareMedian] = [percentile(hubStarts, 50), percentile(bareStarts, 50)];
  const overhead = hubMedian / bareMedian - 1;
  return [
    { section, metric: 'claude in tmux by hand, to SessionStart', value: ms(bareMedian) },
    {
      section,
      metric: 'createSession, to SessionStart',
      value: `${ms(hubMedian)} (${(overhead * 100).toFixed(1)}% overhead)`,
      target: '< 10% overhead',
      ok: overhead < 0.1,
    },
  ];
}

/** claude started in tmux without the hub, with the same hooks posting to a bare listener. */
async function bareStartTimes(world: BenchWorld, socket: string, count: number): Promise<number[]> {
  const arrivals: (() => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.end('{}');
      if (body.includes('"SessionStart"')) arrivals.shift()?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  const settingsPath = path.join(mkdtempSync(path.join(tmpdir(), 'cch-bare-')), 'settings.json');
  const settings = hookSettings({
    hookUrl: url,
    forwarderPath: forwarder,
    httpTimeoutSeconds: 10,
    permissionTimeoutSeconds: 330,
  });
  writeFileSync(
    settingsPath,
    JSON.stringify({ hooks: { SessionStart: settings.hooks.SessionStart } }),
  );
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `bare-${i}`;
      const arrived = new Promise<void>((resolve) => arrivals.push(resolve));
      const env = Object.entries(world.env).flatMap(([k, v]) =>
        v === undefined || k === 'TMUX' ? [] : ['-e', `${k}=${v}`],
      );
      const t0 = performance.now();
      await execa('tmux', [
        '-L',
        socket,
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        '200',
        '-y',
        '50',
        '-c',
        world.makeCwd(),
        ...env,
        '--',
        claudeBin,
        '--session-id',
        randomUUID(),
        '--settings',
        settingsPath,
      ]);
      await arrived;
      times.push(performance.now() - t0);
      await waitForScreen(socket, name, /❯/).catch(() => undefined);
      await execa('tmux', ['-L', socket, 'kill-session', '-t', `=${name}`], { reject: false });
    }
  } finally {
    server.close();
  }
  return times;
}
