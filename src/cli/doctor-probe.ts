import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { loadTokens } from '../auth/tokens.js';
import { claudeVersion } from '../claude/claude-version.js';
import { isLoopbackHost, optionSpecs } from '../config/index.js';
import { readHookStatus, settingsPathFor } from '../hooks/settings-install.js';
import { claudeConfigDir } from '../sessions/transcript.js';
import type { Env, Io } from './command-io.js';
import {
  diagnose,
  doctorExitCode,
  formatFinding,
  type ClaudeFacts,
  type DataDirFacts,
  type DoctorFacts,
  type HookFacts,
  type HubFacts,
  type LoginFacts,
  type ProgramFacts,
  type TokenFacts,
} from './doctor.js';
import { painter } from './format.js';
import { healthUrlOf, hubAnswers, probeTimeoutMs } from './hub-probe.js';

/** What `doctor` was told: its options, resolved against the environment by the command. */
export interface DoctorOptions {
  readonly env: Env;
  /** The hub's GraphQL URL, as every client command finds it. */
  readonly hubUrl: string;
  /** The token client commands send, and where it came from. */
  readonly token: { readonly value: string; readonly source: string } | null;
  /** `--claude-bin`, when given. */
  readonly claudeBin: string | undefined;
  /** `--data-dir`, when given. */
  readonly dataDir: string | undefined;
}

/** Runs every check, prints one line each, and resolves with the exit code. */
export async function runDoctor(options: DoctorOptions, io: Io): Promise<number> {
  const findings = diagnose(await gatherFacts(options));
  const paint = painter(io.colour);
  const colours = { pass: 'green', warn: 'yellow', fail: 'red' } as const;
  for (const finding of findings) {
    io.out(formatFinding(finding, (status, symbol) => paint(colours[status], symbol)));
  }
  return doctorExitCode(findings);
}

/** How long a program may take to print its version (claude's first start reads a 370 MB binary). */
const versionTimeoutMs = 15_000;

/** The facts every check reads, gathered at once; each probe is bounded by a timeout. */
export async function gatherFacts(options: DoctorOptions): Promise<DoctorFacts> {
  const { env } = options;
  const [tmux, curl, claude, hub, hooks] = await Promise.all([
    probeProgram('tmux', ['-V'], env),
    probeProgram('curl', ['--version'], env),
    probeClaude(options),
    probeHub(options.hubUrl, options.token),
    probeHooks(env),
  ]);
  return {
    platform: process.platform,
    node: { version: process.versions.node, engines: enginesNode() },
    tmux,
    curl,
    claude,
    login: probeLogin(env),
    dataDir: probeDataDir(dataDirOf(options)),
    tokens: probeTokens(env, options.token),
    hub,
    hooks,
  };
}

/** package.json's `engines.node`: the Node versions the hub is built and tested for. */
function enginesNode(): string {
  // Two folders up from src/cli/ and from dist/cli/ alike.
  const manifest = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { engines: { node: string } }).engines.node;
}

function defaultOf(key: 'dataDir' | 'claudeBin'): string {
  return String(optionSpecs.find((spec) => spec.key === key)!.default);
}

/** The data dir a hub started here would use, `~/` expanded as the hub does. */
function dataDirOf(options: DoctorOptions): string {
  const dir = options.dataDir ?? (options.env.CLAUDE_HUB_DATA_DIR || defaultOf('dataDir'));
  return path.resolve(dir.startsWith('~/') ? path.join(homedir(), dir.slice(2)) : dir);
}

