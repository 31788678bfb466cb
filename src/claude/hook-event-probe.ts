import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { parseValidEvents, probeEventName } from './hook-event-support.js';

export interface ProbeOptions {
  /** The hub's environment: only PATH, HOME, TMPDIR and LANG of it reach the probe. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long claude may take; it is killed after (it answers in well under a second). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** The most of claude's debug log the probe reads; the list is in its first 100 lines. */
const maxDebugLogBytes = 4 * 1024 * 1024;

/**
 * claude's own hook events, asked of claude: given a settings file with an event it does not
 * know, it logs `Unknown hook event "<name>" was ignored. Valid events: ...`, the very list its
 * settings validator checks against. Run in print mode with stdin closed, so there is no turn
 * and no model call; `--bare` runs no hook of any settings file; the config dir and cwd are
 * empty temp dirs (no user or project settings), and the API is a closed loopback port
 * (claude fetches nothing at start when the base URL is not Anthropic's). Throws, saying why,
 * when no list came out.
 */
export async function askClaudeForHookEvents(
  bin: string,
  options: ProbeOptions,
): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cch-claude-probe-'));
  try {
    const debugLog = path.join(dir, 'debug.log');
    const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'].filter((name) => options.env[name]);
    const result = await execa(
      bin,
      [
        '--bare',
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--debug-file',
        debugLog,
        '--settings',
        JSON.stringify({ hooks: { [probeEventName]: [] } }),
      ],
      {
        cwd: dir,
        env: {
          ...Object.fromEntries(keep.map((name) => [name, options.env[name]])),
          CLAUDE_CONFIG_DIR: path.join(dir, 'config'),
          ANTHROPIC_API_KEY: 'claude-code-hub-probe',
          // Port 9 (discard) on loopback: refused at once where nothing listens.
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        },
        extendEnv: false,
        stdin: 'ignore',
        timeout: options.timeoutMs,
        reject: false,
        maxBuffer: maxDebugLogBytes,
        ...(options.signal && { cancelSignal: options.signal }),
      },
    );
    if (options.signal?.aborted) throw new Error('stopped');
    const names = parseValidEvents(await readHead(debugLog, maxDebugLogBytes));
    // Where --debug-file is not written, the warning may still come on stdout or stderr.
    const fromOutput = names ?? parseValidEvents(`${result.stdout}\n${result.stderr}`);
    if (fromOutput) return fromOutput;
    const why = result.timedOut
      ? `timed out after ${options.timeoutMs} ms`
      : `exited ${result.exitCode ?? result.signal}`;
    throw new Error(
      `claude listed no hook events (${why}): ${(result.stderr || result.stdout).slice(0, 200)}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first `limit` bytes of a file as text; empty when there is no file. */
async function readHead(file: string, limit: number): Promise<string> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return '';
  try {
    const buffer = Buffer.alloc(limit);
    const { bytesRead } = await handle.read(buffer, 0, limit, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
