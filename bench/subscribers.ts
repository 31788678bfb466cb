/**
 * The fan-out section's subscribers, on a thread of their own so the thread that offers the
 * load neither delays them nor is delayed by them: one WebSocket connection each, speaking the
 * graphql-ws protocol, that note when each event arrives, on the clock all threads share
 * (timeOrigin + now), and report the arrivals in batches. The main thread matches them with
 * the times it sent. Posts 'connected' once every client is, and 'stopped' once asked to stop
 * and done.
 *
 * By default a subscriber is lean: it sends connection_init and subscribe itself and finds the
 * event's tag in each `next` message's bytes. 100 of them on the machine's 2 cores stand for
 * 100 dashboards on their own machines; with the graphql-ws client library (`library`), which
 * parses and checks every message, 100 subscribers cost the load's side about twice the CPU.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface SubscribersOptions {
  readonly url: string;
  readonly sessionIds: readonly string[];
  readonly subscribers: number;
  /** Subscribe with the graphql-ws client library rather than the lean client. */
  readonly library?: boolean;
}

/** Tag and arrival time of each event received since the last batch. */
export type Arrivals = [tag: string, at: number][];

const query = 'subscription($id: ID!) { sessionEvents(id: $id) { payload } }';
const { url, sessionIds, subscribers, library } = workerData as SubscribersOptions;
const closers: (() => Promise<void> | void)[] = [];
let batch: Arrivals = [];
let connected = 0;
const onConnected = () => {
  if (++connected === subscribers) parentPort!.postMessage('connected');
};
const now = () => performance.timeOrigin + performance.now();

const tagKey = Buffer.from('"tag":"');
const quote = 0x22;

function leanSubscriber(): void {
  const ws = new WebSocket(url, 'graphql-transport-ws', { skipUTF8Validation: true });
  closers.push(() => ws.close());
  ws.on('open', () => ws.send('{"type":"connection_init"}'));
  ws.on('error', () => {});
  let acked = false;
  ws.on('message', (data: Buffer) => {
    const at = now();
    if (!acked) {
      // The first message is connection_ack (the hub closes the socket otherwise).
      acked = true;
      for (const [n, id] of sessionIds.entries()) {
        const payload = { query, variables: { id } };
        ws.send(JSON.stringify({ id: String(n), type: 'subscribe', payload }));
      }
      return onConnected();
    }
    const start = data.indexOf(tagKey);
    if (start < 0) return;
    const end = data.indexOf(quote, start + tagKey.length);
    batch.push([data.toString('latin1', start + tagKey.length, end), at]);
  });
}

function librarySubscriber(): void {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
  closers.push(() => client.dispose());
  client.on('connected', onConnected);
  for (const id of sessionIds) {
    client.subscribe<{ sessionEvents: { payload: { tag?: string } } }>(
      { query, variables: { id } },
      {
        next: (result) => {
          const tag = result.data?.sessionEvents.payload.tag;
          if (tag) batch.push([tag, now()]);
        },
        error: () => {},
        complete: () => {},
      },
    );
  }
}

for (let s = 0; s < subscribers; s++) (library ? librarySubscriber : leanSubscriber)();

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
  void Promise.all(closers.map((close) => close())).then(() => parentPort!.postMessage('stopped'));
});
