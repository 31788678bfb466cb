/**
 * The fan-out section's subscribers, on a thread of their own so the thread that offers the
 * load neither delays them nor is delayed by them: real graphql-ws clients, one connection each,
 * that note when each event arrives, on the clock all threads share (timeOrigin + now), and
 * report the arrivals in batches. The main thread matches them with the times it sent. Posts
 * 'connected' once every client is, and 'stopped' once asked to stop and done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface SubscribersOptions {
  readonly url: string;
  readonly sessionIds: readonly string[];
  readonly subscribers: number;
}

/** Tag and arrival time of each event received since the last batch. */
export type Arrivals = [tag: string, at: number][];

const { url, sessionIds, subscribers } = workerData as SubscribersOptions;
const clients: Client[] = [];
let batch: Arrivals = [];
let connected = 0;
for (let s = 0; s < subscribers; s++) {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
  clients.push(client);
  client.on('connected', () => {
    if (++connected === subscribers) parentPort!.postMessage('connected');
  });
  for (const id of sessionIds) {
    client.subscribe<{ sessionEvents: { payload: { tag?: string } } }>(
      { query: 'subscription($id: ID!) { sessionEvents(id: $id) { payload } }', variables: { id } },
      {
        next: (result) => {
          const tag = result.data?.sessionEvents.payload.tag;
          if (tag) batch.push([tag, performance.timeOrigin + performance.now()]);
        },
        error: () => {},
        complete: () => {},
      },
    );
  }
}
const report = () => {
  if (batch.length === 0) return;
  parentPort!.postMessage(batch);
  batch = [];
};
const reporting = setInterval(report, 50);
parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(reporting);
  report();
  void Promise.all(clients.map((client) => client.dispose())).then(() =>
    parentPort!.postMessage('stopped'),
  );
});
