/**
 * The `ingest` section: hook POSTs to one session as fast as 1, 16 and 64 connections take
 * them (from wrk when installed: a C client leaves the second core to the hub; else from
 * Node), then at 1,000 events/s on one connection; each row also against the floor server
 * (a minimal HTTP server answering `{}`), just before the hub.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { ingest, payload, type BenchHub, type Target } from './hook-load.js';
import { hubStats } from './hub-stats.js';
import { againstFloor, ms, percentile, type Row } from './row.js';

const section = 'hook ingest';

export async function hookIngest(
  hub: BenchHub,
  options: {
    readonly target: Target;
    /** The floor server: each row runs against it too, just before the hub. */
    readonly floor: Pick<BenchHub, 'base' | 'hooks'>;
    /** POSTs per concurrency from Node. */
    readonly count: number;
    /** How long the fixed rate runs; wrk runs twice as long per concurrency. */
    readonly rateSeconds: number;
    /** Use wrk if it is installed. */
    readonly wrk: boolean;
    /** Where wrk's script is written. */
    readonly scratchDir: string;
  },
): Promise<Row[]> {
  const { target, floor } = options;
  const rows: Row[] = [];
  const useWrk =
    options.wrk && (await execa('sh', ['-c', 'command -v wrk'], { reject: false })).exitCode === 0;
  const client = useWrk ? 'wrk' : 'node';
  for (const concurrency of [1, 16, 64]) {
    const run = (server: Pick<BenchHub, 'base' | 'hooks'>) =>
      useWrk
        ? ingestWithWrk(
            server.base,
            target,
            concurrency,
            options.rateSeconds * 2,
            options.scratchDir,
          )
        : ingest(server.hooks, target, options.count, concurrency).then(
            ({ latencies, perSecond }) => ({
              p50: percentile(latencies, 50),
              p99: percentile(latencies, 99),
              perSecond,
            }),
          );
    const [atFloor, atHub] = [await run(floor), await run(hub)];
    rows.push({
      section,
      metric: `c=${concurrency} p50 / p99 (${client})`,
      value: `hub ${ms(atHub.p50)} / ${ms(atHub.p99)}, floor ${ms(atFloor.p50)} / ${ms(atFloor.p99)}`,
    });
    rows.push({
      section,
      metric: `c=${concurrency} throughput (${client})`,
      value: `hub ${Math.round(atHub.perSecond)}, floor ${Math.round(atFloor.perSecond)} events/s`,
      ...(concurrency === 64 ? { target: '>= 10000 events/s', ok: atHub.perSecond >= 10_000 } : {}),
    });
  }
  const paced = async (server: Pick<BenchHub, 'hooks'>) => {
    const latencies: number[] = [];
    const start = performance.now();
    const total = Math.round(1000 * options.rateSeconds);
    for (let i = 0; i < total; i++) {
      const due = start + i;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      await server.hooks.post(target.secret, payload(target.id, i));
      latencies.push(performance.now() - t0);
    }
    return latencies;
  };
  const atFloor = await paced(floor);
  const stats = await hubStats(hub);
  const atHub = await paced(hub);
  const compared = againstFloor(atHub, atFloor, 3, 2);
  rows.push({
    section,
    metric: 'at 1,000 events/s p50 / p99 / max',
    ...compared,
    value: `${compared.value} (hub: ${await stats()})`,
  });
  return rows;
}

/** wrk against POST /hooks with the same payload mix (one 50 KB PostToolUse in ten). */
async function ingestWithWrk(
  base: string,
  target: Target,
  concurrency: number,
  seconds: number,
  dir: string,
) {
  const bodies = Array.from({ length: 10 }, (_, i) => payload(target.id, i));
  const script = path.join(dir, 'post.lua');
  writeFileSync(
    script,
    [
      // The payloads are ASCII, so a JSON string literal is a Lua string literal too.
      `local bodies = { ${bodies.map((body) => JSON.stringify(body)).join(', ')} }`,
      // Each request is formatted once, not per send, so wrk's one thread is not the limit.
      'local requests = {}',
      'local i = 0',
      'init = function()',
      '  for n, body in ipairs(bodies) do',
      `    requests[n] = wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer ${target.secret}" }, body)`,
      '  end',
      'end',
      'request = function()',
      '  i = i % #requests + 1',
      '  return requests[i]',
      'end',
      '',
    ].join('\n'),
  );
  const { stdout } = await execa('wrk', [
    '-t',
    '1',
    '-c',
    String(concurrency),
    '-d',
    `${Math.max(1, Math.round(seconds))}s`,
    '--latency',
    '-s',
    script,
    `${base}/hooks`,
  ]);
  const latency = (label: string) => {
    const match = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
    if (!match) return NaN;
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  if (/Non-2xx/.test(stdout)) throw new Error(`wrk saw errors:\n${stdout}`);
  return {
    p50: latency('50'),
    p99: latency('99'),
    perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
  };
}
