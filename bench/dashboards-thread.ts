/**
 * The fleet's dashboards (bench/dashboards.ts) seen from the main thread: started with the
 * dashboard's own documents, printed from dashboard/src/operations.ts so the hub gets exactly
 * its selections, and, once stopped, what they saw matched with the Stops the load sent: for
 * each Stop, how long until the first dashboard saw its session raised as IDLE, and until each
 * dashboard did.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { print } from 'graphql';
import {
  AttentionSubscription,
  SessionUpdatesSubscription,
  TurnsSubscription,
} from '../dashboard/src/operations.js';
import type { DashboardsOptions, DashboardsReport } from './dashboards.js';

const dashboardsThread = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => register())
  .then(() => import(${JSON.stringify(import.meta.resolve('./dashboards.ts'))}));`;

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((yes, no) => ([resolve, reject] = [yes, no]));
  return { promise, resolve, reject };
}

export interface Dashboards {
  /** Resolves once no attention update has arrived for `forMs`, or after `maxMs`. */
  quiet(forMs: number, maxMs: number): Promise<void>;
  stop(): Promise<DashboardsReport>;
  /** Ends the thread, report or not (after a failure). */
  close(): Promise<void>;
}

/** Starts `dashboards` dashboards on their own thread; resolves once all have subscribed. */
export async function startDashboards(
  url: string,
  dashboards: number,
  sessionIds: readonly string[],
): Promise<Dashboards> {
  const options: DashboardsOptions = {
    url,
    dashboards,
    sessionIds,
    attention: print(AttentionSubscription),
    sessionUpdates: print(SessionUpdatesSubscription),
    turns: print(TurnsSubscription),
  };
  const worker = new Worker(dashboardsThread, { eval: true, workerData: options });
  const allConnected = deferred<void>();
  const report = deferred<DashboardsReport>();
  let counted: (count: number) => void = () => {};
  worker.on(
    'message',
    (message: 'connected' | { report: DashboardsReport } | { count: number }) => {
      if (message === 'connected') allConnected.resolve();
      else if ('count' in message) counted(message.count);
      else report.resolve(message.report);
    },
  );
  const count = () => {
    const answer = new Promise<number>((resolve) => (counted = resolve));
    worker.postMessage('count');
    return answer;
  };
  worker.on('error', (error) => {
    allConnected.reject(error);
    report.reject(error);
  });
  const late = setTimeout(
    () => allConnected.reject(new Error(`${dashboards} dashboards not connected within 60 s`)),
    60_000,
  );
  await allConnected.promise.finally(() => clearTimeout(late));
  return {
    async quiet(forMs, maxMs) {
      const deadline = performance.now() + maxMs;
      let [last, since] = [await count(), performance.now()];
      while (performance.now() - since < forMs && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = await count();
        if (now !== last) [last, since] = [now, performance.now()];
      }
    },
    async stop() {
      worker.postMessage('stop');
      const result = await report.promise;
      await worker.terminate();
      return result;
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** Delays from each Stop to its session's IDLE on the dashboards, in ms. */
export interface AttentionDelays {
  /** Per Stop seen, the first dashboard's. */
  readonly first: number[];
  /** Per Stop and dashboard that saw it. */
  readonly all: number[];
  readonly stops: number;
  /** Stops no dashboard saw raised as IDLE. */
  readonly unseen: number;
  /** (Stop, dashboard) pairs where that dashboard never saw it. */
  readonly missed: number;
}

/**
 * Matches each (dashboard, session, time) the dashboards saw with the last Stop of that session
 * sent before it; only a dashboard's first sight of a Stop counts.
 */
export function attentionDelays(
  sessionOf: Int32Array,
  stopSent: Float64Array,
  report: DashboardsReport,
  dashboards: number,
): AttentionDelays {
  /** Each session's Stops (event index), in the order sent. */
  const stopsOf = new Map<number, number[]>();
  const ordinal = new Map<number, number>();
  for (let i = 0; i < stopSent.length; i++) {
    if (Number.isNaN(stopSent[i]!)) continue;
    const session = sessionOf[i]!;
    if (!stopsOf.has(session)) stopsOf.set(session, []);
    stopsOf.get(session)!.push(i);
    ordinal.set(i, ordinal.size);
  }
  for (const list of stopsOf.values()) list.sort((a, b) => stopSent[a]! - stopSent[b]!);
  const stops = ordinal.size;
  const delays = new Float64Array(stops * dashboards).fill(NaN);
  for (let k = 0; k < report.at.length; k++) {
    const at = report.at[k]!;
    const list = stopsOf.get(report.session[k]!) ?? [];
    // The last Stop sent at or before `at`.
    let [low, high] = [0, list.length - 1];
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (stopSent[list[middle]!]! <= at) [found, low] = [middle, middle + 1];
      else high = middle - 1;
    }
    if (found < 0) continue;
    const cell = ordinal.get(list[found]!)! * dashboards + report.dashboard[k]!;
    if (Number.isNaN(delays[cell]!)) delays[cell] = at - stopSent[list[found]!]!;
  }
  const first: number[] = [];
  const all: number[] = [];
  let unseen = 0;
  let missed = 0;
  for (let s = 0; s < stops; s++) {
    let earliest = Infinity;
    for (let d = 0; d < dashboards; d++) {
      const delay = delays[s * dashboards + d]!;
      if (Number.isNaN(delay)) missed += 1;
      else {
        all.push(delay);
        earliest = Math.min(earliest, delay);
      }
    }
    if (earliest === Infinity) unseen += 1;
    else first.push(earliest);
  }
  return { first, all, stops, unseen, missed };
}
