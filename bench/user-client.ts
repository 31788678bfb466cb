/**
 * A hook client as a new user writes one: node's own fetch (undici, kept alive), each answer read
 * whole, paced at a rate, posting Notifications shaped as claude sends them. Against the bench's
 * raw-TCP HookClient it costs the client's core more a request, which on a 2-core machine the
 * hub and a starting claude share; the first-seconds section's user row measures with it.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import type { Target } from './hook-load.js';

export interface PostHook {
  /** Resolves with the answer's status once its body is read. */
  post(secret: string, body: string): Promise<number>;
}

/**
 * POST /hooks with node's fetch, as a user's script does. A request the server reset (a kept-alive
 * connection it closed as the request went out) is sent again, once, and counted in `resets`:
 * a user's client would see it fail.
 */
export function fetchHooks(base: string): PostHook & { resets(): number } {
  let resets = 0;
  const once = async (secret: string, body: string) => {
    const res = await fetch(`${base}/hooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body,
    });
    await res.text();
    return res.status;
  };
  return {
    async post(secret, body) {
      try {
        return await once(secret, body);
      } catch (error) {
        const code = ((error as Error).cause as { code?: string } | undefined)?.code;
        if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw error;
        resets += 1;
        return await once(secret, body);
      }
    },
    resets: () => resets,
  };
}

/** A Notification as claude posts it, with the subscriber's timing tag. */
export const claudeNotification = (target: Target, tag: string, cwd: string) =>
  JSON.stringify({
    session_id: target.id,
    transcript_path: path.join(cwd, '.claude', `${target.id}.jsonl`),
    cwd,
    hook_event_name: 'Notification',
    message: 'Claude needs your permission to use Bash',
    notification_type: 'permission_prompt',
    // Not claude's: the subscribers find each event's tag as this field.
    tag,
  });

/**
 * POSTs `body(tag)` at `perSecond` for `seconds`, each send time noted in `sent` by its tag and
 * each answer's time from its POST in `answers`; resolves with the count once all are answered.
 */
export async function pacedPosts(
  hooks: PostHook,
  target: Target,
  load: { readonly perSecond: number; readonly seconds: number },
  sent: { set(tag: string, at: number): unknown },
  answers: number[],
  body: (tag: string) => string,
): Promise<number> {
  const total = Math.round(load.perSecond * load.seconds);
  const start = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / load.perSecond - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const tag = `${target.id}:${i}`;
    const t0 = performance.now();
    sent.set(tag, performance.timeOrigin + t0);
    inFlight.push(
      hooks.post(target.secret, body(tag)).then((status) => {
        if (status !== 200) throw new Error(`hook POST answered ${status}`);
        answers.push(performance.now() - t0);
      }),
    );
  }
  await Promise.all(inFlight);
  return total;
}

/**
 * CPU time a process and its descendants have used so far, in ms: each one's user + system time
 * and that of the children it has reaped (a hook's forwarder that already exited, say).
 */
export function treeCpuMs(root: number): number {
  const parents = new Map<number, number>();
  const used = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parents.set(Number(name), Number(fields[1]));
      used.set(
        Number(name),
        fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0),
      );
    } catch {
      // It exited meanwhile.
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of tree) ticks += used.get(pid) ?? 0;
  return ticks * 10;
}
