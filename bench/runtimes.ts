/**
 * The `runtimes` section: sessions and turns on TMUX and on HEADLESS, each through the hub and
 * by hand (the same claude command and hooks without the hub: bench/bare-claude.ts), alternated
 * in one run after a warm-up of each. A start runs to claude's SessionStart (createSession
 * returns then). A turn through the hub is sendMessage to the completed turn on the turns
 * subscription; by hand it is typing the text and Enter in tmux to the Stop hook, or writing the
 * user line to the result line. The difference is the hub's part: delivering the message,
 * confirming it, and telling the subscriber.
 */
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { gqlData } from '../harness/graphql-http.js';
import {
  bareHeadlessClaude,
  bareHooks,
  bareTmuxClaude,
  tmuxPromptShown,
  type BareHooks,
} from './bare-claude.js';
import type { BenchWorld } from './claude-world.js';
import type { BenchHub } from './hook-load.js';
import { machineQuiet } from './proc-stats.js';
import { ms, percentile, type Row } from './row.js';

const section = 'TMUX vs HEADLESS (median)';
const runtimes = ['TMUX', 'HEADLESS'] as const;
type Runtime = (typeof runtimes)[number];

/** One session's start and its turns, in ms. */
interface Sample {
  readonly start: number;
  readonly turns: number[];
}

const timed = async (work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

/** Turns one after the other, each once the machine is quiet. */
async function turnTimes(count: number, turn: (text: string) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await machineQuiet(2_000);
    times.push(await timed(() => turn(`turn ${i}`)));
  }
  return times;
}

/** A session through the hub: its start, then turns waited for on the turns subscription. */
async function throughHub(hub: BenchHub, world: BenchWorld, runtime: Runtime, turns: number) {
  let session = { id: '', createdAt: '', tmuxSession: '' };
  const start = await timed(async () => {
    const { createSession } = await gqlData(
      hub.url,
      'mutation($cwd: String!, $runtime: SessionRuntime) { createSession(input: { cwd: $cwd, runtime: $runtime }) { id createdAt tmuxSession } }',
      { cwd: world.makeCwd(), runtime },
    );
    session = createSession;
  });
  if (runtime === 'TMUX') await tmuxPromptShown(hub.socket, session.tmuxSession);
  const client = createClient({
    url: hub.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const completed: (() => void)[] = [];
  const unsubscribe = client.subscribe(
    {
      query:
        'subscription($id: ID, $after: DateTime) { turns(sessionId: $id, after: $after) { number } }',
      variables: { id: session.id, after: session.createdAt },
    },
    { next: () => completed.shift()?.(), error: () => {}, complete: () => {} },
  );
  try {
    const times = await turnTimes(turns, async (text) => {
      const done = new Promise<void>((resolve) => completed.push(resolve));
      await gqlData(
        hub.url,
        'mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }',
        { id: session.id, text },
      );
      await done;
    });
    return { start, turns: times };
  } finally {
    unsubscribe();
    await client.dispose();
    await gqlData(hub.url, 'mutation($id: ID!) { stopSession(id: $id) { id } }', {
      id: session.id,
    });
  }
}

/** The same by hand: claude in tmux typed into, or headless with user lines. */
async function byHand(
  hub: BenchHub,
  world: BenchWorld,
  hooks: BareHooks,
  runtime: Runtime,
  turns: number,
  run: number,
): Promise<Sample> {
  const started = hooks.next('SessionStart');
  if (runtime === 'HEADLESS') {
    let claude: ReturnType<typeof bareHeadlessClaude> | null = null;
    const start = await timed(async () => {
      claude = bareHeadlessClaude(world, hooks);
      await started;
    });
    try {
      return { start, turns: await turnTimes(turns, (text) => claude!.turn(text)) };
    } finally {
      await claude!.stop();
    }
  }
  const name = `bare-turns-${run}`;
  let claude: Awaited<ReturnType<typeof bareTmuxClaude>> | null = null;
  const start = await timed(async () => {
    claude = await bareTmuxClaude(world, hub.socket, hooks, name);
    await started;
  });
  await tmuxPromptShown(hub.socket, name);
  try {
    const times = await turnTimes(turns, async (text) => {
      const stopped = hooks.next('Stop');
      await claude!.type(text);
      await stopped;
    });
    return { start, turns: times };
  } finally {
    await claude!.kill();
  }
}

export async function runtimeRows(
  hub: BenchHub,
  options: { readonly world: BenchWorld; readonly sessions: number; readonly turns: number },
): Promise<Row[]> {
  const { world } = options;
  const hooks = await bareHooks();
  const samples = new Map<string, Sample[]>();
  const add = (key: string, sample: Sample) =>
    samples.set(key, [...(samples.get(key) ?? []), sample]);
  try {
    for (let run = -1; run < options.sessions; run++) {
      for (const runtime of runtimes) {
        await machineQuiet(5_000);
        const hand = await byHand(hub, world, hooks, runtime, options.turns, run + 1);
        await machineQuiet(5_000);
        const hubbed = await throughHub(hub, world, runtime, options.turns);
        if (run < 0) continue; // the warm-up
        add(`${runtime} hand`, hand);
        add(`${runtime} hub`, hubbed);
      }
    }
  } finally {
    hooks.close();
  }
  return runtimes.flatMap((runtime): Row[] => {
    const [hand, hubbed] = ['hand', 'hub'].map((way) => samples.get(`${runtime} ${way}`) ?? []);
    const median = (list: Sample[], of: (s: Sample) => number[]) =>
      percentile(list.flatMap(of), 50);
    const [handStart, hubStart] = [hand, hubbed].map((list) => median(list!, (s) => [s.start]));
    const [handTurn, hubTurn] = [hand, hubbed].map((list) => median(list!, (s) => s.turns));
    const plus = (hubbed: number, bare: number) => {
      const sign = hubbed >= bare ? '+' : '-';
      const percent = Math.abs((hubbed / bare - 1) * 100).toFixed(0);
      return `${ms(hubbed)} (${sign}${ms(Math.abs(hubbed - bare))}, ${sign}${percent}%)`;
    };
    return [
      { section, metric: `${runtime}: start by hand, to SessionStart`, value: ms(handStart!) },
      {
        section,
        metric: `${runtime}: createSession, to SessionStart`,
        value: plus(hubStart!, handStart!),
      },
      { section, metric: `${runtime}: a turn by hand`, value: ms(handTurn!) },
      {
        section,
        metric: `${runtime}: a turn through the hub`,
        value: plus(hubTurn!, handTurn!),
      },
    ];
  });
}
