import { homedir } from 'node:os';
import path from 'node:path';

/** Everything the hub can be told at start. */
export interface HubConfig {
  readonly port: number;
  readonly host: string;
  readonly claudeBin: string;
  readonly tmuxSocket: string;
  readonly dataDir: string;
  /** Seconds Claude Code waits for a hook answer before carrying on without the hub. */
  readonly hookTimeoutSeconds: number;
  /** Seconds createSession waits for claude's SessionStart. */
  readonly startTimeoutSeconds: number;
  /** Hook bodies over this many bytes are refused with 413. */
  readonly maxHookBodyBytes: number;
  /** Events one subscriber may lag behind before it is dropped (it resumes with `after`). */
  readonly subscriberBuffer: number;
  /** Stop every session when the hub shuts down; by default they keep running. */
  readonly stopSessionsOnExit: boolean;
  /** Seconds before the first restart of a crashed session; doubles each time. */
  readonly restartDelaySeconds: number;
  readonly restartMaxDelaySeconds: number;
  /** Restarts allowed within restartWindowSeconds before giving up; 0 turns restarts off. */
  readonly restartLimit: number;
  readonly restartWindowSeconds: number;
  /** Events kept per session (older ones are deleted); 0 keeps all. */
  readonly retainEvents: number;
  /** Days an event is kept; 0 keeps events whatever their age. */
  readonly retainDays: number;
  /** Seconds a permission request is held open for a decision through the API. */
  readonly permissionHoldSeconds: number;
  /** What an undecided request answers when the hold ends: `ask` (the terminal decides) or `deny`. */
  readonly permissionExpiry: 'ask' | 'deny';
  /** Messages that may wait per session; one more is refused with QUEUE_FULL. */
  readonly maxQueuedMessages: number;
}

interface OptionSpec {
  readonly flag: string;
  readonly env: string;
  readonly key: keyof HubConfig;
  readonly kind: 'port' | 'string' | 'name' | 'positive' | 'count' | 'boolean' | 'expiry';
  readonly default: string | number | boolean;
  readonly description: string;
}

/** The options, as data: the parser, `--help` and the README table all read this list. */
export const optionSpecs: readonly OptionSpec[] = [
  {
    flag: 'port',
    env: 'CLAUDE_HUB_PORT',
    key: 'port',
    kind: 'port',
    default: 4000,
    description: 'TCP port; 0 picks a free one.',
  },
  {
    flag: 'host',
    env: 'CLAUDE_HUB_HOST',
    key: 'host',
    kind: 'string',
    default: '127.0.0.1',
    description: 'Address to listen on.',
  },
  {
    flag: 'claude-bin',
    env: 'CLAUDE_HUB_CLAUDE_BIN',
    key: 'claudeBin',
    kind: 'string',
    default: 'claude',
    description: 'The claude executable (looked up on PATH).',
  },
  {
    flag: 'tmux-socket',
    env: 'CLAUDE_HUB_TMUX_SOCKET',
    key: 'tmuxSocket',
    kind: 'name',
    default: 'claude-code-hub',
    description: 'Name of the dedicated tmux socket (tmux -L).',
  },
  {
    flag: 'data-dir',
    env: 'CLAUDE_HUB_DATA_DIR',
    key: 'dataDir',
    kind: 'string',
    default: '~/.local/share/claude-code-hub',
    description: 'Where the event database and session settings live.',
  },
  {
    flag: 'hook-timeout',
    env: 'CLAUDE_HUB_HOOK_TIMEOUT',
    key: 'hookTimeoutSeconds',
    kind: 'positive',
    default: 10,
    description: 'Seconds claude waits for the hub per hook before going on without it.',
  },
  {
    flag: 'start-timeout',
    env: 'CLAUDE_HUB_START_TIMEOUT',
    key: 'startTimeoutSeconds',
    kind: 'positive',
    default: 30,
    description: 'Seconds createSession waits for SessionStart before reporting the screen.',
  },
  {
    flag: 'max-hook-body',
    env: 'CLAUDE_HUB_MAX_HOOK_BODY',
    key: 'maxHookBodyBytes',
    kind: 'positive',
    default: 32 * 1024 * 1024,
    description: 'Largest hook body in bytes; larger ones get 413.',
  },
  {
    flag: 'subscriber-buffer',
    env: 'CLAUDE_HUB_SUBSCRIBER_BUFFER',
    key: 'subscriberBuffer',
    kind: 'positive',
    default: 10_000,
    description:
      'Events a subscriber may lag behind before it is dropped with SUBSCRIBER_TOO_SLOW.',
  },
  {
    flag: 'stop-sessions-on-exit',
    env: 'CLAUDE_HUB_STOP_SESSIONS_ON_EXIT',
    key: 'stopSessionsOnExit',
    kind: 'boolean',
    default: false,
    description: 'Stop every session when the hub shuts down (by default they keep running).',
  },
  {
    flag: 'restart-delay',
    env: 'CLAUDE_HUB_RESTART_DELAY',
    key: 'restartDelaySeconds',
    kind: 'positive',
    default: 1,
    description: 'Seconds before restarting a crashed session; doubles after each restart.',
  },
  {
    flag: 'restart-max-delay',
    env: 'CLAUDE_HUB_RESTART_MAX_DELAY',
    key: 'restartMaxDelaySeconds',
    kind: 'positive',
    default: 60,
    description: 'Cap of the doubling restart delay, in seconds.',
  },
  {
    flag: 'restart-limit',
    env: 'CLAUDE_HUB_RESTART_LIMIT',
    key: 'restartLimit',
    kind: 'count',
    default: 5,
    description:
      'Restarts of one session within the window before giving up; 0 turns restarts off.',
  },
  {
    flag: 'restart-window',
    env: 'CLAUDE_HUB_RESTART_WINDOW',
    key: 'restartWindowSeconds',
    kind: 'positive',
    default: 600,
    description: 'Seconds over which restarts are counted for --restart-limit.',
  },
  {
    flag: 'retain-events',
    env: 'CLAUDE_HUB_RETAIN_EVENTS',
    key: 'retainEvents',
    kind: 'count',
    default: 1_000_000,
    description: 'Events kept per session; older ones are deleted. 0 keeps all.',
  },
  {
    flag: 'retain-days',
    env: 'CLAUDE_HUB_RETAIN_DAYS',
    key: 'retainDays',
    kind: 'count',
    default: 0,
    description: 'Days an event is kept; 0 keeps events whatever their age.',
  },
  {
    flag: 'permission-hold',
    env: 'CLAUDE_HUB_PERMISSION_HOLD',
    key: 'permissionHoldSeconds',
    kind: 'positive',
    default: 300,
    description: 'Seconds a permission request waits for a decision through the API.',
  },
  {
    flag: 'permission-expiry',
    env: 'CLAUDE_HUB_PERMISSION_EXPIRY',
    key: 'permissionExpiry',
    kind: 'expiry',
    default: 'ask',
    description: 'When nobody decides in time: ask (leave it to the terminal dialog) or deny.',
  },
  {
    flag: 'max-queued-messages',
    env: 'CLAUDE_HUB_MAX_QUEUED_MESSAGES',
    key: 'maxQueuedMessages',
    kind: 'positive',
    default: 100,
    description: 'Messages that may wait per session while it is busy; one more gets QUEUE_FULL.',
  },
];

