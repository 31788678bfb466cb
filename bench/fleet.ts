/**
 * The `fleet` section: one hub of its own with a fleet of sessions, each made by a SessionStart
 * posted with the hub's hook token (no claude runs for them), as a hub watching many claudes
 * started by hand sees them. What a session costs it sitting idle: RSS a session, and CPU a
 * session while nothing happens (its periodic work). Then the fleet's load, claude's turn shape
 * in every session (bench/fleet-schedule.ts), posted on one schedule made up front, first to the
 * floor server, then to the hub, each with subscribers on some sessions' sessionEvents, and the
 * hub with dashboards too (bench/dashboards.ts: the attention queue, every session's updates,
 * one session's turns, with the dashboard's own documents): the hook answers and the fan-out
 * against the floor's, and how soon after a Stop the dashboards see its session raised as IDLE.
 * Last, the dashboard's overview query over the fleet's sessions.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { print } from 'graphql';
import { OverviewQuery } from '../dashboard/src/operations.js';
import type { BenchWorld } from './claude-world.js';
import { attentionDelays, startDashboards, type Dashboards } from './dashboards-thread.js';
import type { DashboardsReport } from './dashboards.js';
import { claudePids } from './claude-pids.js';
import { postSchedule, type FleetLoad } from './fleet-load.js';
import { fleetSchedule, type Schedule } from './fleet-schedule.js';
import { startFloor, type Floor } from './floor.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import type { BenchHub } from './hook-load.js';
import { hubStats } from './hub-stats.js';
import { cpuMs, rssMb } from './proc-stats.js';
import { againstFloor, ms, percentile, spread, type Row } from './row.js';
import { SentTimes, startSubscribers, untilArrived } from './subscribers-thread.js';

const section = 'fleet';

export interface FleetOptions {
  readonly sessions: number;
  /** Hook events a second, all sessions together. */
  readonly eventsPerSecond: number;
  /** The load's length. */
  readonly seconds: number;
  readonly dashboards: number;
  /** Sessions with sessionEvents subscribers, and how many each. */
  readonly watchedSessions: number;
  readonly subscribersPerSession: number;
  /** How long the fleet sits idle for its CPU row (5 s by default). */
  readonly idleSeconds?: number;
  /** The run's floor server, if it has one; else the section starts its own. */
  readonly floor?: Floor;
}

