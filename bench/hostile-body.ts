/**
 * The `hostile-body` section: a hook body of `[[[[…]]]]` (before the hub counted nesting ahead
 * of JSON.parse, 32 MiB of it blocked the event loop 7 s and took 1.8 GB) against an ordinary
 * body of the same size (one long tool response), posted in turns to a hub of the section's own
 * while another client asks GET /healthz one request after another. For each: the time to the
 * hub's answer, the longest a /healthz waited (the event loop's longest stall, as a client
 * sees it), and how far the hub's peak memory rose. Target: the hostile body costs the hub no
 * more than the ordinary one, within 1.5x + 50 ms, in answer time and in stall alike.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { BenchWorld } from './claude-world.js';
import { sessionStartBody, startFreshHub } from './fresh-hub.js';
import { rssMb } from './proc-stats.js';
import { ms, percentile, type Row } from './row.js';

/** A PostToolUse body of exactly `bytes`, its tool_response `fill` making up the size. */
function hookBody(
  sessionId: string,
  bytes: number,
  fill: (room: number) => string,
): Buffer<ArrayBuffer> {
  const head = `{"session_id":"${sessionId}","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":`;
  return Buffer.from(`${head}${fill(bytes - head.length - 1)}}`);
}
const nested = (room: number) =>
  `${'['.repeat(Math.floor(room / 2))}${']'.repeat(Math.ceil(room / 2))}`;
const long = (room: number) => `"${'x'.repeat(room - 2)}"`;

interface Posted {
  readonly status: number;
  readonly answerMs: number;
  readonly stallMs: number;
  readonly riseMb: number;
}

/** One body posted while /healthz is asked in a loop; the hub's peak memory reset before. */
async function postWatched(base: string, token: string, pid: number, body: Buffer<ArrayBuffer>) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = rssMb(pid);
  let answered = false;
  let stallMs = 0;
  const probes = (async () => {
    while (!answered) {
      const t0 = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      stallMs = Math.max(stallMs, performance.now() - t0);
    }
  })();
  const t0 = performance.now();
  const response = await fetch(`${base}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  await response.arrayBuffer();
  const answerMs = performance.now() - t0;
  answered = true;
  await probes;
  return { status: response.status, answerMs, stallMs, riseMb: rssMb(pid, 'VmHWM') - before };
}

export async function hostileBody(
  world: BenchWorld,
  options: { readonly bytes: number; readonly rounds: number },
): Promise<Row[]> {
  const hub = await startFreshHub(world, 'hostile');
  const { base, pid, target } = hub;
  try {
    const started = await postWatched(
      base,
      target.secret,
      pid,
      Buffer.from(sessionStartBody(target.id)),
    );
    if (started.status !== 200) throw new Error(`SessionStart answered ${started.status}`);
    const bodies = {
      ordinary: hookBody(target.id, options.bytes, long),
      hostile: hookBody(target.id, options.bytes, nested),
    };
    const runs: Record<keyof typeof bodies, Posted[]> = { ordinary: [], hostile: [] };
    // One of each in turn, hostile first: a round's second body finds the first one's garbage.
    for (let round = 0; round < options.rounds + 1; round++) {
      for (const kind of ['hostile', 'ordinary'] as const) {
        const posted = await postWatched(base, target.secret, pid, bodies[kind]);
        const expected = kind === 'hostile' ? 400 : 200;
        if (posted.status !== expected) throw new Error(`${kind} body answered ${posted.status}`);
        if (round > 0) runs[kind].push(posted); // the first round warms up
      }
    }
    const median = (posted: Posted[], key: 'answerMs' | 'stallMs') => {
      const values = posted.map((one) => one[key]);
      return percentile(values, 50);
    };
    const size = `${(options.bytes / 2 ** 20).toFixed(0)} MiB`;
    const value = (posted: Posted[]) =>
      `${ms(median(posted, 'answerMs'))} / ${ms(median(posted, 'stallMs'))}, peak +${Math.max(...posted.map((one) => one.riseMb)).toFixed(0)} MB`;
    const bound = (key: 'answerMs' | 'stallMs') => 1.5 * median(runs.ordinary, key) + 50;
    const ok =
      median(runs.hostile, 'answerMs') <= bound('answerMs') &&
      median(runs.hostile, 'stallMs') <= bound('stallMs');
    const section = 'hostile body (median)';
    return [
      {
        section,
        metric: `${size} string: answer / longest /healthz`,
        value: value(runs.ordinary),
      },
      {
        section,
        metric: `${size} [[[[…]]]]: answer / longest /healthz`,
        value: value(runs.hostile),
        target: `<= 1.5x ordinary + 50 ms (${ms(bound('answerMs'))} / ${ms(bound('stallMs'))})`,
        ok,
      },
    ];
  } finally {
    await hub.stop();
  }
}
