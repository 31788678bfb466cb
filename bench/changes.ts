/**
 * The `changes` section: what a turn's changes cost. In a git checkout the hub snapshots the
 * session's work tree (`git add --all` into an index of its own, then `git write-tree`) at each
 * UserPromptSubmit, after each PostToolUse of a tool that may change files, and at Stop, and
 * the hook's answer waits for that snapshot; `Turn.changes` diffs the turn's first and last
 * snapshots and the spans between them (src/changes/). Measured on a hub of the section's own,
 * with a git repository of `files` files of a few KB in nested folders, committed, made in a
 * temporary folder, and sessions made by their first events (posted with the hub's hook token,
 * as a claude started by hand posts them; no claude runs):
 * - the answer to a Bash call's PostToolUse, one at a time, in a folder that is no checkout
 *   (no snapshot), in the repository with nothing changed since the last snapshot, and in the
 *   repository with one file written by the bench before the PostToolUse is posted; alternated;
 * - `Turn.changes` over GraphQL, diffs and calls included, for a turn of 5 Bash calls that wrote
 *   10 of the files (the bench writes them between each call's PreToolUse and PostToolUse), and
 *   for a turn of one Bash call that rewrote every file (and that call's PostToolUse answer).
 * Target: a turn's changes in the repository within 200 ms, what a person would not notice.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gqlData } from '../harness/graphql-http.js';
import type { BenchWorld } from './claude-world.js';
import { startFreshHub, type FreshHub } from './fresh-hub.js';
import { ms, percentile, spread, type Row } from './row.js';

const section = "a turn's changes";
/** What a person would not notice. */
const targetMs = 200;

interface Options {
  /** Files in the repository. */
  readonly files: number;
  /** PostToolUse answers timed per case. */
  readonly calls: number;
  /** Turn.changes queries of the 10-file turn. */
  readonly queries: number;
  /** Turn.changes queries of the turn that changed every file. */
  readonly wholeQueries: number;
}

const cases = ['plain', 'repo', 'repoChanged'] as const;
type Case = (typeof cases)[number];
const caseNames: Record<Case, string> = {
  plain: 'no checkout (no snapshot)',
  repo: 'checkout, nothing changed',
  repoChanged: 'checkout, 1 file written',
};

/** The fields a client reads of a change. */
const changesQuery = `query($id: ID!) { session(id: $id) { turns(last: 1) { number status changes {
  path oldPath kind diff truncated actions { id toolName } approvedBy { kind toolUseId }
} } } }`;

interface Change {
  readonly path: string;
  readonly kind: string;
  readonly diff: string | null;
  readonly truncated: boolean;
  readonly actions: readonly { id: string; toolName: string }[];
}

export async function changes(world: BenchWorld, options: Options): Promise<Row[]> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'cch-bench-changes-'));
  let hub: FreshHub | undefined;
  try {
    const repo = path.join(scratch, 'repo');
    const plain = path.join(scratch, 'plain');
    mkdirSync(plain);
    const files = makeRepository(repo, options.files);
    if (inCheckout(plain)) throw new Error(`${plain} is in a git checkout: no folder without one`);
    hub = await startFreshHub(world, 'changes');
    const hookRows = await hookAnswers(hub, { repo, plain, files }, options.calls);
    const turnRows = await turnChanges(hub, { repo, files }, options);
    return [...hookRows, ...turnRows];
  } finally {
    await hub?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** One session made by hand: its events, posted with the hub's hook token. */
class Session {
  readonly id = randomUUID();
  readonly #hub: FreshHub;
  readonly cwd: string;
  #calls = 0;

  constructor(hub: FreshHub, cwd: string) {
    this.#hub = hub;
    this.cwd = cwd;
  }

  /** Posts one event; resolves with the answer's time in ms. */
  async post(event: string, fields: Record<string, unknown>): Promise<number> {
    const body = JSON.stringify({
      session_id: this.id,
      transcript_path: path.join(tmpdir(), `${this.id}.jsonl`),
      cwd: this.cwd,
      permission_mode: 'default',
      hook_event_name: event,
      ...fields,
    });
    const t0 = performance.now();
    const status = await this.#hub.hooks.post(this.#hub.target.secret, body);
    const took = performance.now() - t0;
    if (status !== 200) throw new Error(`${event} answered ${status}`);
    return took;
  }

  start = () => this.post('SessionStart', { source: 'startup' });
  prompt = (prompt: string) => this.post('UserPromptSubmit', { prompt });
  stop = (answer: string) =>
    this.post('Stop', { stop_hook_active: false, last_assistant_message: answer });

  /**
   * A Bash call: its PreToolUse, then `work` (what the command did), then its PostToolUse;
   * resolves with the call's id and its PostToolUse's answer time.
   */
  async bash(command: string, work: () => void): Promise<{ id: string; tookMs: number }> {
    const id = `toolu_bench_${String(++this.#calls).padStart(6, '0')}`;
    const call = {
      tool_name: 'Bash',
      tool_input: { command, description: command },
      tool_use_id: id,
    };
    await this.post('PreToolUse', call);
    work();
    const tookMs = await this.post('PostToolUse', {
      ...call,
      tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false },
    });
    return { id, tookMs };
  }
}