type Server = Pick<BenchHub, 'url' | 'base' | 'pid' | 'hooks'>;
const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
const count = (n: number) => n.toLocaleString('en-US');
/** Bytes as KB under a MB, else as MB. */
const mb = (bytes: number) =>
  bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 2 ** 20).toFixed(1)} MB`;
const wsUrl = (server: Server) => server.url.replace(/^http/, 'ws');

/**
 * POSTs a SessionStart for each id, 32 at a time; throws unless each is answered 200. Each
 * names a process of its own as its claude, as the global hooks name a claude's: the hub
 * watches it as a claude started by hand, and finds it running when it restarts.
 */
async function makeSessions(
  hub: Server,
  secret: string,
  ids: readonly string[],
  pids: readonly number[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < ids.length) {
        const i = next++;
        const claude = `x-claude-hub-pid: ${pids[i]}\r\n`;
        const status = await hub.hooks.post(secret, sessionStartBody(ids[i]!), claude);
        if (status !== 200) throw new Error(`SessionStart answered ${status}`);
      }
    }),
  );
}

/** The schedule against one server, with sessionEvents subscribers on the watched sessions. */
async function runLoad(
  server: Server,
  schedule: Schedule,
  ids: readonly string[],
  secret: string,
  options: FleetOptions,
  beside: { ready(): Promise<void> } = { ready: async () => {} },
) {
  const watched = new Set(Array.from({ length: options.watchedSessions }, (_, i) => i));
  let expected = 0;
  for (let i = 0; i < schedule.length; i++) if (watched.has(schedule.session[i]!)) expected++;
  expected *= options.subscribersPerSession;
  const sent = new SentTimes();
  const subscribers = await startSubscribers(
    {
      url: wsUrl(server),
      sessionIds: ids.slice(0, options.watchedSessions),
      subscribers: options.subscribersPerSession,
    },
    sent,
  );
  await beside.ready();
  await sleep(300);
  const [cpu0, loadCpu0] = [cpuMs(server.pid), cpuMs(process.pid)];
  const route = { hooks: server.hooks, secret };
  const load: FleetLoad = await postSchedule(() => route, schedule, ids, {
    sessions: watched,
    sent,
  });
  const cores = (from: number, pid: number) => (cpuMs(pid) - from) / load.spanMs;
  const cpu = { server: cores(cpu0, server.pid), load: cores(loadCpu0, process.pid) };
  await untilArrived(() => subscribers.arrivals.length >= expected);
  await subscribers.stop();
  const { arrivals } = subscribers;
  const missing = arrivals.length < expected ? `${arrivals.length}/${expected} arrived, ` : '';
  return { load, arrivals, missing, cpu };
}

/** How soon a hub just started (`readyMs` from its spawn) lists every session, and as what. */
async function readopted(hub: Server, readyMs: number, ids: readonly string[], label: string) {
  const t0 = performance.now() - readyMs;
  const query = JSON.stringify({ query: '{ sessions { id status } }' });
  const wanted = new Set(ids);
  for (;;) {
    const response = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: query,
    });
    const { data } = (await response.json()) as {
      data?: { sessions: { id: string; status: string }[] };
    };
    const found = (data?.sessions ?? []).filter((session) => wanted.has(session.id));
    const statuses = new Map<string, number>();
    for (const { status } of found) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const elapsed = performance.now() - t0;
    if (found.length === ids.length || elapsed > 30_000) {
      const live = found.length - (statuses.get('STOPPED') ?? 0) - (statuses.get('CRASHED') ?? 0);
      const tally = [...statuses].map(([status, n]) => `${count(n)} ${status}`).join(', ');
      return {
        section,
        metric: `restart with ${label} running: ready / every session listed`,
        value: `${ms(readyMs)} / ${ms(elapsed)} (${tally || 'none listed'})`,
        target: '< 5 s, each still running',
        ok: elapsed < 5000 && live === ids.length,
      };
    }
    await sleep(50);
  }
}

/** The dashboards' rows: how soon after each Stop they saw its session raised as IDLE. */
function dashboardRows(
  sessionOf: Int32Array,
  stopSent: Float64Array,
  seen: DashboardsReport,
  dashboards: number,
): Row[] {
  const idle = attentionDelays(sessionOf, stopSent, seen, dashboards);
  const share = (n: number, of: number) => `${((n / Math.max(1, of)) * 100).toFixed(1)}%`;
  const p99 = (values: number[]) => percentile(values, 99);
  const errors = [
    ...(seen.refused > 0 ? [`${seen.refused} dashboards refused`] : []),
    ...(seen.errors > 0 ? [`${seen.errors} errors, first: ${seen.firstError}`] : []),
  ]
    .map((text) => `; ${text}`)
    .join('');
  const { attention, sessionUpdates, turns } = seen.messages;
  return [
    {
      section,
      metric: `Stop to IDLE raised, first of ${dashboards} dashboards p50 / p99 / max`,
      value: `${spread(idle.first)} (${count(idle.stops)} Stops, ${share(idle.unseen, idle.stops)} never seen${errors})`,
      target: 'p99 < 250 ms',
      ok: p99(idle.first) < 250 && idle.unseen === 0 && seen.errors + seen.refused === 0,
    },
    {
      section,
      metric: `Stop to IDLE raised, every dashboard p50 / p99 / max`,
      value: `${spread(idle.all)} (${share(idle.missed, idle.stops * dashboards)} of Stop x dashboard never seen; got attention ${count(attention[0])} msgs ${mb(attention[1])}, session updates ${count(sessionUpdates[0])} ${mb(sessionUpdates[1])}, turns ${count(turns[0])} ${mb(turns[1])}; ${mb(seen.wireBytes)} on the wire)`,
      target: 'p99 < 250 ms',
      ok: p99(idle.all) < 250 && idle.missed === 0,
    },
  ];
}

export async function fleet(world: BenchWorld, options: FleetOptions): Promise<Row[]> {
  const { sessions, eventsPerSecond, seconds, dashboards } = options;
  const schedule = fleetSchedule(sessions, eventsPerSecond, seconds);
  const ids = Array.from({ length: sessions }, () => randomUUID());
  const label = `${count(sessions)} sessions`;
  const atRate = `${label}, ${count(Math.round(schedule.perSecond))} events/s`;
  const rows: Row[] = [];

  // The floor first, with the same schedule and subscribers: it keeps no sessions.
  const floor = options.floor ?? (await startFloor());
  const atFloor = await runLoad(floor, schedule, ids, 'floor', options).finally(() =>
    options.floor ? undefined : floor.stop(),
  );

  // Room for the fleet: the hub's defaults are 100 live sessions and 200 connections a token.
  const connections = dashboards + options.subscribersPerSession + 16;
  let hub = await startFreshHub(world, 'fleet', [
    ...['--max-sessions', String(sessions + 16)],
    ...['--max-connections', String(connections)],
  ]);
  let watching: Dashboards | null = null;
  const claudes = await claudePids(sessions);
  try {
    const secret = hub.target.secret;
    await sleep(500);
    const rss0 = rssMb(hub.pid);
    await makeSessions(hub, secret, ids, claudes.pids);
    await sleep(Math.min(1000, 200 + sessions));
    const rss1 = rssMb(hub.pid);
    const perSession = ((rss1 - rss0) * 1024) / sessions;
    rows.push({
      section,
      metric: `RSS a session, ${label} idle`,
      value: `${perSession.toFixed(1)} KB (${rss0.toFixed(0)} MB with none, ${rss1.toFixed(0)} MB with ${count(sessions)})`,
      target: '< 1 MB',
      ok: perSession < 1024,
    });

    // The fleet sitting idle: what the hub's periodic work costs it a session.
    const idleMs = (options.idleSeconds ?? 5) * 1000;
    const idleStats = await hubStats(hub);
    const idleCpu0 = cpuMs(hub.pid);
    const idleT0 = performance.now();
    await sleep(idleMs);
    const idleCpu = cpuMs(hub.pid) - idleCpu0;
    const idleSpan = performance.now() - idleT0;
    const perSessionUs = ((idleCpu / idleSpan) * 1e6) / sessions;
    rows.push({
      section,
      metric: `hub CPU, ${label} idle ${(idleSpan / 1000).toFixed(0)} s`,
      value: `${perSessionUs.toFixed(1)} µs a second a session (${((idleCpu / idleSpan) * 100).toFixed(1)}% of a core; ${await idleStats()})`,
    });

    // The load, with dashboards and sessionEvents subscribers.
    const stats = await hubStats(hub);
    const atHub = await runLoad(hub, schedule, ids, secret, options, {
      ready: async () => {
        if (dashboards === 0) return;
        watching = await startDashboards(wsUrl(hub), dashboards, ids);
        await sleep(200 + dashboards * 5);
      },
    });
    // Attention updates settle 100 ms after a change: wait past that, and for the dashboards
    // behind, for the last Stops. With none (`--fleet-dashboards 0`), the hub's own rows only.
    await sleep(500);
    const dashboardsSeen = watching as Dashboards | null;
    await dashboardsSeen?.quiet(Math.min(1000, seconds * 500), 15_000);
    const seen = await dashboardsSeen?.stop();
    const loadSummary = await stats();

    const answers = againstFloor(atHub.load.answers, atFloor.load.answers, 3, 2);
    const failed = (load: FleetLoad) => (load.failed > 0 ? `, ${load.failed} not 200` : '');
    rows.push({
      section,
      metric: `hook answer, ${atRate} p50 / p99 / max`,
      value: `${answers.value} (hub CPU ${atHub.cpu.server.toFixed(2)} cores, floor ${atFloor.cpu.server.toFixed(2)}, load ${atHub.cpu.load.toFixed(2)}${failed(atHub.load)}${failed(atFloor.load)})`,
      target: answers.target,
      ok: answers.ok && atHub.load.failed === 0,
    });

    const fanout = againstFloor(atHub.arrivals, atFloor.arrivals, 3, 2);
    rows.push({
      section,
      metric: `sessionEvents, ${options.subscribersPerSession} sub x ${options.watchedSessions} sessions p50 / p99 / max`,
      value: `hub ${spread(atHub.arrivals)} (${atHub.missing}${count(atHub.arrivals.length)} arrivals), floor ${spread(atFloor.arrivals)} (${atFloor.missing}${count(atFloor.arrivals.length)})`,
      target: fanout.target,
      ok: fanout.ok && atHub.missing === '',
    });

    if (seen) rows.push(...dashboardRows(schedule.session, atHub.load.stopSent, seen, dashboards));
    rows.push({
      section,
      metric: `hub under the load, ${dashboards} dashboards`,
      value: `CPU ${atHub.cpu.server.toFixed(2)} cores; ${loadSummary}`,
    });

    // The dashboard's overview over the fleet, and the least a list of sessions asks.
    for (const [name, query] of [
      ["overview (the dashboard's)", print(OverviewQuery)],
      ['{ sessions { id status } }', '{ sessions { id status } }'],
    ] as const) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const response = await fetch(hub.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        const text = await response.text();
        times.push(performance.now() - t0);
        bytes = text.length;
        if (!response.ok || text.includes('"errors"'))
          throw new Error(`${name} answered ${response.status}: ${text.slice(0, 300)}`);
      }
      rows.push({
        section,
        metric: `Query.sessions, ${label}: ${name} (median of 5)`,
        value: `${ms(percentile(times, 50))} (${mb(bytes)})`,
      });
    }

    // The hub killed and started again: how soon it has its sessions back, each still running.
    const restarted = await hub.restart();
    hub = restarted.hub;
    rows.push(await readopted(hub, restarted.readyMs, ids, label));
    return rows;
  } finally {
    await (watching as Dashboards | null)?.close();
    await hub.stop();
    claudes.stop();
  }
}
