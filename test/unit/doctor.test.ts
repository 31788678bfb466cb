import { describe, expect, it } from 'vitest';
import {
  checkClaude,
  checkCurl,
  checkDataDir,
  checkHooks,
  checkHub,
  checkLogin,
  checkNode,
  checkTmux,
  checkTokens,
  diagnose,
  doctorExitCode,
  formatFinding,
  satisfiesEngines,
  type DoctorFacts,
  type Finding,
  type LoginFacts,
} from '../../src/cli/doctor.js';

const engines = '^20.19.0 || ^22.15.0';
const line = (finding: Finding) => formatFinding(finding);
const lines = (findings: Finding[]) => findings.map(line);

const noLogin: LoginFacts = {
  configDir: '/home/ada/.claude',
  variables: [],
  credentials: null,
  consoleKey: null,
  account: null,
  keyHelper: null,
  now: Date.parse('2026-11-26T12:00:00Z'),
};

/** A machine where everything is in order. */
const healthy: DoctorFacts = {
  platform: 'linux',
  node: { version: '22.15.0', engines },
  tmux: { state: 'found', path: '/usr/bin/tmux', version: '3.3a' },
  curl: { state: 'found', path: '/usr/bin/curl', version: '7.88.1' },
  claude: {
    state: 'found',
    path: '/usr/local/bin/claude',
    version: '2.1.332',
    bin: 'claude',
    source: 'PATH',
  },
  login: { ...noLogin, variables: ['ANTHROPIC_API_KEY'] },
  dataDir: {
    state: 'directory',
    path: '/home/ada/.local/share/claude-code-hub',
    mode: 0o700,
    writable: true,
    db: { size: 4096, mode: 0o600, writable: true },
  },
  tokens: { token: null, tokensFile: null, host: '127.0.0.1', hostIsLoopback: true },
  hub: {
    state: 'answered',
    origin: 'http://127.0.0.1:4000',
    health: 200,
    ready: { store: true, eventLog: true, records: true, tmux: true },
    api: 200,
    tokenSource: null,
  },
  hooks: { state: 'none', path: '/home/ada/.claude/settings.json' },
};

describe('doctor: the whole report', () => {
  it('passes every check on a healthy machine, one line each, and exits 0', () => {
    const findings = diagnose(healthy);
    expect(lines(findings)).toEqual([
      '✓ Node 22.15.0',
      '✓ tmux 3.3a',
      '✓ curl 7.88.1',
      '✓ claude 2.1.332 (tested) at /usr/local/bin/claude',
      '✓ login: ANTHROPIC_API_KEY is set',
      '✓ data dir /home/ada/.local/share/claude-code-hub (0700, hub.db 0600)',
      '✓ tokens: none; the hub serves loopback only, and every local client is admin',
      '✓ hub at http://127.0.0.1:4000: ready (store, eventLog, records, tmux)',
      '✓ global hooks: not installed in /home/ada/.claude/settings.json; only sessions the hub starts report to it (claude-code-hub hooks install adds every claude)',
    ]);
    expect(doctorExitCode(findings)).toBe(0);
  });

  it('exits 0 with warnings alone and 1 once anything blocks use', () => {
    const warned = diagnose({ ...healthy, login: noLogin });
    expect(warned.map((finding) => finding.status)).toContain('warn');
    expect(doctorExitCode(warned)).toBe(0);
    const blocked = diagnose({ ...healthy, login: noLogin, tmux: { state: 'missing' } });
    expect(doctorExitCode(blocked)).toBe(1);
  });

  it('paints the symbol only', () => {
    const painted = formatFinding({ status: 'fail', text: 'tmux: not found' }, (status, s) =>
      status === 'fail' ? `<red>${s}</red>` : s,
    );
    expect(painted).toBe('<red>✗</red> tmux: not found');
  });
});

describe('doctor: Node', () => {
  it('reads an engines range of caret comparators', () => {
    expect(satisfiesEngines('20.19.0', engines)).toBe(true);
    expect(satisfiesEngines('20.18.3', engines)).toBe(false);
    expect(satisfiesEngines('21.7.0', engines)).toBe(false);
    expect(satisfiesEngines('22.14.0', engines)).toBe(false);
    expect(satisfiesEngines('22.21.1', engines)).toBe(true);
    expect(satisfiesEngines('24.11.0', engines)).toBe(false);
    expect(satisfiesEngines('24.0.0', '>=20.0.0')).toBe(true);
    expect(satisfiesEngines('20.1.0', '20.1.0')).toBe(true);
  });

  it('passes a supported Node, with a note for Node 20; refuses the rest', () => {
    expect(line(checkNode({ version: '22.15.0', engines }))).toBe('✓ Node 22.15.0');
    expect(line(checkNode({ version: '20.19.5', engines }))).toBe(
      '✓ Node 20.19.5 (end of life since April 2026: Node 22 LTS is preferred)',
    );
    expect(line(checkNode({ version: '24.11.0', engines }))).toBe(
      '✗ Node 24.11.0: not supported (^20.19.0 || ^22.15.0): better-sqlite3 aborts the hub under Node 24 — use Node 22 LTS (22.15 or newer)',
    );
    expect(line(checkNode({ version: '20.11.1', engines }))).toBe(
      '✗ Node 20.11.1: not supported (^20.19.0 || ^22.15.0) — use Node 22 LTS (22.15 or newer)',
    );
  });
});