export type ConfigResult =
  | { readonly ok: true; readonly config: HubConfig }
  | { readonly ok: false; readonly help: true }
  | { readonly ok: false; readonly help?: false; readonly error: string };

function parseValue(spec: OptionSpec, raw: string, source: string): string | number | boolean {
  const bad = (what: string) => new Error(`${source} must be ${what}, got ${JSON.stringify(raw)}`);
  switch (spec.kind) {
    case 'port': {
      const port = Number(raw);
      if (!/^\d+$/.test(raw) || port > 65535) throw bad('a port number from 0 to 65535');
      return port;
    }
    case 'positive': {
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < 1) throw bad('a whole number of at least 1');
      return value;
    }
    case 'count': {
      const value = Number(raw);
      if (!/^\d+$/.test(raw)) throw bad('a whole number (0 or more)');
      return value;
    }
    case 'expiry':
      if (raw !== 'ask' && raw !== 'deny') throw bad('ask or deny');
      return raw;
    case 'boolean':
      if (!['1', '0', 'true', 'false'].includes(raw)) throw bad('1, 0, true or false');
      return raw === '1' || raw === 'true';
    case 'name':
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) throw bad('letters, digits, "_", "." or "-"');
      return raw;
    case 'string':
      if (raw.length === 0) throw bad('non-empty');
      return raw;
  }
}

/** Flags win over environment variables, which win over defaults. Pure: no I/O. */
export function parseConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ConfigResult {
  const values = new Map<keyof HubConfig, string | number | boolean>();
  try {
    for (const spec of optionSpecs) {
      const raw = env[spec.env];
      values.set(
        spec.key,
        raw === undefined || raw === '' ? spec.default : parseValue(spec, raw, spec.env),
      );
    }
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i] as string;
      if (arg === '--help' || arg === '-h') return { ok: false, help: true };
      const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
      const spec = match && optionSpecs.find((candidate) => candidate.flag === match[1]);
      if (!match || !spec) throw new Error(`unknown option ${JSON.stringify(arg)} (see --help)`);
      let raw = match[2];
      if (raw === undefined && spec.kind === 'boolean') raw = 'true';
      if (raw === undefined) {
        raw = argv[++i];
        if (raw === undefined) throw new Error(`--${spec.flag} needs a value`);
      }
      values.set(spec.key, parseValue(spec, raw, `--${spec.flag}`));
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const config = Object.fromEntries(values) as unknown as HubConfig;
  return { ok: true, config: { ...config, dataDir: expandHome(config.dataDir) } };
}

function expandHome(dir: string): string {
  return path.resolve(dir.startsWith('~/') ? path.join(homedir(), dir.slice(2)) : dir);
}

export function usage(): string {
  const lines = optionSpecs.map(
    (spec) =>
      `  --${spec.flag.padEnd(22)} ${spec.description} [${spec.env}, default ${spec.default}]`,
  );
  return `Usage: claude-code-hub [options]\n\nRuns the GraphQL hub for Claude Code sessions.\n\nOptions:\n${lines.join('\n')}\n  --help                   Show this text.\n`;
}