/** Where `name` runs from: itself when it holds a slash, else the first executable on PATH. */
function findExecutable(name: string, env: Env): string | null {
  const candidates = name.includes('/')
    ? [path.resolve(name)]
    : (env.PATH ?? '')
        .split(path.delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => path.join(dir, name));
  return candidates.find(isExecutableFile) ?? null;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `tmux 3.3a` and `curl 7.88.1 (x86_64...)`: the second word of the first line. */
function versionWord(output: string): string | null {
  return /^\S+\s+(\S+)/.exec(output.trim())?.[1] ?? null;
}

async function probeProgram(name: string, args: string[], env: Env): Promise<ProgramFacts> {
  const found = findExecutable(name, env);
  if (found === null) return { state: 'missing' };
  const result = await execa(found, args, {
    env,
    reject: false,
    timeout: versionTimeoutMs,
    stdin: 'ignore',
  });
  const version = result.exitCode === 0 ? versionWord(result.stdout) : null;
  if (version === null) {
    const error = result.failed
      ? (result.shortMessage ?? 'failed')
      : `printed ${JSON.stringify(result.stdout)}`;
    return { state: 'broken', path: found, error: firstLine(error) };
  }
  return { state: 'found', path: found, version };
}

async function probeClaude(options: DoctorOptions): Promise<ClaudeFacts> {
  const fromEnv = options.env.CLAUDE_HUB_CLAUDE_BIN;
  const [bin, source] =
    options.claudeBin !== undefined
      ? [options.claudeBin, '--claude-bin' as const]
      : fromEnv
        ? [fromEnv, 'CLAUDE_HUB_CLAUDE_BIN' as const]
        : [defaultOf('claudeBin'), 'PATH' as const];
  const found = findExecutable(bin, options.env);
  if (found === null) return { state: 'missing', bin, source };
  try {
    return {
      state: 'found',
      path: found,
      version: await claudeVersion(found, options.env),
      bin,
      source,
    };
  } catch (error) {
    return {
      state: 'broken',
      path: found,
      error: firstLine((error as Error).message),
      bin,
      source,
    };
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 200);
}

/** Variables that give claude a key, a token or another provider, so no login is needed. */
const loginVariables = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
];

