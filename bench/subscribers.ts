/**
 * The fan-out section's subscribers, on a thread of their own so the thread that offers the
 * load neither delays them nor is delayed by them: one WebSocket connection each, speaking the
 * graphql-ws protocol, that note when each event arrives, on the clock all threads share
 * (timeOrigin + now), match it with the time the main thread sent it (it posts those here,
 * `{ sent }`), and report the delays in batches. Posts 'connected' once every client is, and
 * 'stopped' once asked to stop and done.
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
  /** Also one slow subscriber of the first session (see slowSubscriber). */
  readonly slow?: boolean;
}

/** When events were sent, by tag (SentTimes in subscribers-thread.ts). */
export interface SentBatch {
  readonly tags: string[];
  readonly times: Float64Array;
}

/** What the slow subscriber got: events by seq, and how often the hub cut it. */
export interface SlowReport {
  received: number;
  first: number;
  last: number;
  /** Events that did not follow the one before by one seq (a gap or a duplicate). */
  outOfOrder: number;
  /** SUBSCRIBER_TOO_SLOW errors, each answered by subscribing again with `after`. */
  cuts: number;
}

/** What the thread posts: arrivals, a lean subscriber cut by the hub, or the slow one's state. */
export type SubscribersMessage =
  | { readonly delays: Float64Array }
  | 'connected'
  | 'stopped'
  | { readonly cut: true }
  | { readonly slow: SlowReport };

const query = 'subscription($id: ID!) { sessionEvents(id: $id) { payload } }';
const { url, sessionIds, subscribers, library, slow } = workerData as SubscribersOptions;
const closers: (() => Promise<void> | void)[] = [];
/** Each event's send time, by tag, and arrivals still waiting for theirs. */
const sentAt = new Map<string, number>();
const early = new Map<string, number[]>();
/** Delays since the last report. */
let delays: number[] = [];

function arrived(tag: string, at: number): void {
  const sent = sentAt.get(tag);
  if (sent !== undefined) delays.push(at - sent);
  else if (early.has(tag)) early.get(tag)!.push(at);
  else early.set(tag, [at]);
}

function noteSent({ tags, times }: SentBatch): void {
  for (const [i, tag] of tags.entries()) {
    sentAt.set(tag, times[i]!);
    const waiting = early.get(tag);
    if (!waiting) continue;
    early.delete(tag);
    for (const at of waiting) delays.push(at - times[i]!);
  }
}

let connected = 0;
const onConnected = () => {
  if (++connected === subscribers + (slow ? 1 : 0)) parentPort!.postMessage('connected');
};
const now = () => performance.timeOrigin + performance.now();

const tagKey = Buffer.from('"tag":"');
const errorType = Buffer.from('"type":"error"');
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
    if (start < 0) {
      if (data.includes(errorType)) parentPort!.postMessage({ cut: true });
      return;
    }
    const end = data.indexOf(quote, start + tagKey.length);
    arrived(data.toString('latin1', start + tagKey.length, end), at);
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
          if (tag) arrived(tag, now());
        },
        error: () => {},
        complete: () => {},
      },
    );
  }
}

/** The slow subscriber's state, and how to make it stop reading for a while. */
let slowReport: SlowReport | null = null;
let readSlow: (reading: boolean) => void = () => {};

/**
 * A subscriber that reads every event of the first session, with its seq, from the first one
 * on, and stops reading its socket when told (`pause`, until `resume`), as a dashboard on a stalled
 * network would. Cut by the hub with SUBSCRIBER_TOO_SLOW, it subscribes again with `after` its
 * last seq, as a client should, and notes whether the events it gets follow each other.
 */
function slowSubscriber(): void {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  closers.push(() => ws.close());
  const state: SlowReport = { received: 0, first: 0, last: 0, outOfOrder: 0, cuts: 0 };
  slowReport = state;
  let subscriptions = 0;
  const subscribe = () =>
    ws.send(
      JSON.stringify({
        id: `slow-${subscriptions++}`,
        type: 'subscribe',
        payload: {
          query:
            'subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq payload } }',
          variables: { id: sessionIds[0], after: state.last },
        },
      }),
    );
  ws.on('open', () => ws.send('{"type":"connection_init"}'));
  ws.on('error', () => {});
  ws.on('message', (data: Buffer) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      payload: { data: { sessionEvents: { seq: number } } };
    };
    if (message.type === 'connection_ack') {
      subscribe();
      return onConnected();
    }
    if (message.type === 'error') {
      state.cuts += 1;
      return subscribe();
    }
    if (message.type !== 'next') return;
    const { seq } = message.payload.data.sessionEvents;
    if (state.first === 0) state.first = seq;
    else if (seq !== state.last + 1) state.outOfOrder += 1;
    state.last = seq;
    state.received += 1;
  });
  readSlow = (reading) => {
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    if (reading) socket.resume();
    else socket.pause();
  };
}

for (let s = 0; s < subscribers; s++) (library ? librarySubscriber : leanSubscriber)();
if (slow) slowSubscriber();

const report = () => {
  if (slowReport) parentPort!.postMessage({ slow: { ...slowReport } });
  if (delays.length === 0) return;
  const batch = Float64Array.from(delays);
  parentPort!.postMessage({ delays: batch }, [batch.buffer]);
  delays = [];
};
const reporting = setInterval(report, 50);
parentPort!.on('message', (message: unknown) => {
  if (message === 'pause' || message === 'resume') return readSlow(message === 'resume');
  if (typeof message === 'object' && message !== null && 'sent' in message)
    return noteSent(message.sent as SentBatch);
  if (message !== 'stop') return;
  clearInterval(reporting);
  report();
  void Promise.all(closers.map((close) => close())).then(() => parentPort!.postMessage('stopped'));
});
