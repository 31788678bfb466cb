/**
 * A paced client as a new user writes one, against a hub just started, and against the floor
 * server with the same client: Notification hooks at a set rate over keep-alive, one graphql-ws
 * subscriber. Each flag changes one thing from the first-seconds section's setup:
 *
 *   --session hook|real     a session made by its first event with the hub's hook token (the
 *                           bench's), or one made with createSession, a real claude just started
 *   --client raw|fetch|http the bench's raw-TCP HookClient, node's fetch (undici), or node:http
 *                           with a keep-alive agent
 *   --payload bench|claude  the bench's tagged Notification, or one as claude sends it
 *   --start bench|npm       the bench's spawn (--retain-events 0, its own claude config dir), or
 *                           the hub's defaults as `npm start` runs it (compiled, same node flag)
 *   --from ready|started    load from the ready line (or createSession's answer), or once the
 *                           real session's claude is up (its SessionStart came, the machine quiet)
 *   --rate N --seconds S    1,500/s for 8 s unless given
 *
 * Prints the hub's and the floor's hook answer p50 / p99 / max and the hub's metrics summary.
 * Run: node --import tsx bench/paced-client.ts --session real --client fetch
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../harness/free-port.js';
import { gqlData } from '../harness/graphql-http.js';
import { hubArgs, stopHub } from '../harness/hub-process.js';
import { hookSecret } from '../harness/session-secret.js';
import { startBenchWorld, type BenchWorld } from './claude-world.js';
import { sessionStartBody, spawnBenchHub } from './fresh-hub.js';
import { startFloor } from './floor.js';
import { HookClient } from './hook-client.js';
import { hubStats } from './hub-stats.js';
import { cpuMs, machineQuiet } from './proc-stats.js';
import { againstFloor } from './row.js';
import { claudeNotification, treeCpuMs } from './user-client.js';
import { SentTimes, startSubscribers } from './subscribers-thread.js';

const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
};
const options = {
  session: flag('session', 'hook') as 'hook' | 'real',
  client: flag('client', 'raw') as 'raw' | 'fetch' | 'http',
  payload: flag('payload', 'bench') as 'bench' | 'claude',
  start: flag('start', 'bench') as 'bench' | 'npm',
  from: flag('from', 'ready') as 'ready' | 'started',
  rate: Number(flag('rate', '1500')),
  seconds: Number(flag('seconds', '8')),
};

/** Posts a hook body with a secret; resolves with the status once the answer is read. */
type Post = (secret: string, body: string) => Promise<number>;