describe('doctor: programs', () => {
  it('tmux: its version, or how to install it here', () => {
    expect(
      line(checkTmux({ state: 'found', path: '/usr/bin/tmux', version: '3.3a' }, 'linux')),
    ).toBe('✓ tmux 3.3a');
    expect(line(checkTmux({ state: 'missing' }, 'linux'))).toBe(
      '✗ tmux: not found — apt-get install -y tmux',
    );
    expect(line(checkTmux({ state: 'missing' }, 'darwin'))).toBe(
      '✗ tmux: not found — brew install tmux',
    );
    expect(
      line(checkTmux({ state: 'broken', path: '/usr/bin/tmux', error: 'exit code 1' }, 'linux')),
    ).toBe('✗ tmux: /usr/bin/tmux -V failed: exit code 1 — reinstall tmux');
  });

  it('curl: the SessionStart hook needs it', () => {
    expect(line(checkCurl({ state: 'missing' }, 'linux'))).toBe(
      '✗ curl: not found; the SessionStart hook posts through it, so the hub never sees a session start — apt-get install -y curl',
    );
  });

  const claude = { bin: 'claude', source: 'PATH' as const, path: '/usr/local/bin/claude' };

  it('claude: tested, newer or older than the tested range', () => {
    expect(line(checkClaude({ ...claude, state: 'found', version: '2.1.328' }))).toBe(
      '✓ claude 2.1.328 (tested) at /usr/local/bin/claude',
    );
    expect(line(checkClaude({ ...claude, state: 'found', version: '2.1.340' }))).toBe(
      '! claude 2.1.340 at /usr/local/bin/claude: newer than tested (2.1.328-2.1.332)',
    );
    expect(line(checkClaude({ ...claude, state: 'found', version: '2.0.9' }))).toBe(
      '! claude 2.0.9 at /usr/local/bin/claude: older than tested (2.1.328-2.1.332) — claude update',
    );
  });

  it('claude: missing from PATH, missing where an option names it, or not running', () => {
    expect(line(checkClaude({ bin: 'claude', source: 'PATH', state: 'missing' }))).toBe(
      '✗ claude: not found on PATH — npm install -g @anthropic-ai/claude-code, or name it with --claude-bin / CLAUDE_HUB_CLAUDE_BIN',
    );
    expect(
      line(checkClaude({ bin: '/opt/claude', source: 'CLAUDE_HUB_CLAUDE_BIN', state: 'missing' })),
    ).toBe(
      '✗ claude: /opt/claude (CLAUDE_HUB_CLAUDE_BIN) not found — point CLAUDE_HUB_CLAUDE_BIN at the claude executable',
    );
    expect(
      line(
        checkClaude({
          bin: './claude',
          source: '--claude-bin',
          state: 'broken',
          path: '/work/claude',
          error: 'exec format error',
        }),
      ),
    ).toBe(
      '✗ claude: /work/claude (--claude-bin) --version failed: exec format error — reinstall it (npm install -g @anthropic-ai/claude-code)',
    );
  });
});

