import {
  compareVersions,
  testedClaudeVersions,
  versionStanding,
} from '../claude/claude-version.js';

/**
 * `claude-code-hub doctor`: what a new user gets wrong, one line each. This module holds the
 * checks as pure functions of facts (gathered by doctor-probe.ts), so each line is tested
 * without processes; the probe does the I/O.
 */

/** pass: nothing to do; warn: works, with something to look at; fail: blocks use. */
export type Status = 'pass' | 'warn' | 'fail';

export interface Finding {
  readonly status: Status;
  /** What was found, then ` — ` and the fix when there is one. */
  readonly text: string;
}

const pass = (text: string): Finding => ({ status: 'pass', text });
const warn = (text: string): Finding => ({ status: 'warn', text });
const fail = (text: string): Finding => ({ status: 'fail', text });

export const statusSymbols: Readonly<Record<Status, string>> = { pass: '✓', warn: '!', fail: '✗' };

/** The Node running this command, and package.json's `engines.node`. */
export interface NodeFacts {
  readonly version: string;
  readonly engines: string;
}

/** A program looked up on PATH (or at a path given) and asked for its version. */
export type ProgramFacts =
  | { readonly state: 'found'; readonly path: string; readonly version: string }
  | { readonly state: 'missing' }
  | { readonly state: 'broken'; readonly path: string; readonly error: string };

/** The claude the hub would run, and what named it. */
export type ClaudeFacts = ProgramFacts & {
  readonly bin: string;
  readonly source: '--claude-bin' | 'CLAUDE_HUB_CLAUDE_BIN' | 'PATH';
};

/** Where claude could find a login; never the secrets themselves. */
export interface LoginFacts {
  /** The configDir claude uses: CLAUDE_CONFIG_DIR, else ~/.claude. */
  readonly configDir: string;
  /** Variables that give claude a key or a token, by name, of those set and not empty. */
  readonly variables: readonly string[];
  /** `<config dir>/.credentials.json`, where claude keeps a claude.ai login on Linux. */
  readonly credentials: {
    readonly path: string;
    readonly expiresAt: number | null;
    readonly refreshable: boolean;
  } | null;
  /** `.claude.json` holding a `primaryApiKey`: a Console key that /login made. */
  readonly consoleKey: { readonly path: string } | null;
  /** `.claude.json` naming a claude.ai account (`oauthAccount`): on macOS its token is in the keychain. */
  readonly account: { readonly path: string } | null;
  /** The user's settings.json naming an `apiKeyHelper`, a command that prints a key. */
  readonly keyHelper: { readonly path: string } | null;
  readonly now: number;
}

export type DataDirFacts =
  | {
      readonly state: 'missing';
      readonly path: string;
      /** The nearest folder above that exists, when this user may not write it. */
      readonly blockedBy: string | null;
    }
  | { readonly state: 'not-a-directory'; readonly path: string }
  | {
      readonly state: 'directory';
      readonly path: string;
      readonly mode: number;
      readonly writable: boolean;
      readonly db: {
        readonly size: number;
        readonly mode: number;
        readonly writable: boolean;
      } | null;
    };

export interface TokenFacts {
  /** The token clients send and a hub started here would take as its admin token. */
  readonly token: { readonly source: string; readonly length: number } | null;
  readonly tokensFile:
    | { readonly path: string; readonly count: number }
    | { readonly path: string; readonly error: string }
    | null;
  /** The address a hub started here would listen on (CLAUDE_HUB_HOST, else loopback). */
  readonly host: string;
  readonly hostIsLoopback: boolean;
}

export type HubFacts =
  | { readonly state: 'unreachable'; readonly origin: string; readonly error: string }
  | {
      readonly state: 'answered';
      readonly origin: string;
      /** HTTP status of GET /healthz. */
      readonly health: number;
      /** GET /readyz's checks; null when it gave none. */
      readonly ready: Readonly<Record<string, boolean>> | null;
      /** HTTP status of a `{ __typename }` query sent with the token, if any. */
      readonly api: number | null;
      /** Where the token sent came from; null when none was sent. */
      readonly tokenSource: string | null;
    };

