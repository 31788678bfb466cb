import type { GlobalHooks } from '../hooks/global-hooks.js';
import { HookListeners } from '../ingest/hook-listeners.js';
import { mcpPath } from '../mcp/mcp-endpoint.js';
import type { SessionManager } from '../sessions/session-manager.js';
import { hookHost } from './listen.js';
import type { StartContext } from './parts.js';
import { guarded, type Handler } from './routes.js';

/**
 * Once the hub listens: where sessions post their hooks now (and listeners on the addresses
 * running sessions were launched with, when the hub listened elsewhere then), the installed
 * global hooks pointed here (a failure is a warning: the hub runs without them), then the
 * sessions still running re-adopted and watched.
 */
export async function adoptSessions(
  { config, log, parts }: StartContext,
  deps: {
    sessions: SessionManager;
    globalHooks: GlobalHooks;
    hooks: Handler;
    mcp: Handler;
    port: number;
  },
): Promise<void> {
  const { sessions, globalHooks } = deps;
  const listeners = (parts.hookListeners = new HookListeners(
    `http://${hookHost(config.host)}:${deps.port}/hooks`,
    guarded(deps.hooks, log),
    { [mcpPath]: guarded(deps.mcp, log) },
  ));
  let earlierGlobalUrl: string | null = null;
  try {
    const moved = await globalHooks.follow();
    if (moved)
      log.info(
        { path: moved.path, url: moved.url, from: moved.from },
        'global hooks point here again',
      );
    earlierGlobalUrl = moved?.from ?? null;
  } catch (error) {
    log.warn({ err: error }, 'global hooks could not be pointed here');
  }
  await sessions.start(listeners, earlierGlobalUrl);
}