/** A JSON object in a file; null when it is absent or holds something else. */
function readJsonObject(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Where claude keeps a login, read for its shape only and never printed: `.credentials.json` in
 * the config dir (`claudeAiOauth`: a claude.ai login, on Linux), `.claude.json` (`primaryApiKey`:
 * a Console key /login made; `oauthAccount`: the account, whose token macOS keeps in the
 * keychain; in the config dir with CLAUDE_CONFIG_DIR, else the home folder), and settings.json's
 * `apiKeyHelper`. `claude auth status` would say more, but it writes: on a machine where claude
 * never ran it creates ~/.claude.json, rewrites it where it exists, and leaves a lock folder.
 */
function probeLogin(env: Env): LoginFacts {
  const configDir = claudeConfigDir(env);
  const variables = loginVariables.filter((name) => Boolean(env[name]));
  const credentialsPath = path.join(configDir, '.credentials.json');
  const oauth = readJsonObject(credentialsPath)?.claudeAiOauth as
    { accessToken?: unknown; refreshToken?: unknown; expiresAt?: unknown } | undefined;
  const hasOauth =
    typeof oauth === 'object' &&
    oauth !== null &&
    (typeof oauth.accessToken === 'string' || typeof oauth.refreshToken === 'string');
  const credentials = hasOauth
    ? {
        path: credentialsPath,
        expiresAt: typeof oauth.expiresAt === 'number' ? oauth.expiresAt : null,
        refreshable: typeof oauth.refreshToken === 'string' && oauth.refreshToken !== '',
      }
    : null;
  const configPath = env.CLAUDE_CONFIG_DIR
    ? path.join(configDir, '.claude.json')
    : path.join(homedir(), '.claude.json');
  const config = readJsonObject(configPath);
  const settingsPath = settingsPathFor('user', configDir);
  const helper = readJsonObject(settingsPath)?.apiKeyHelper;
  return {
    configDir,
    variables,
    credentials,
    consoleKey: nonEmptyString(config?.primaryApiKey) ? { path: configPath } : null,
    account:
      typeof config?.oauthAccount === 'object' && config.oauthAccount !== null
        ? { path: configPath }
        : null,
    keyHelper: nonEmptyString(helper) ? { path: settingsPath } : null,
    now: Date.now(),
  };
}

function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function canWrite(file: string): boolean {
  try {
    accessSync(file, constants.W_OK | constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

export function probeDataDir(dir: string): DataDirFacts {
  const found = statSync(dir, { throwIfNoEntry: false });
  if (!found) {
    let above = path.dirname(dir);
    while (!statSync(above, { throwIfNoEntry: false }) && above !== path.dirname(above)) {
      above = path.dirname(above);
    }
    return { state: 'missing', path: dir, blockedBy: canWrite(above) ? null : above };
  }
  if (!found.isDirectory()) return { state: 'not-a-directory', path: dir };
  const file = path.join(dir, 'hub.db');
  const db = statSync(file, { throwIfNoEntry: false });
  return {
    state: 'directory',
    path: dir,
    mode: found.mode & 0o777,
    writable: canWrite(dir),
    db: db ? { size: db.size, mode: db.mode & 0o777, writable: canWrite(file) } : null,
  };
}

function probeTokens(env: Env, token: DoctorOptions['token']): TokenFacts {
  const file = env.CLAUDE_HUB_TOKENS_FILE;
  let tokensFile: TokenFacts['tokensFile'] = null;
  if (file) {
    try {
      tokensFile = { path: file, count: loadTokens({ token: '', tokensFile: file }).length };
    } catch (error) {
      tokensFile = { path: file, error: (error as Error).message };
    }
  }
  const host = env.CLAUDE_HUB_HOST || '127.0.0.1';
  return {
    token: token && { source: token.source, length: token.value.length },
    tokensFile,
    host,
    hostIsLoopback: isLoopbackHost(host),
  };
}

/** Why a fetch failed, in a word: ECONNREFUSED, a timeout, or the message. */
function failure(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return `no answer in ${probeTimeoutMs} ms`;
  return cause?.code ?? (error as Error).message;
}

/**
 * The hub at the URL the client commands use: its health (any answer), its readiness checks,
 * and whether its API takes the token (or no token) with a query that reads nothing.
 */
async function probeHub(url: string, token: DoctorOptions['token']): Promise<HubFacts> {
  const health = healthUrlOf(url);
  if (health === null) return { state: 'unreachable', origin: url, error: 'not a URL' };
  const { origin } = health;
  const get = (where: string, init: RequestInit = {}) =>
    fetch(new URL(where, url), { ...init, signal: AbortSignal.timeout(probeTimeoutMs) });
  let healthStatus: number;
  try {
    const response = await get('/healthz');
    await response.body?.cancel();
    healthStatus = response.status;
  } catch (error) {
    return { state: 'unreachable', origin, error: failure(error) };
  }
  const ready = await get('/readyz')
    .then((response) => response.json() as Promise<{ checks?: Record<string, boolean> }>)
    .then((body) => body.checks ?? null)
    .catch(() => null);
  const api = await get(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token.value}` }),
    },
    body: JSON.stringify({ query: '{ __typename }' }),
  })
    .then(async (response) => {
      await response.body?.cancel();
      return response.status;
    })
    .catch(() => null);
  return {
    state: 'answered',
    origin,
    health: healthStatus,
    ready,
    api,
    tokenSource: token?.source ?? null,
  };
}

/** The hub's hooks in the user's settings (where `hooks status` looks), and their hub. */
async function probeHooks(env: Env): Promise<HookFacts> {
  const file = settingsPathFor('user', claudeConfigDir(env));
  let found: ReturnType<typeof readHookStatus>;
  try {
    found = readHookStatus(file);
  } catch (error) {
    return { state: 'unreadable', error: (error as Error).message };
  }
  if (found.events.length === 0) return { state: 'none', path: file };
  const health = healthUrlOf(found.url);
  return {
    state: 'installed',
    path: file,
    events: found.events.length,
    url: found.url,
    answers: health !== null && (await hubAnswers(health)),
  };
}