/** The hub's hooks in the user's Claude settings. */
export type HookFacts =
  | { readonly state: 'unreadable'; readonly error: string }
  | { readonly state: 'none'; readonly path: string }
  | {
      readonly state: 'installed';
      readonly path: string;
      readonly events: number;
      readonly url: string | null;
      /** A hub answers its health check at the URL's origin. */
      readonly answers: boolean;
    };

export interface DoctorFacts {
  readonly platform: NodeJS.Platform;
  readonly node: NodeFacts;
  readonly tmux: ProgramFacts;
  readonly curl: ProgramFacts;
  readonly claude: ClaudeFacts;
  readonly login: LoginFacts;
  readonly dataDir: DataDirFacts;
  readonly tokens: TokenFacts;
  readonly hub: HubFacts;
  readonly hooks: HookFacts;
}

/** Every check, in the order a person fixes things: programs, login, files, the hub. */
export function diagnose(facts: DoctorFacts): Finding[] {
  return [
    checkNode(facts.node),
    checkTmux(facts.tmux, facts.platform),
    checkCurl(facts.curl, facts.platform),
    checkClaude(facts.claude),
    checkLogin(facts.login, facts.platform),
    ...checkDataDir(facts.dataDir),
    ...checkTokens(facts.tokens),
    checkHub(facts.hub),
    checkHooks(facts.hooks),
  ];
}

/** 1 when any check blocks use; warnings alone leave it 0. */
export function doctorExitCode(findings: readonly Finding[]): 0 | 1 {
  return findings.some((finding) => finding.status === 'fail') ? 1 : 0;
}

export function formatFinding(finding: Finding, paintSymbol = (_: Status, s: string) => s): string {
  return `${paintSymbol(finding.status, statusSymbols[finding.status])} ${finding.text}`;
}

/** Whether a version is in an `engines` range of `^x.y.z`, `>=x.y.z` or `x.y.z` joined by `||`. */
export function satisfiesEngines(version: string, range: string): boolean {
  return range.split('||').some((part) => {
    const comparator = part.trim();
    const caret = /^\^(\d+)\.\d+\.\d+$/.exec(comparator);
    if (caret) {
      return (
        version.split('.')[0] === caret[1] && compareVersions(version, comparator.slice(1)) >= 0
      );
    }
    const atLeast = /^>=\s*(\d+\.\d+\.\d+)$/.exec(comparator);
    if (atLeast) return compareVersions(version, atLeast[1]!) >= 0;
    return /^\d+\.\d+\.\d+$/.test(comparator) && compareVersions(version, comparator) === 0;
  });
}

const useNode22 = 'use Node 22 LTS (22.15 or newer)';

export function checkNode({ version, engines }: NodeFacts): Finding {
  const major = Number(version.split('.')[0]);
  if (satisfiesEngines(version, engines)) {
    return pass(
      major === 20
        ? `Node ${version} (end of life since April 2026: Node 22 LTS is preferred)`
        : `Node ${version}`,
    );
  }
  if (major >= 24) {
    return fail(
      `Node ${version}: not supported (${engines}): better-sqlite3 aborts the hub under Node 24 — ${useNode22}`,
    );
  }
  return fail(`Node ${version}: not supported (${engines}) — ${useNode22}`);
}

/** The command that installs a system package here. */
function installHint(pkg: string, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? `brew install ${pkg}` : `apt-get install -y ${pkg}`;
}

export function checkTmux(tmux: ProgramFacts, platform: NodeJS.Platform): Finding {
  switch (tmux.state) {
    case 'found':
      return pass(`tmux ${tmux.version}`);
    case 'missing':
      return fail(`tmux: not found — ${installHint('tmux', platform)}`);
    case 'broken':
      return fail(`tmux: ${tmux.path} -V failed: ${tmux.error} — reinstall tmux`);
  }
}

/** curl carries the SessionStart hook, which claude runs only as a command. */
export function checkCurl(curl: ProgramFacts, platform: NodeJS.Platform): Finding {
  switch (curl.state) {
    case 'found':
      return pass(`curl ${curl.version}`);
    case 'missing':
      return fail(
        `curl: not found; the SessionStart hook posts through it, so the hub never sees a session start — ${installHint('curl', platform)}`,
      );
    case 'broken':
      return fail(`curl: ${curl.path} --version failed: ${curl.error} — reinstall curl`);
  }
}

