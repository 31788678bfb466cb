/**
 * The fleet section's dashboards, on a thread of their own so the thread that posts the load
 * neither delays them nor is delayed by them: one WebSocket connection each, speaking graphql-ws
 * by hand, subscribed as the dashboard is (its own documents, printed by the main thread) to
 * the attention queue, to every session's updates, and to one session's turns. Each notes when
 * it first sees a session raised as IDLE in an attention update's `raised` list (or, for a
 * document without one, newly IDLE in `items`), on the clock all threads share (timeOrigin +
 * now); the main thread matches those with the Stops it sent. Every dashboard gets the same
 * update's bytes, so an update is parsed once, not once a dashboard. Posts 'connected' once
 * every dashboard's subscriptions are sent (or the hub closed it unacknowledged), and its report once asked to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export interface DashboardsOptions {
  readonly url: string;
  readonly dashboards: number;
  /** Every session's id; dashboard d watches the turns of session d mod their count. */
  readonly sessionIds: readonly string[];
  readonly attention: string;
  readonly sessionUpdates: string;
  readonly turns: string;
}

/** What the dashboards saw: each raised IDLE (dashboard, session index, time), and counts. */
export interface DashboardsReport {
  readonly dashboard: Int32Array;
  readonly session: Int32Array;
  readonly at: Float64Array;
  /** Messages and bytes of each subscription, over all dashboards. */
  readonly messages: Record<'attention' | 'sessionUpdates' | 'turns', [number, number]>;
  /** Bytes the dashboards read off their sockets, frames and compression included. */
  readonly wireBytes: number;
  /** The first error message a subscription got, if any, and how many it got. */
  readonly errors: number;
  readonly firstError: string | null;
  /** Dashboards the hub closed before acknowledging them. */
  readonly refused: number;
}

const options = workerData as DashboardsOptions;
const index = new Map(options.sessionIds.map((id, i) => [id, i]));
const now = () => performance.timeOrigin + performance.now();

const seenDashboard: number[] = [];
const seenSession: number[] = [];
const seenAt: number[] = [];
const messages: DashboardsReport['messages'] = {
  attention: [0, 0],
  sessionUpdates: [0, 0],
  turns: [0, 0],
};
let errors = 0;
let firstError: string | null = null;

interface Item {
  readonly reason: string;
  readonly session: { readonly id: string };
}
/** One attention update as read: its raised IDLE sessions, or, without `raised`, its IDLE ones. */
interface Read {
  readonly raised: number[] | null;
  readonly idle: Set<number>;
}

/** The last update's bytes and what they held: the next dashboard's copy is the same. */
let lastBytes: Buffer | null = null;
let lastRead: Read = { raised: [], idle: new Set() };

function read(data: Buffer): Read {
  if (lastBytes && lastBytes.equals(data)) return lastRead;
  const message = JSON.parse(data.toString('utf8')) as {
    payload: { data?: { attention?: { items?: Item[]; raised?: Item[] } } };
  };
  const update = message.payload.data?.attention ?? {};
  const idle = (items: Item[] | undefined) =>
    (items ?? [])
      .filter((item) => item.reason === 'IDLE')
      .map((item) => index.get(item.session.id))
      .filter((i): i is number => i !== undefined);
  lastBytes = data;
  lastRead = {
    raised: update.raised ? idle(update.raised) : null,
    idle: update.raised ? new Set() : new Set(idle(update.items)),
  };
  return lastRead;
}

const idOf = (data: Buffer) => String.fromCharCode(data[7] ?? 0);
const errorType = Buffer.from('"type":"error"');
const closers: (() => void)[] = [];
const sockets: Socket[] = [];
let connected = 0;
/** Dashboards the hub closed before it acknowledged them (a connection limit, say). */
let refused = 0;
let closing = false;
const settled = () => {
  if (connected + refused === options.dashboards) parentPort!.postMessage('connected');
};

function dashboard(d: number): void {
  const ws = new WebSocket(options.url, 'graphql-transport-ws', { skipUTF8Validation: true });
  closers.push(() => ws.close());
  ws.once('upgrade', (response) => sockets.push(response.socket as Socket));
  ws.on('open', () => ws.send('{"type":"connection_init"}'));
  ws.on('error', () => {});
  let acked = false;
  ws.on('close', () => {
    if (acked || closing) return;
    refused += 1;
    settled();
  });
  /** Without `raised`: the IDLE sessions of this dashboard's previous update. */
  let previousIdle: Set<number> | null = null;
  ws.on('message', (data: Buffer) => {
    const at = now();
    if (!acked) {
      acked = true;
      const subscribe = (id: string, query: string, variables: Record<string, unknown> = {}) =>
        ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
      subscribe('a', options.attention);
      subscribe('u', options.sessionUpdates);
      const sessionId = options.sessionIds[d % options.sessionIds.length];
      subscribe('t', options.turns, { sessionId });
      connected += 1;
      settled();
      return;
    }
    if (data.subarray(0, 32).includes(errorType)) {
      errors += 1;
      firstError ??= data.toString('utf8', 0, 300);
      return;
    }
    const id = idOf(data);
    const counts =
      id === 'a' ? messages.attention : id === 'u' ? messages.sessionUpdates : messages.turns;
    counts[0] += 1;
    counts[1] += data.length;
    if (id !== 'a') return;
    const update = read(data);
    let raised = update.raised;
    if (raised === null) {
      raised = previousIdle ? [...update.idle].filter((s) => !previousIdle!.has(s)) : [];
      previousIdle = update.idle;
    }
    for (const session of raised) {
      seenDashboard.push(d);
      seenSession.push(session);
      seenAt.push(at);
    }
  });
}

for (let d = 0; d < options.dashboards; d++) dashboard(d);

parentPort!.on('message', (message: unknown) => {
  if (message === 'count') return parentPort!.postMessage({ count: messages.attention[0] });
  if (message !== 'stop') return;
  closing = true;
  for (const close of closers) close();
  const report: DashboardsReport = {
    dashboard: Int32Array.from(seenDashboard),
    session: Int32Array.from(seenSession),
    at: Float64Array.from(seenAt),
    messages,
    wireBytes: sockets.reduce((sum, socket) => sum + socket.bytesRead, 0),
    errors,
    firstError,
    refused,
  };
  parentPort!.postMessage({ report });
});
