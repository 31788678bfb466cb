/**
 * Posts a fleet schedule (bench/fleet-schedule.ts) to a server as it falls due: one timer loop
 * that posts every event due at each tick, not a timer an event, so the load's thread leaves the
 * machine's cores to the hub. A session's events go one after another, each once the one before
 * was answered, as a claude's hooks run; each answer's latency counts from its own send. Notes
 * the send time of each Stop (for the attention rows) and, through `sent`, of each event of the
 * watched sessions, by its tag, on the clock all threads share (timeOrigin + now).
 */
import { performance } from 'node:perf_hooks';
import { eventBody, Kind, type Schedule } from './fleet-schedule.js';
import type { HookClient } from './hook-client.js';

export interface FleetLoad {
  /** Each POST's answer latency, in ms. */
  readonly answers: number[];
  /** Each Stop's send time on the shared clock, by event index; NaN where not a Stop. */
  readonly stopSent: Float64Array;
  /** POSTs not answered 200. */
  readonly failed: number;
  /** ms from the load's start to its last answer. */
  readonly spanMs: number;
}

/** Where a session's hooks go (by its index): the server's client and the secret to post with. */
export type Route = (session: number) => { readonly hooks: HookClient; readonly secret: string };

export async function postSchedule(
  route: Route,
  schedule: Schedule,
  ids: readonly string[],
  /** Sessions (by index) whose events carry a tag, and where their send times go. */
  watched: {
    readonly sessions: ReadonlySet<number>;
    readonly sent: { set(tag: string, at: number): unknown };
  },
): Promise<FleetLoad> {
  const answers: number[] = [];
  const stopSent = new Float64Array(schedule.length).fill(NaN);
  let failed = 0;
  /** Each session's last POST, which its next one waits for. */
  const tails = new Map<number, Promise<unknown>>();
  const send = (i: number) => {
    const session = schedule.session[i]!;
    const tag = watched.sessions.has(session) ? `${session}:${i}` : undefined;
    const body = eventBody(schedule, i, ids[session]!, tag);
    const t0 = performance.now();
    if (tag) watched.sent.set(tag, performance.timeOrigin + t0);
    if (schedule.kind[i] === Kind.Stop) stopSent[i] = performance.timeOrigin + t0;
    const { hooks, secret } = route(session);
    return hooks.post(secret, body).then(
      (status) => {
        answers.push(performance.now() - t0);
        if (status !== 200) failed += 1;
      },
      () => void (failed += 1),
    );
  };
  const post = (i: number) => {
    const session = schedule.session[i]!;
    const before = tails.get(session);
    const posted = before ? before.then(() => send(i)) : send(i);
    tails.set(session, posted);
    void posted.then(() => {
      if (tails.get(session) === posted) tails.delete(session);
    });
  };
  const start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now() - start;
      while (next < schedule.length && schedule.at[next]! <= now) post(next++);
      if (next >= schedule.length) return resolve();
      setTimeout(tick, Math.max(1, schedule.at[next]! - (performance.now() - start)));
    };
    tick();
  });
  await Promise.all(tails.values());
  return { answers, stopSent, failed, spanMs: performance.now() - start };
}