const installClaude = 'npm install -g @anthropic-ai/claude-code';

export function checkClaude(claude: ClaudeFacts): Finding {
  const named = claude.source === 'PATH' ? '' : ` (${claude.source})`;
  switch (claude.state) {
    case 'missing':
      return fail(
        claude.source === 'PATH'
          ? `claude: not found on PATH — ${installClaude}, or name it with --claude-bin / CLAUDE_HUB_CLAUDE_BIN`
          : `claude: ${claude.bin}${named} not found — point ${claude.source} at the claude executable`,
      );
    case 'broken':
      return fail(
        `claude: ${claude.path}${named} --version failed: ${claude.error} — reinstall it (${installClaude})`,
      );
    case 'found': {
      const { oldest, newest } = testedClaudeVersions;
      const at = `${claude.version} at ${claude.path}`;
      switch (versionStanding(claude.version)) {
        case 'tested':
          return pass(`claude ${claude.version} (tested) at ${claude.path}`);
        case 'newer':
          return warn(`claude ${at}: newer than tested (${oldest}-${newest})`);
        case 'older':
          return warn(`claude ${at}: older than tested (${oldest}-${newest}) — claude update`);
      }
    }
  }
}

export function checkLogin(login: LoginFacts, platform: NodeJS.Platform): Finding {
  const { variables, credentials, consoleKey, account, keyHelper } = login;
  if (variables.length > 0) {
    const names = variables.join(' and ');
    return pass(`login: ${names} ${variables.length === 1 ? 'is' : 'are'} set`);
  }
  if (credentials) {
    const expired = credentials.expiresAt !== null && credentials.expiresAt <= login.now;
    if (expired && !credentials.refreshable) {
      const when = new Date(credentials.expiresAt!).toISOString().slice(0, 10);
      return warn(
        `login: the claude.ai login in ${credentials.path} expired on ${when} — run claude, then /login`,
      );
    }
    return pass(`login: a claude.ai account, in ${credentials.path}`);
  }
  if (consoleKey) return pass(`login: a Console API key from /login, in ${consoleKey.path}`);
  if (keyHelper) return pass(`login: an apiKeyHelper, in ${keyHelper.path}`);
  if (account && platform === 'darwin') {
    return pass(`login: a claude.ai account named in ${account.path} (its token in the keychain)`);
  }
  return warn(
    `login: none found (no ANTHROPIC_API_KEY, no login in ${login.configDir}) — run claude, then /login, or set ANTHROPIC_API_KEY`,
  );
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');

export function checkDataDir(dir: DataDirFacts): Finding[] {
  const name = `data dir ${dir.path}`;
  const elsewhere = 'or pick another with --data-dir / CLAUDE_HUB_DATA_DIR';
  switch (dir.state) {
    case 'missing':
      return [
        dir.blockedBy === null
          ? pass(`${name}: not made yet; the hub makes it (0700) at its first start`)
          : fail(
              `${name}: cannot be made (${dir.blockedBy} is not writable) — make it as its owner (mkdir -p ${dir.path} && chmod 700 ${dir.path}), ${elsewhere}`,
            ),
      ];
    case 'not-a-directory':
      return [fail(`${name}: not a directory — move it away, ${elsewhere}`)];
    case 'directory':
      break;
  }
  if (!dir.writable) return [fail(`${name}: not writable by this user — chown it, ${elsewhere}`)];
  const { db } = dir;
  const findings: Finding[] = [];
  if (db?.size === 0) {
    findings.push(
      fail(
        `${name}: hub.db is empty (0 bytes), so the hub refuses to start — restore it from a backup, or delete it to start with an empty store`,
      ),
    );
  } else if (db && !db.writable) {
    findings.push(fail(`${name}: hub.db is not writable by this user — chown it`));
  }
  if ((dir.mode & 0o077) !== 0) {
    findings.push(
      warn(
        `${name}: open to other users (${octal(dir.mode)}); it holds the hook token and every event — chmod 700 ${dir.path}`,
      ),
    );
  }
  if (db && (db.mode & 0o077) !== 0) {
    findings.push(
      warn(
        `${name}: hub.db is ${octal(db.mode)} — chmod 600 ${dir.path}/hub.db (the hub does at its next start)`,
      ),
    );
  }
  if (findings.length > 0) return findings;
  const file = db ? `hub.db ${octal(db.mode)}` : 'no hub.db yet';
  return [pass(`${name} (${octal(dir.mode)}, ${file})`)];
}

/** The shortest token the hub takes (config.ts refuses a shorter --token). */
const shortestToken = 16;

export function checkTokens(tokens: TokenFacts): Finding[] {
  const findings: Finding[] = [];
  const { token, tokensFile } = tokens;
  if (token && token.length < shortestToken) {
    findings.push(
      fail(
        `token: ${token.source} has ${token.length} characters; the hub refuses one under ${shortestToken} — make one with openssl rand -hex 24`,
      ),
    );
  } else if (token) {
    findings.push(pass(`token: ${token.source} is set`));
  }
  if (tokensFile && 'error' in tokensFile) {
    findings.push(
      fail(`${tokensFile.error} — fix it: a JSON array of {"name", "scope", "sha256"}`),
    );
  } else if (tokensFile) {
    const count = `${tokensFile.count} token${tokensFile.count === 1 ? '' : 's'}`;
    findings.push(pass(`tokens file ${tokensFile.path}: ${count}`));
  }
  if (!tokens.hostIsLoopback && !token && !tokensFile) {
    findings.push(
      fail(
        `host ${tokens.host}: the hub refuses to listen off loopback without tokens — set CLAUDE_HUB_TOKEN or CLAUDE_HUB_TOKENS_FILE, or listen on 127.0.0.1`,
      ),
    );
  }
  if (findings.length === 0) {
    findings.push(
      pass('tokens: none; the hub serves loopback only, and every local client is admin'),
    );
  }
  return findings;
}

const pointUrl = 'point --url / CLAUDE_HUB_URL at the hub';

export function checkHub(hub: HubFacts): Finding {
  if (hub.state === 'unreachable') {
    return warn(
      `hub: nothing answers at ${hub.origin} (${hub.error}) — start it (claude-code-hub serve), or ${pointUrl}`,
    );
  }
  const name = `hub at ${hub.origin}`;
  if (hub.health !== 200) {
    return fail(
      `${name}: /healthz answered HTTP ${hub.health}, so something else listens there — ${pointUrl}`,
    );
  }
  const failing = hub.ready
    ? Object.entries(hub.ready).flatMap(([check, ok]) => (ok ? [] : [check]))
    : null;
  if (failing === null) return fail(`${name}: /readyz gave no checks — see the hub's log`);
  if (failing.length > 0) {
    return fail(`${name}: not ready (failing: ${failing.join(', ')}) — see the hub's log`);
  }
  if (hub.api === 401) {
    const refused = hub.tokenSource ? `the token of ${hub.tokenSource}` : 'calls without a token';
    return fail(
      `${name}: refuses ${refused} (HTTP 401) — set CLAUDE_HUB_TOKEN (or --token) to one of its tokens`,
    );
  }
  if (hub.api === 403) {
    return fail(
      `${name}: the token of ${hub.tokenSource ?? '?'} may not read (HTTP 403) — use a token of scope read or above`,
    );
  }
  if (hub.api !== 200) {
    return warn(`${name}: its API answered HTTP ${hub.api ?? 'nothing'} — see the hub's log`);
  }
  return pass(`${name}: ready (${Object.keys(hub.ready!).join(', ')})`);
}

export function checkHooks(hooks: HookFacts): Finding {
  switch (hooks.state) {
    case 'unreadable':
      return warn(`global hooks: ${hooks.error} — fix the file (claude reads it too)`);
    case 'none':
      return pass(
        `global hooks: not installed in ${hooks.path}; only sessions the hub starts report to it (claude-code-hub hooks install adds every claude)`,
      );
    case 'installed': {
      const where = `global hooks: ${hooks.events} events in ${hooks.path} post to ${hooks.url ?? 'no URL'}`;
      return hooks.answers
        ? pass(`${where}, where a hub answers`)
        : warn(
            `${where}, where no hub answers — start the hub there, or run claude-code-hub hooks install with the hub up to point them at it`,
          );
    }
  }
}
