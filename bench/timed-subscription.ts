/** A subscription timed from its start to its last result, with the hub's CPU meanwhile. */
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { BenchHub } from './hook-load.js';
import { cpuMs } from './proc-stats.js';

/**
 * Subscribes and takes results until `count` have come, the stream completes, or (with
 * `quietMs`) none has come for that long. `took` runs to the last result's arrival.
 */
export async function timedSubscription(
  hub: Pick<BenchHub, 'url' | 'pid'>,
  operation: { readonly query: string; readonly variables: Record<string, unknown> },
  until: { readonly count?: number; readonly quietMs?: number },
): Promise<{ took: number; received: number; hubCpu: number }> {
  const client = createClient({
    url: hub.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  try {
    const [t0, cpu0] = [performance.now(), cpuMs(hub.pid)];
    let received = 0;
    let last = t0;
    await new Promise<void>((resolve, reject) => {
      let quiet: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(quiet);
        stop();
        resolve();
      };
      const stop = client.subscribe(operation, {
        next: () => {
          received += 1;
          last = performance.now();
          if (until.count !== undefined && received >= until.count) return done();
          if (until.quietMs === undefined) return;
          clearTimeout(quiet);
          quiet = setTimeout(done, until.quietMs);
        },
        error: reject,
        complete: done,
      });
    });
    return { took: last - t0, received, hubCpu: cpuMs(hub.pid) - cpu0 };
  } finally {
    await client.dispose();
  }
}