/** The Bash PostToolUse's answer, one at a time, in each case, alternated call by call. */
async function hookAnswers(
  hub: FreshHub,
  where: { repo: string; plain: string; files: readonly string[] },
  calls: number,
): Promise<Row[]> {
  const inRepo = new Session(hub, where.repo);
  const inPlain = new Session(hub, where.plain);
  for (const session of [inRepo, inPlain]) {
    await session.start();
    await session.prompt('run the tests');
  }
  const latencies: Record<Case, number[]> = { plain: [], repo: [], repoChanged: [] };
  let written = 0;
  const call = async (name: Case) => {
    const session = name === 'plain' ? inPlain : inRepo;
    const work =
      name === 'repoChanged'
        ? () => touchFile(where.repo, where.files[(written++ * 37) % where.files.length]!, written)
        : () => {};
    return (await session.bash('npm test -- --run', work)).tookMs;
  };
  // A warm-up: the repository session's first snapshot reads its index.
  for (let i = 0; i < 5; i++) for (const name of cases) await call(name);
  for (let i = 0; i < calls; i++) {
    for (const name of i % 2 === 0 ? cases : [...cases].reverse()) {
      latencies[name].push(await call(name));
    }
  }
  for (const session of [inRepo, inPlain]) await session.stop('done');
  const plainP50 = percentile(latencies.plain, 50);
  const plainP99 = percentile(latencies.plain, 99);
  const files = where.files.length.toLocaleString('en');
  return cases.map((name) => {
    const values = latencies[name];
    const added =
      name === 'plain'
        ? ''
        : `; snapshot adds ${ms(percentile(values, 50) - plainP50)} / ${ms(percentile(values, 99) - plainP99)}`;
    return {
      section,
      metric: `Bash PostToolUse answer, ${caseNames[name]}: p50 / p99 / max`,
      value: `${spread(values)}${added}${name === 'plain' ? '' : ` (${files} files)`}`,
    };
  });
}

/** Turn.changes for a turn that wrote 10 files, and for one that rewrote them all. */
async function turnChanges(
  hub: FreshHub,
  where: { repo: string; files: readonly string[] },
  options: Options,
): Promise<Row[]> {
  const session = new Session(hub, where.repo);
  await session.start();
  const query = async () => {
    const t0 = performance.now();
    const { session: read } = await gqlData<{
      session: { turns: { number: number; status: string; changes: Change[] }[] };
    }>(hub.url, changesQuery, { id: session.id });
    return { took: performance.now() - t0, turn: read.turns[0]! };
  };
  const total = where.files.length;

  // 10 files, two by each of 5 calls, spread over the folders.
  const written = new Map<string, string>();
  await session.prompt('fix the parser and its tests');
  for (let call = 0; call < 5; call++) {
    const mine = [0, 1].map((k) => where.files[((call * 2 + k) * 97 + 13) % total]!);
    const { id } = await session.bash(`sed -i s/old/new/ ${mine.join(' ')}`, () => {
      for (const file of mine) touchFile(where.repo, file, call + 1);
    });
    for (const file of mine) written.set(file, id);
  }
  await session.stop('Fixed the parser; the tests pass.');
  const first = await query();
  checkTen(first.turn, written);
  const timings: number[] = [];
  for (let i = 0; i < options.queries; i++) timings.push((await query()).took);

  // Every file, by one call; the trees before and after, for git's own diff of them.
  const before = treeOf(where.repo);
  await session.prompt('rename the field everywhere');
  const { id, tookMs: wholeHookMs } = await session.bash(
    "sed -i 's/old/new/' $(git ls-files)",
    () => {
      for (const file of where.files) touchFile(where.repo, file, 100_000);
    },
  );
  const after = treeOf(where.repo);
  await session.stop('Renamed it in every file.');
  const firstWhole = await query();
  const turn = firstWhole.turn;
  if (turn.number !== 2 || turn.changes.length !== total) {
    throw new Error(`the second turn has ${turn.changes.length} changes, not ${total}`);
  }
  if (!turn.changes.every((change) => change.actions.some((action) => action.id === id))) {
    throw new Error('a change of the second turn does not name its Bash call');
  }
  const shown = turn.changes.filter((change) => change.diff !== null).length;
  const wholeTimings: number[] = [];
  const gitTimings: number[] = [];
  for (let i = 0; i < options.wholeQueries; i++) {
    wholeTimings.push((await query()).took);
    gitTimings.push(gitPatchMs(where.repo, before, after));
  }

  const against = (values: number[]) => ({
    target: `p99 < ${targetMs} ms`,
    ok: percentile(values, 99) < targetMs,
  });
  const repoSize = `${total.toLocaleString('en')}-file checkout`;
  return [
    {
      section,
      metric: `Turn.changes, 10 files by 5 calls, ${repoSize}: p50 / p99 / max of ${timings.length}`,
      value: `${spread(timings)} (first read ${ms(first.took)})`,
      ...against(timings),
    },
    {
      section,
      metric: `Turn.changes, all ${total.toLocaleString('en')} files by 1 call: p50 / p99 / max of ${wholeTimings.length}`,
      value: `${spread(wholeTimings)} (first read ${ms(firstWhole.took)}; ${shown.toLocaleString('en')} diffs within the 1 MB bound; git diff-tree -p alone ${ms(percentile(gitTimings, 50))})`,
      ...against(wholeTimings),
    },
    {
      section,
      metric: `Bash PostToolUse answer after it rewrote all ${total.toLocaleString('en')} files`,
      value: ms(wholeHookMs),
    },
  ];
}

