/**
 * A hub of a section's own, started for it and stopped after: compiled, in its own process,
 * with its own data dir, tmux socket and claude config (the bench's claudes are not its to
 * find). Its session is made by the first event posted with the hub's hook token, as the global
 * hooks of a claude started by hand make one, so no claude process runs for it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../harness/free-port.js';
import { hubArgs, spawnHub, stopHub } from '../harness/hub-process.js';
import type { BenchWorld } from './claude-world.js';
import { HookClient } from './hook-client.js';
import { extraHubArgs, hubNodeOptions } from './profile.js';
import type { BenchHub, Target } from './hook-load.js';

export interface FreshHub extends BenchHub {
  /** A session of its own, not made yet: its first event makes it. */
  readonly target: Target;
  /**
   * The hub stopped (SIGTERM, its sessions left running, as for an upgrade) and started again on
   * its data dir and port, as a hub restarted finds its sessions; resolves with the new process
   * once its ready line came, and how long that took from the spawn.
   */
  restart(): Promise<{ hub: FreshHub; readyMs: number }>;
  stop(): Promise<void>;
}

/**
 * A hub process as the bench starts each: compiled, as `npm start` runs it, with the bench's
 * `--hub-node-option`s and, after `args`, its `--hub-arg`s.
 */
export const spawnBenchHub = (args: readonly string[], env: Record<string, string | undefined>) =>
  spawnHub([...args, ...extraHubArgs], env, { compiled: true, nodeOptions: hubNodeOptions });

/**
 * With `claudes`, its claude config dir starts as the world's (onboarding done, the key approved,
 * the work root trusted), so createSession starts a real claude there.
 */
export async function startFreshHub(
  world: BenchWorld,
  name: string,
  extra: readonly string[] = [],
  { claudes = false } = {},
): Promise<FreshHub> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cch-bench-${name}-`));
  const socket = `cch-bench-${name}-${process.pid}`;
  const env = { ...world.env, CLAUDE_CONFIG_DIR: path.join(dataDir, 'claude') };
  if (claudes) {
    mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
    const config = '.claude.json';
    copyFileSync(
      path.join(world.env.CLAUDE_CONFIG_DIR!, config),
      path.join(env.CLAUDE_CONFIG_DIR, config),
    );
  }
  const args = [
    ...hubArgs({ port: await freePort(), dataDir, socket }),
    ...['--retain-events', '0'],
    ...extra,
  ];
  const target = { id: randomUUID(), secret: '' };
  const launch = async (): Promise<FreshHub> => {
    const hub = await spawnBenchHub(args, env);
    const base = hub.url.replace(/\/graphql$/, '');
    const hooks = new HookClient(base);
    target.secret ||= readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
    return {
      url: hub.url,
      base,
      pid: hub.process.pid!,
      socket,
      hooks,
      target,
      async restart() {
        hooks.close();
        hub.process.kill('SIGTERM');
        await hub.process;
        const t0 = performance.now();
        const again = await launch();
        return { hub: again, readyMs: performance.now() - t0 };
      },
      async stop() {
        hooks.close();
        await stopHub(hub, { socket, dataDir });
      },
    };
  };
  return launch();
}

/** The body of a session's first event, which makes it. */
export const sessionStartBody = (sessionId: string) =>
  JSON.stringify({
    session_id: sessionId,
    hook_event_name: 'SessionStart',
    source: 'startup',
    cwd: '/tmp',
  });