describe('doctor: login', () => {
  it('takes a key variable, a claude.ai login, a Console key or a key helper', () => {
    expect(line(checkLogin({ ...noLogin, variables: ['ANTHROPIC_API_KEY'] }, 'linux'))).toBe(
      '✓ login: ANTHROPIC_API_KEY is set',
    );
    expect(
      line(
        checkLogin(
          { ...noLogin, variables: ['ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK'] },
          'linux',
        ),
      ),
    ).toBe('✓ login: ANTHROPIC_AUTH_TOKEN and CLAUDE_CODE_USE_BEDROCK are set');
    const credentials = {
      path: '/home/ada/.claude/.credentials.json',
      expiresAt: noLogin.now - 1000,
      refreshable: true,
    };
    expect(line(checkLogin({ ...noLogin, credentials }, 'linux'))).toBe(
      '✓ login: a claude.ai account, in /home/ada/.claude/.credentials.json',
    );
    expect(
      line(checkLogin({ ...noLogin, consoleKey: { path: '/home/ada/.claude.json' } }, 'linux')),
    ).toBe('✓ login: a Console API key from /login, in /home/ada/.claude.json');
    expect(
      line(
        checkLogin({ ...noLogin, keyHelper: { path: '/home/ada/.claude/settings.json' } }, 'linux'),
      ),
    ).toBe('✓ login: an apiKeyHelper, in /home/ada/.claude/settings.json');
  });

  it('warns of an expired login that cannot refresh, and of none', () => {
    const expired = {
      path: '/home/ada/.claude/.credentials.json',
      expiresAt: Date.parse('2026-10-01T00:00:00Z'),
      refreshable: false,
    };
    expect(line(checkLogin({ ...noLogin, credentials: expired }, 'linux'))).toBe(
      '! login: the claude.ai login in /home/ada/.claude/.credentials.json expired on 2026-10-01 — run claude, then /login',
    );
    expect(line(checkLogin(noLogin, 'linux'))).toBe(
      '! login: none found (no ANTHROPIC_API_KEY, no login in /home/ada/.claude) — run claude, then /login, or set ANTHROPIC_API_KEY',
    );
  });

  it('takes an account named in .claude.json on macOS only, whose keychain holds the token', () => {
    const account = { path: '/Users/ada/.claude.json' };
    expect(line(checkLogin({ ...noLogin, account }, 'darwin'))).toBe(
      '✓ login: a claude.ai account named in /Users/ada/.claude.json (its token in the keychain)',
    );
    expect(checkLogin({ ...noLogin, account }, 'linux').status).toBe('warn');
  });
});

describe('doctor: data dir', () => {
  const dir = '/home/ada/.local/share/claude-code-hub';
  const directory = {
    state: 'directory' as const,
    path: dir,
    mode: 0o700,
    writable: true,
    db: { size: 4096, mode: 0o600, writable: true },
  };

  it('passes one not made yet when its parent is writable, fails one that cannot be made', () => {
    expect(lines(checkDataDir({ state: 'missing', path: dir, blockedBy: null }))).toEqual([
      `✓ data dir ${dir}: not made yet; the hub makes it (0700) at its first start`,
    ]);
    expect(lines(checkDataDir({ state: 'missing', path: dir, blockedBy: '/home/ada' }))).toEqual([
      `✗ data dir ${dir}: cannot be made (/home/ada is not writable) — make it as its owner (mkdir -p ${dir} && chmod 700 ${dir}), or pick another with --data-dir / CLAUDE_HUB_DATA_DIR`,
    ]);
  });

  it('fails a file, a folder this user cannot write, an empty hub.db and one it cannot write', () => {
    expect(lines(checkDataDir({ state: 'not-a-directory', path: dir }))).toEqual([
      `✗ data dir ${dir}: not a directory — move it away, or pick another with --data-dir / CLAUDE_HUB_DATA_DIR`,
    ]);
    expect(lines(checkDataDir({ ...directory, writable: false }))).toEqual([
      `✗ data dir ${dir}: not writable by this user — chown it, or pick another with --data-dir / CLAUDE_HUB_DATA_DIR`,
    ]);
    expect(
      lines(checkDataDir({ ...directory, db: { size: 0, mode: 0o600, writable: true } })),
    ).toEqual([
      `✗ data dir ${dir}: hub.db is empty (0 bytes), so the hub refuses to start — restore it from a backup, or delete it to start with an empty store`,
    ]);
    expect(
      lines(checkDataDir({ ...directory, db: { size: 4096, mode: 0o600, writable: false } })),
    ).toEqual([`✗ data dir ${dir}: hub.db is not writable by this user — chown it`]);
  });

  it('warns of a folder or a hub.db that others may read', () => {
    expect(
      lines(
        checkDataDir({ ...directory, mode: 0o755, db: { size: 1, mode: 0o644, writable: true } }),
      ),
    ).toEqual([
      `! data dir ${dir}: open to other users (0755); it holds the hook token and every event — chmod 700 ${dir}`,
      `! data dir ${dir}: hub.db is 0644 — chmod 600 ${dir}/hub.db (the hub does at its next start)`,
    ]);
    expect(lines(checkDataDir({ ...directory, db: null }))).toEqual([
      `✓ data dir ${dir} (0700, no hub.db yet)`,
    ]);
  });
});

