/**
 * The bench's `readoption` section: how soon a session that kept running takes a message again
 * when its hub comes back, on the same port, on another port with the session's old hook
 * address kept, and on another port whose old one another program took (the session is then
 * relaunched with --resume); and a HEADLESS session, whose claude ends with the hub that holds
 * its pipes and is resumed with --resume. Each: the hub SIGKILLed, started again on the same
 * data dir, then the time from its ready line to the session's IDLE, and the first turn's `ask`.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../harness/free-port.js';
import { gqlData } from '../harness/graphql-http.js';
import { hubArgs, spawnHub, stopHub } from '../harness/hub-process.js';
import type { BenchWorld } from './claude-world.js';
import type { Row } from './row.js';

const modes = {
  'same port': 'same',
  'another port, old hook address kept': 'kept',
  'another port, old one taken: relaunch': 'taken',
  'HEADLESS: claude ended with the hub, resumed': 'headless',
} as const;
type Mode = (typeof modes)[keyof typeof modes];

const ask = (url: string, id: string, text: string) =>
  gqlData(
    url,
    `mutation($id: ID!, $text: String!) { ask(sessionId: $id, text: $text, timeoutSeconds: 60) { __typename } }`,
    { id, text },
  );

/** One restart of one kind: [ms from the ready line to IDLE, ms of the first ask]. */
async function restartOnce(world: BenchWorld, mode: Mode, run: number): Promise<number[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cch-bench-move-'));
  const socket = `cch-bench-move-${process.pid}-${run}-${mode}`;
  const port = await freePort();
  let squatter: Server | null = null;
  let hub = await spawnHub(hubArgs({ port, dataDir, socket }), world.env);
  try {
    const { createSession } = await gqlData(
      hub.url,
      `mutation($cwd: String!, $runtime: SessionRuntime) { createSession(input: { cwd: $cwd, runtime: $runtime }) { id } }`,
      { cwd: world.makeCwd(), runtime: mode === 'headless' ? 'HEADLESS' : 'TMUX' },
    );
    const id = createSession.id as string;
    await ask(hub.url, id, 'hello');
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the transcript holds the turn
    hub.process.kill('SIGKILL');
    await hub.process;
    if (mode === 'taken') {
      squatter = createServer((_, res) => res.writeHead(404).end());
      await new Promise<void>((resolve) => squatter!.listen(port, '127.0.0.1', resolve));
    }
    const samePort = mode === 'same' || mode === 'headless';
    hub = await spawnHub(hubArgs({ port: samePort ? port : 0, dataDir, socket }), world.env);
    const ready = performance.now();
    for (;;) {
      const { session } = await gqlData(
        hub.url,
        `query($id: ID!) { session(id: $id) { status } }`,
        {
          id,
        },
      );
      if (session.status === 'IDLE') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const idle = performance.now() - ready;
    const turnStart = performance.now();
    const { ask: reply } = await ask(hub.url, id, 'run: echo moved');
    if (reply.__typename !== 'AskReply')
      throw new Error(`no reply after the restart: ${JSON.stringify(reply)}`);
    return [idle, performance.now() - turnStart];
  } finally {
    squatter?.close();
    await stopHub(hub, { socket, dataDir });
  }
}

/** Each kind of restart `runs` times, or with `fallbackOnly` just the relaunch and HEADLESS (the smoke run). */
export async function readoption(
  world: BenchWorld,
  options: { readonly runs: number; readonly fallbackOnly: boolean },
): Promise<Row[]> {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rows: Row[] = [];
  for (const [label, mode] of Object.entries(modes)) {
    if (options.fallbackOnly && mode !== 'taken' && mode !== 'headless') continue;
    const times: number[][] = [];
    for (let run = 0; run < options.runs; run++) times.push(await restartOnce(world, mode, run));
    const idle = median(times.map(([ms]) => ms!));
    const turn = median(times.map(([, ms]) => ms!));
    rows.push({
      section: 'hub back (median)',
      metric: label,
      value: `IDLE ${(idle / 1000).toFixed(2)} s, turn ${(turn / 1000).toFixed(2)} s`,
    });
  }
  return rows;
}