/** The 10-file turn's changes are its 10 files, each with the call that wrote it. */
function checkTen(
  turn: { number: number; status: string; changes: Change[] },
  written: ReadonlyMap<string, string>,
): void {
  const problem =
    turn.number !== 1 || turn.status !== 'COMPLETED'
      ? `turn ${turn.number} is ${turn.status}`
      : turn.changes.length !== written.size
        ? `${turn.changes.length} changes, not ${written.size}`
        : turn.changes.find(
            (change) =>
              change.kind !== 'MODIFY' ||
              change.diff === null ||
              change.actions.length !== 1 ||
              change.actions[0]!.id !== written.get(change.path),
          );
  if (problem) throw new Error(`the 10-file turn's changes: ${JSON.stringify(problem)}`);
}

/** The work tree as a tree, as a snapshot takes it, through an index of the bench's own. */
function treeOf(top: string): string {
  const env = {
    ...withoutGit(process.env),
    LC_ALL: 'C',
    GIT_INDEX_FILE: path.join(top, '..', 'bench.index'),
  };
  execFileSync('git', ['add', '--all'], { cwd: top, env, stdio: 'ignore' });
  return execFileSync('git', ['write-tree'], { cwd: top, env, encoding: 'utf8' }).trim();
}

/** How long git itself takes for the patch Turn.changes reads (the hub's diff options), in ms. */
function gitPatchMs(top: string, from: string, to: string): number {
  const t0 = performance.now();
  execFileSync(
    'git',
    ['diff-tree', '-p', '-r', '-M', '--no-color', '--no-ext-diff', '--no-textconv', from, to],
    {
      cwd: top,
      env: { ...withoutGit(process.env), LC_ALL: 'C' },
      maxBuffer: 2 ** 26,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return performance.now() - t0;
}

/** Whether `folder` is in a git checkout. */
function inCheckout(folder: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: folder, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A repository of `count` text files of 2 to 4 KB, 10 per folder in folders two deep
 * (`src/m03/p07/file-05.ts`), committed; returns their paths from its top.
 */
function makeRepository(top: string, count: number): string[] {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = path.join(
      'src',
      `m${String(Math.floor(i / 100)).padStart(2, '0')}`,
      `p${String(Math.floor(i / 10) % 10).padStart(2, '0')}`,
      `file-${String(i % 10).padStart(2, '0')}.ts`,
    );
    mkdirSync(path.join(top, path.dirname(name)), { recursive: true });
    const lines = 40 + ((i * 7) % 40);
    const text = Array.from(
      { length: lines },
      (_, line) =>
        `export const value${line} = compute('old', ${i}, ${line}); // line ${line} of ${name}\n`,
    ).join('');
    writeFileSync(path.join(top, name), text);
    files.push(name);
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: top,
      env: { ...withoutGit(process.env), LC_ALL: 'C' },
      stdio: 'ignore',
    });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'the project');
  return files;
}

const withoutGit = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith('GIT_')),
  );

/** Changes one line of a file (the line `round` says), as a command's edit would. */
function touchFile(top: string, file: string, round: number): void {
  const full = path.join(top, file);
  const lines = readFileSync(full, 'utf8').split('\n');
  const at = round % Math.max(1, lines.length - 1);
  lines[at] = `export const changed${round} = compute('new', ${round}); // edited`;
  writeFileSync(full, lines.join('\n'));
}
