import { homedir } from 'node:os';
import path from 'node:path';
import { checkBudgets, parseBudget, type ConfiguredBudget } from './budget-option.js';
import type { HubConfig } from './hub-config.js';
import { optionSpecs, type OptionSpec } from './option-specs.js';

export type ConfigResult =
  | { readonly ok: true; readonly config: HubConfig }
  | { readonly ok: false; readonly help: true }
  | { readonly ok: false; readonly help?: false; readonly error: string };

type OptionValue = OptionSpec['default'] | readonly ConfiguredBudget[];

function parseValue(spec: OptionSpec, raw: string, source: string): OptionValue {
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
    case 'choice': {
      const choices = spec.choices ?? [];
      if (!choices.includes(raw))
        throw bad(choices.length === 2 ? choices.join(' or ') : choices.join(', '));
      return raw;
    }
    case 'boolean':
      if (!['1', '0', 'true', 'false'].includes(raw)) throw bad('1, 0, true or false');
      return raw === '1' || raw === 'true';
    case 'name':
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) throw bad('letters, digits, "_", "." or "-"');
      return raw;
    case 'string':
      if (raw.length === 0) throw bad('non-empty');
      return raw;
    case 'optional':
      return raw;
    case 'secret':
      if (raw.length > 0 && raw.length < 16)
        throw new Error(`${source} must be 16 characters or more`);
      return raw;
    case 'list':
      return raw.split(',').filter((item) => item.length > 0);
    case 'budget':
      return checkBudgets(
        raw
          .split(',')
          .filter((item) => item.length > 0)
          .map((item) => parseBudget(item, source)),
        source,
      );
    case 'url':
      if (raw !== '' && !URL.canParse(raw)) throw bad('a URL');
      return raw;
  }
}

/** Flags win over environment variables, which win over defaults. Pure: no I/O. */
export function parseConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ConfigResult {
  const values = new Map<keyof HubConfig, OptionValue>();
  const listed = new Set<keyof HubConfig>();
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
      const value = parseValue(spec, raw, `--${spec.flag}`);
      if (spec.kind === 'list' || spec.kind === 'budget') {
        // A repeated flag adds to the list; the first one replaces the variable's.
        const before = listed.has(spec.key) ? (values.get(spec.key) as unknown[]) : [];
        const list = [...before, ...(value as unknown[])];
        values.set(
          spec.key,
          spec.kind === 'budget'
            ? checkBudgets(list as ConfiguredBudget[], `--${spec.flag}`)
            : (list as string[]),
        );
        listed.add(spec.key);
      } else values.set(spec.key, value);
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const config = Object.fromEntries(values) as unknown as HubConfig;
  if (config.redisUrl !== '' && !/^rediss?:$/.test(new URL(config.redisUrl).protocol)) {
    return {
      ok: false,
      error: `--redis-url must start with redis:// or rediss://, got ${JSON.stringify(config.redisUrl)}`,
    };
  }
  if (!config.token && !config.tokensFile && !isLoopbackHost(config.host)) {
    return {
      ok: false,
      error: `refusing to listen on ${config.host} without tokens: set --token or --tokens-file, or listen on 127.0.0.1`,
    };
  }
  const dataDir = expandHome(config.dataDir);
  return {
    ok: true,
    config: {
      ...config,
      dataDir,
      worktreeRoot: config.worktreeRoot
        ? expandHome(config.worktreeRoot)
        : path.join(dataDir, 'worktrees'),
      allowedRoots: config.allowedRoots.map(expandHome),
      policyFile: config.policyFile && expandHome(config.policyFile),
    },
  };
}

/** Only this machine reaches these addresses. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** `~/` as a shell would expand it: a value from a variable or a quoted flag comes unexpanded. */
function expandHome(dir: string): string {
  return path.resolve(dir.startsWith('~/') ? path.join(homedir(), dir.slice(2)) : dir);
}
