/** The hook POSTs the sections offer a hub: the payload mix, as fast as possible, or at a rate. */
import { performance } from 'node:perf_hooks';
import type { HookClient } from './hook-client.js';

/** The hub being measured, and the client that posts its hooks. */
export interface BenchHub {
  /** Its GraphQL URL. */
  readonly url: string;
  /** The same without /graphql: where /hooks is. */
  readonly base: string;
  readonly pid: number;
  /** Its tmux socket. */
  readonly socket: string;
  readonly hooks: HookClient;
}

/** A live session the load posts to, with the hook secret its claude's hooks use. */
export interface Target {
  readonly id: string;
  readonly secret: string;
}

const bigOutput = 'x'.repeat(50 * 1024);

/** Payloads as Claude Code posts them: mostly small, one PostToolUse in ten with 50 KB of output. */
export function payload(sessionId: string, i: number): string {
  if (i % 10 === 9) {
    return JSON.stringify({
      session_id: sessionId,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat big.log' },
      tool_response: { stdout: bigOutput, stderr: '', interrupted: false },
      tool_use_id: `toolu_${i}`,
      duration_ms: 12,
      i,
    });
  }
  return JSON.stringify({
    session_id: sessionId,
    hook_event_name: i % 2 ? 'PreToolUse' : 'Notification',
    tool_name: 'Bash',
    tool_input: { command: `echo ${i}` },
    message: 'bench',
    i,
  });
}

/** `count` POSTs from `concurrency` workers; latency of each and overall throughput. */
export async function ingest(
  hooks: HookClient,
  target: Target,
  count: number,
  concurrency: number,
) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const status = await hooks.post(target.secret, payload(target.id, i));
        if (status !== 200) throw new Error(`hook POST answered ${status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, perSecond: count / ((performance.now() - started) / 1000) };
}

/** A Notification whose `tag` the subscribers find in each message, to time its arrival. */
export const tagged = (target: Target, tag: string, message: string) =>
  JSON.stringify({ session_id: target.id, hook_event_name: 'Notification', message, tag });

/**
 * POSTs at a fixed rate for `seconds`; notes the send time of each event by its tag, on the clock
 * all threads share (timeOrigin + now), and with `answers`, how long each POST took to answer
 * (in the order the answers came). Tags run from `first`: a later call to the same subscribers
 * starts past an earlier one's, since a tag sent again could meet the earlier send time.
 */
export async function offer(
  hooks: HookClient,
  targets: Target[],
  perSecond: number,
  seconds: number,
  sent: { set(tag: string, at: number): unknown },
  answers?: Pick<number[], 'push'>,
  first = 0,
) {
  const total = Math.round(perSecond * seconds);
  const start = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const target = targets[i % targets.length]!;
    const tag = `${target.id}:${first + i}`;
    const t0 = performance.now();
    sent.set(tag, performance.timeOrigin + t0);
    const answered = hooks.post(target.secret, tagged(target, tag, 'fanout'));
    inFlight.push(answers ? answered.then(() => answers.push(performance.now() - t0)) : answered);
  }
  await Promise.all(inFlight);
  return total;
}