function client(base: string): { post: Post; close(): void } {
  const url = `${base}/hooks`;
  if (options.client === 'raw') {
    const hooks = new HookClient(base);
    return { post: (secret, body) => hooks.post(secret, body), close: () => hooks.close() };
  }
  if (options.client === 'fetch') {
    return {
      post: async (secret, body) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body,
        });
        await res.text();
        return res.status;
      },
      close: () => {},
    };
  }
  const agent = new Agent({ keepAlive: true });
  return {
    post: (secret, body) =>
      new Promise((resolve, reject) => {
        const req = request(
          url,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${secret}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/** A Notification with the tag the subscriber times it by, as the bench's or as claude's. */
function body(id: string, tag: string, cwd: string): string {
  if (options.payload === 'bench') {
    return JSON.stringify({
      session_id: id,
      hook_event_name: 'Notification',
      message: 'fanout',
      tag,
    });
  }
  return claudeNotification({ id, secret: '' }, tag, cwd);
}

/** The paced load: at each due time one POST; answers timed from the POST. */
async function offer(post: Post, target: { id: string; secret: string }, cwd: string) {
  const sent = new SentTimes();
  const answers: number[] = [];
  const total = Math.round(options.rate * options.seconds);
  const inFlight: Promise<unknown>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / options.rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const tag = `${target.id}:${i}`;
    const t0 = performance.now();
    sent.set(tag, performance.timeOrigin + t0);
    inFlight.push(
      post(target.secret, body(target.id, tag, cwd)).then((status) => {
        if (status !== 200) throw new Error(`hook answered ${status}`);
        answers.push(performance.now() - t0);
      }),
    );
  }
  await Promise.all(inFlight);
  return { answers, sent };
}

async function measure(
  url: string,
  base: string,
  target: { id: string; secret: string },
  cwd: string,
  first: boolean,
) {
  const hooks = client(base);
  try {
    if (first) {
      const status = await hooks.post(target.secret, sessionStartBody(target.id));
      if (status !== 200) throw new Error(`SessionStart answered ${status}`);
    }
    const sent = new SentTimes();
    const watching = await startSubscribers(
      { url: url.replace(/^http/, 'ws'), sessionIds: [target.id], subscribers: 1 },
      sent,
    );
    try {
      const { answers, sent: times } = await offer(hooks.post, target, cwd);
      void times;
      return answers;
    } finally {
      await watching.stop();
    }
  } finally {
    hooks.close();
  }
}

/** The CPU the client, the server and (with a tmux socket) the session's claude used meanwhile. */
async function cpuOver<T>(server: number, socket: string | null, work: () => Promise<T>) {
  const tmuxPid = async () => {
    if (!socket) return null;
    const { execa } = await import('execa');
    const { stdout } = await execa('tmux', ['-L', socket, 'display', '-p', '#{pid}'], {
      reject: false,
    });
    return Number(stdout) || null;
  };
  const tmux = await tmuxPid();
  const self = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const before = [self(), cpuMs(server), tmux ? treeCpuMs(tmux) : 0];
  const t0 = performance.now();
  const result = await work();
  const span = performance.now() - t0;
  const after = [self(), cpuMs(server), tmux ? treeCpuMs(tmux) : 0];
  const [client, srv, claude] = after.map((v, i) => v - before[i]!);
  const pct = (v: number) => `${((v / span) * 100).toFixed(0)}%`;
  process.stderr.write(
    `cpu over ${span.toFixed(0)} ms: client ${pct(client!)}, server ${pct(srv!)}, tmux+claude ${pct(claude!)}\n`,
  );
  return result;
}

async function atFloor(): Promise<number[]> {
  await machineQuiet(5_000);
  const floor = await startFloor();
  try {
    floor.hooks.close();
    return await measure(
      floor.url,
      floor.base,
      { id: randomUUID(), secret: 'floor' },
      '/tmp',
      true,
    );
  } finally {
    await floor.stop();
  }
}

async function atHub(world: BenchWorld) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cch-paced-'));
  const socket = `cch-paced-${process.pid}`;
  await machineQuiet(5_000);
  const args = hubArgs({ port: await freePort(), dataDir, socket });
  const env =
    options.start === 'bench'
      ? { ...world.env, CLAUDE_CONFIG_DIR: path.join(dataDir, 'claude') }
      : world.env;
  if (options.session === 'real') env.CLAUDE_CONFIG_DIR = world.env.CLAUDE_CONFIG_DIR;
  const hub = await spawnBenchHub(
    options.start === 'bench' ? [...args, '--retain-events', '0'] : args,
    env,
  );
  const base = hub.url.replace(/\/graphql$/, '');
  try {
    let target: { id: string; secret: string };
    let cwd = '/tmp';
    if (options.session === 'hook') {
      target = {
        id: randomUUID(),
        secret: readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim(),
      };
    } else {
      cwd = world.makeCwd();
      const t0 = performance.now();
      const { createSession } = await gqlData(
        hub.url,
        'mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }',
        { cwd },
      );
      const made = createSession as { id: string; tmuxSession: string };
      process.stderr.write(`createSession ${(performance.now() - t0).toFixed(0)} ms\n`);
      target = { id: made.id, secret: await hookSecret(socket, made.tmuxSession) };
      if (options.from === 'started') {
        for (;;) {
          const { session } = await gqlData(
            hub.url,
            'query($id: ID!) { session(id: $id) { status } }',
            {
              id: made.id,
            },
          );
          if ((session as { status: string }).status !== 'STARTING') break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        process.stderr.write(`claude up ${(performance.now() - t0).toFixed(0)} ms\n`);
        await machineQuiet(15_000);
      }
    }
    const stats = await hubStats({ base, pid: hub.process.pid! });
    const answers = await cpuOver(hub.process.pid!, socket, () =>
      measure(hub.url, base, target, cwd, options.session === 'hook'),
    );
    return { answers, stats: await stats() };
  } finally {
    await stopHub(hub, { socket, dataDir });
  }
}

const world = await startBenchWorld();
try {
  const floor = await atFloor();
  const hub = await atHub(world);
  const row = againstFloor(hub.answers, floor, 3, 2);
  process.stdout.write(
    `${JSON.stringify(options)}\nhook answer ${row.value}; ${row.target} ${row.ok ? 'met' : 'MISSED'}\nhub: ${hub.stats}\n`,
  );
} finally {
  await world.close();
}
