/**
 * The `replay` section: a new subscriber to a long session with `after: 0` gets every stored
 * event; the time until the last one arrives, and the hub's CPU time meanwhile.
 */
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { countEvents } from './event-count.js';
import { ingest, type BenchHub, type Target } from './hook-load.js';
import { cpuMs } from './proc-stats.js';
import { ms, type Row } from './row.js';

export async function replay(
  hub: BenchHub,
  options: {
    /** The session replayed; it is filled up to `events` first. */
    readonly target: Target;
    readonly events: number;
  },
): Promise<Row[]> {
  const { url, pid: hubPid } = hub;
  const { target, events } = options;
  const have = await countEvents(url, target.id);
  await ingest(hub.hooks, target, Math.max(0, events - have), 64);
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  try {
    const [t0, cpu0] = [performance.now(), cpuMs(hubPid)];
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      const stop = client.subscribe<{ sessionEvents: { seq: number } }>(
        {
          query: 'subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }',
          variables: { id: target.id },
        },
        {
          next: () => {
            received += 1;
            if (received >= events) {
              stop();
              resolve();
            }
          },
          error: reject,
          complete: () => resolve(),
        },
      );
    });
    const took = performance.now() - t0;
    const hubCpu = cpuMs(hubPid) - cpu0;
    return [
      {
        section: 'replay',
        metric: `after: 0 over ${events.toLocaleString('en')} events`,
        value: `${ms(took)} (hub CPU ${hubCpu.toFixed(0)} ms)`,
        target: '< 1000 ms',
        ok: took < 1000,
      },
    ];
  } finally {
    await client.dispose();
  }
}
