/**
 * The `start` section: the hub's createSession against the same claude command started in tmux
 * by hand, each to its SessionStart hook. Alternated, after one warm-up each, so neither side
 * gets the warm caches. Each start waits for claude's prompt, and the next begins once the
 * machine is quiet again: a start never overlaps the previous claude's own start or exit. The
 * hub's sessions (`starts` + 1) keep running.
 */
import { performance } from 'node:perf_hooks';
import { gqlData } from '../harness/graphql-http.js';
import { bareHooks, bareTmuxClaude, tmuxPromptShown } from './bare-claude.js';
import type { BenchWorld } from './claude-world.js';
import type { BenchHub } from './hook-load.js';
import { machineQuiet } from './proc-stats.js';
import { ms, percentile, type Row } from './row.js';

const section = 'session start (median)';

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
    await tmuxPromptShown(socket, createSession.tmuxSession);
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
  const hooks = await bareHooks();
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `bare-${i}`;
      const arrived = hooks.next('SessionStart');
      const t0 = performance.now();
      const claude = await bareTmuxClaude(world, socket, hooks, name);
      await arrived;
      times.push(performance.now() - t0);
      await tmuxPromptShown(socket, name);
      await claude.kill();
    }
  } finally {
    hooks.close();
  }
  return times;
}
