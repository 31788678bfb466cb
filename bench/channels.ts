/**
 * The `channels` section: a session's MCP tool call (send_to_channel, posted to /mcp as claude
 * posts it, with the session's secret) through the hub to a channel's listener over graphql-ws.
 * One call at a time, so each round trip is the path's own latency, not a queue's.
 */
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { gqlData } from '../harness/graphql-http.js';
import type { BenchHub, Target } from './hook-load.js';
import { ms, percentile, type Row } from './row.js';

export async function channelRows(
  hub: BenchHub,
  options: { readonly target: Target; readonly calls: number },
): Promise<Row[]> {
  const client = createClient({
    url: hub.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const arrived = new Map<string, number>();
  let waiting: { text: string; resolve: () => void; reject: (error: Error) => void } | null = null;
  let failed: Error | null = null;
  const stop = client.subscribe<{ channelMessages: { text: string } }>(
    { query: 'subscription { channelMessages(channel: "bench") { text } }' },
    {
      next: ({ data }) => {
        const text = data!.channelMessages.text;
        arrived.set(text, performance.now());
        if (waiting?.text === text) waiting.resolve();
      },
      error: (error) => {
        failed = error instanceof Error ? error : new Error(JSON.stringify(error));
        waiting?.reject(failed);
      },
      complete: () => undefined,
    },
  );
  // The channel is open once the hub counts the listener.
  for (;;) {
    if (failed) throw failed;
    const { channels } = await gqlData(hub.url, '{ channels { name listeners } }');
    if ((channels as { name: string }[]).some((channel) => channel.name === 'bench')) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const call = (text: string, id: number) =>
    fetch(`${hub.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.target.secret}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'send_to_channel', arguments: { channel: 'bench', message: text } },
      }),
    });
  try {
    const answered: number[] = [];
    const delivered: number[] = [];
    for (let i = 0; i < options.calls + 20; i++) {
      const text = `bench ${i}`;
      if (failed) throw failed;
      const got = new Promise<void>((resolve, reject) => (waiting = { text, resolve, reject }));
      const t0 = performance.now();
      const response = await call(text, i);
      const body = (await response.json()) as { result?: { isError?: boolean } };
      if (!response.ok || !body.result || body.result.isError)
        throw new Error(`send_to_channel failed: ${response.status} ${JSON.stringify(body)}`);
      const t1 = performance.now();
      if (!arrived.has(text)) await got;
      if (i < 20) continue; // warm-up
      answered.push(t1 - t0);
      delivered.push(arrived.get(text)! - t0);
    }
    const pair = (values: number[]) =>
      `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;
    return [
      {
        section: 'channels',
        metric: `MCP call answered, p50 / p99 (${options.calls})`,
        value: pair(answered),
      },
      {
        section: 'channels',
        metric: 'MCP call to a listener, p50 / p99',
        value: pair(delivered),
      },
    ];
  } finally {
    stop();
    await client.dispose();
  }
}
