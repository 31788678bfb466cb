/**
 * The `per-event` section: what claude waits for per event with each way of reaching the hub:
 * an HTTP hook (a fresh connection each time), hooks/forward.sh run as a command hook
 * (sh + curl), and a command hook in python3 + urllib.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { payload, type BenchHub, type Target } from './hook-load.js';
import { ms, percentile, type Row } from './row.js';

const section = 'per event (median)';
const forwarder = fileURLToPath(new URL('../hooks/forward.sh', import.meta.url));

export async function perEvent(
  hub: BenchHub,
  options: {
    readonly target: Target;
    /** Runs of each forwarder process; the HTTP hook runs five times as many. */
    readonly count: number;
    /** Where the python forwarder is written. */
    readonly scratchDir: string;
  },
): Promise<Row[]> {
  const { base } = hub;
  const { target, count } = options;
  const body = payload(target.id, 0);
  const http: number[] = [];
  for (let i = 0; i < count * 5; i++) {
    const t0 = performance.now();
    // A fresh connection each time, as a hook request from claude may be.
    const response = await fetch(`${base}/hooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.secret}`, connection: 'close' },
      body,
    });
    await response.arrayBuffer();
    http.push(performance.now() - t0);
  }
  const pythonScript = path.join(options.scratchDir, 'forward.py');
  writeFileSync(
    pythonScript,
    [
      'import os, sys, urllib.request',
      'data = sys.stdin.buffer.read()',
      "req = urllib.request.Request(sys.argv[1], data=data, headers={'Content-Type': 'application/json', 'Authorization': 'Bearer ' + os.environ.get('CLAUDE_HUB_HOOK_SECRET', '')})",
      'try:',
      '    urllib.request.urlopen(req, timeout=2).read()',
      'except Exception:',
      '    pass',
      '',
    ].join('\n'),
  );
  const shell = await perProcess(['sh', forwarder, `${base}/hooks`], body, count);
  const python = await perProcess(['/usr/bin/python3', pythonScript, `${base}/hooks`], body, count);
  const [h, f, p] = [percentile(http, 50), percentile(shell, 50), percentile(python, 50)];
  return [
    { section, metric: 'HTTP hook round trip', value: ms(h) },
    {
      section,
      metric: 'hooks/forward.sh (sh + curl)',
      value: `${ms(f)} (${(f / h).toFixed(1)}x HTTP)`,
    },
    {
      section,
      metric: 'python3 + urllib forwarder',
      value: `${ms(p)} (${(p / h).toFixed(1)}x HTTP)`,
      target: '>= 25x the HTTP hook',
      ok: p / h >= 25,
    },
  ];
}

/** Runs a command once per event as Claude Code runs a command hook: a new process, JSON on stdin. */
async function perProcess(argv: string[], body: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await execa(argv[0]!, argv.slice(1), {
      input: body,
      env: { ...process.env, CLAUDE_HUB_HOOK_SECRET: 'bench' },
    });
    times.push(performance.now() - t0);
  }
  return times;
}