describe('doctor: tokens', () => {
  const none = healthy.tokens;

  it('fails a token the hub would refuse, never showing it', () => {
    const findings = checkTokens({ ...none, token: { source: 'CLAUDE_HUB_TOKEN', length: 8 } });
    expect(lines(findings)).toEqual([
      '✗ token: CLAUDE_HUB_TOKEN has 8 characters; the hub refuses one under 16 — make one with openssl rand -hex 24',
    ]);
    expect(lines(checkTokens({ ...none, token: { source: '--token', length: 32 } }))).toEqual([
      '✓ token: --token is set',
    ]);
  });

  it("fails a tokens file that does not parse, with loadTokens' own message", () => {
    const error = 'tokens file /etc/hub/tokens.json, entry 0: scope must be one of read, control';
    expect(
      lines(checkTokens({ ...none, tokensFile: { path: '/etc/hub/tokens.json', error } })),
    ).toEqual([`✗ ${error} — fix it: a JSON array of {"name", "scope", "sha256"}`]);
    expect(
      lines(checkTokens({ ...none, tokensFile: { path: '/etc/hub/tokens.json', count: 2 } })),
    ).toEqual(['✓ tokens file /etc/hub/tokens.json: 2 tokens']);
  });

  it('fails a host off loopback without tokens, and takes it with them', () => {
    const off = { ...none, host: '0.0.0.0', hostIsLoopback: false };
    expect(lines(checkTokens(off))).toEqual([
      '✗ host 0.0.0.0: the hub refuses to listen off loopback without tokens — set CLAUDE_HUB_TOKEN or CLAUDE_HUB_TOKENS_FILE, or listen on 127.0.0.1',
    ]);
    expect(
      lines(checkTokens({ ...off, token: { source: 'CLAUDE_HUB_TOKEN', length: 40 } })),
    ).toEqual(['✓ token: CLAUDE_HUB_TOKEN is set']);
  });
});

describe('doctor: the hub', () => {
  const answered = healthy.hub as Extract<DoctorFacts['hub'], { state: 'answered' }>;

  it('warns when nothing answers: the hub may simply not be started yet', () => {
    expect(
      line(
        checkHub({ state: 'unreachable', origin: 'http://127.0.0.1:4000', error: 'ECONNREFUSED' }),
      ),
    ).toBe(
      '! hub: nothing answers at http://127.0.0.1:4000 (ECONNREFUSED) — start it (claude-code-hub serve), or point --url / CLAUDE_HUB_URL at the hub',
    );
  });

  it('fails something else on its address, a readiness check that fails, and a refused token', () => {
    expect(line(checkHub({ ...answered, health: 404 }))).toBe(
      '✗ hub at http://127.0.0.1:4000: /healthz answered HTTP 404, so something else listens there — point --url / CLAUDE_HUB_URL at the hub',
    );
    expect(
      line(
        checkHub({
          ...answered,
          ready: { store: true, eventLog: false, records: true, tmux: false },
        }),
      ),
    ).toBe(
      "✗ hub at http://127.0.0.1:4000: not ready (failing: eventLog, tmux) — see the hub's log",
    );
    expect(line(checkHub({ ...answered, api: 401 }))).toBe(
      '✗ hub at http://127.0.0.1:4000: refuses calls without a token (HTTP 401) — set CLAUDE_HUB_TOKEN (or --token) to one of its tokens',
    );
    expect(line(checkHub({ ...answered, api: 401, tokenSource: 'CLAUDE_HUB_TOKEN' }))).toBe(
      '✗ hub at http://127.0.0.1:4000: refuses the token of CLAUDE_HUB_TOKEN (HTTP 401) — set CLAUDE_HUB_TOKEN (or --token) to one of its tokens',
    );
    expect(line(checkHub({ ...answered, api: 403, tokenSource: '--token' }))).toBe(
      '✗ hub at http://127.0.0.1:4000: the token of --token may not read (HTTP 403) — use a token of scope read or above',
    );
  });
});

describe('doctor: global hooks', () => {
  const installed = {
    state: 'installed' as const,
    path: '/home/ada/.claude/settings.json',
    events: 34,
    url: 'http://127.0.0.1:4000/hooks?from=global',
    answers: true,
  };

  it('passes hooks whose hub answers, warns of hooks posting to no hub', () => {
    expect(line(checkHooks(installed))).toBe(
      '✓ global hooks: 34 events in /home/ada/.claude/settings.json post to http://127.0.0.1:4000/hooks?from=global, where a hub answers',
    );
    expect(line(checkHooks({ ...installed, answers: false }))).toBe(
      '! global hooks: 34 events in /home/ada/.claude/settings.json post to http://127.0.0.1:4000/hooks?from=global, where no hub answers — start the hub there, or run claude-code-hub hooks install with the hub up to point them at it',
    );
  });

  it('warns of a settings file that does not parse', () => {
    expect(
      line(
        checkHooks({
          state: 'unreadable',
          error: '/home/ada/.claude/settings.json is not valid JSON: Unexpected end of JSON input',
        }),
      ),
    ).toBe(
      '! global hooks: /home/ada/.claude/settings.json is not valid JSON: Unexpected end of JSON input — fix the file (claude reads it too)',
    );
  });
});
