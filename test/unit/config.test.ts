import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { optionSpecs, parseConfig } from '../../src/config/index.js';

describe('parseConfig', () => {
  it('uses the defaults when nothing is given', () => {
    const result = parseConfig([], {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.port).toBe(4000);
    expect(result.config.host).toBe('127.0.0.1');
    expect(result.config.claudeBin).toBe('claude');
    expect(result.config.tmuxSocket).toBe('claude-code-hub');
    expect(result.config.dataDir).toMatch(/\.local\/share\/claude-code-hub$/);
  });

  it('takes environment variables, and flags over them', () => {
    const env = {
      CLAUDE_HUB_PORT: '5000',
      CLAUDE_HUB_HOST: '0.0.0.0',
      CLAUDE_HUB_TMUX_SOCKET: 'from-env',
      CLAUDE_HUB_TOKEN: 'a-secret-of-16-chars',
    };
    const result = parseConfig(
      ['--port', '0', '--tmux-socket=from-flag', '--data-dir', 'rel/dir'],
      env,
    );
    expect(result).toMatchObject({
      ok: true,
      config: {
        port: 0,
        host: '0.0.0.0',
        tmuxSocket: 'from-flag',
        dataDir: `${process.cwd()}/rel/dir`,
      },
    });
  });

  it.each([
    [['--port', '70000'], '--port must be a port number from 0 to 65535, got "70000"'],
    [['--port'], '--port needs a value'],
    [['--nope'], 'unknown option "--nope" (see --help)'],
    [['--tmux-socket', 'a b'], '--tmux-socket must be letters, digits, "_", "." or "-", got "a b"'],
    [['--hook-timeout', '0'], '--hook-timeout must be a whole number of at least 1, got "0"'],
    [['--redis-url', 'not a url'], '--redis-url must be a URL, got "not a url"'],
    [
      ['--redis-url', 'http://127.0.0.1:6379'],
      '--redis-url must start with redis:// or rediss://, got "http://127.0.0.1:6379"',
    ],
    [['--node-name', 'box 1'], '--node-name must be letters, digits, "_", "." or "-", got "box 1"'],
    [['--graphql-ws-server', 'fast'], '--graphql-ws-server must be hub or library, got "fast"'],
    [['--permission-expiry', 'never'], '--permission-expiry must be ask or deny, got "never"'],
    [
      ['--log-level', 'loud'],
      '--log-level must be trace, debug, info, warn, error, fatal, silent, got "loud"',
    ],
  ])('rejects %j with a one-line error', (argv, error) => {
    expect(parseConfig(argv, {})).toEqual({ ok: false, error });
  });

  it('refuses a non-loopback address without tokens, and takes one with a token', () => {
    expect(parseConfig(['--host', '0.0.0.0'], {})).toEqual({
      ok: false,
      error:
        'refusing to listen on 0.0.0.0 without tokens: set --token or --tokens-file, or listen on 127.0.0.1',
    });
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) {
      expect(parseConfig(['--host', host], {}).ok).toBe(true);
    }
    expect(parseConfig(['--host', '::', '--tokens-file', 'tokens.json'], {}).ok).toBe(true);
    expect(parseConfig(['--token', 'short'], {})).toEqual({
      ok: false,
      error: '--token must be 16 characters or more',
    });
  });

  it('adds repeated list flags, the first replacing the variable', () => {
    const result = parseConfig(['--allowed-root', '/a', '--allowed-root=/b'], {
      CLAUDE_HUB_ALLOWED_ROOTS: '/env1,/env2',
      CLAUDE_HUB_CORS_ORIGINS: 'https://x.example,https://y.example',
    });
    expect(result).toMatchObject({
      ok: true,
      config: {
        allowedRoots: ['/a', '/b'],
        corsOrigins: ['https://x.example', 'https://y.example'],
      },
    });
  });

  it('puts worktrees in the data dir unless --worktree-root says where', () => {
    expect(parseConfig(['--data-dir', '/data/hub'], {})).toMatchObject({
      ok: true,
      config: { worktreeRoot: '/data/hub/worktrees' },
    });
    expect(
      parseConfig(['--data-dir', '/data/hub'], { CLAUDE_HUB_WORKTREE_ROOT: '/srv/trees' }),
    ).toMatchObject({ ok: true, config: { worktreeRoot: '/srv/trees' } });
  });

  it('rejects a bad environment value naming the variable', () => {
    expect(parseConfig([], { CLAUDE_HUB_PORT: 'x' })).toEqual({
      ok: false,
      error: 'CLAUDE_HUB_PORT must be a port number from 0 to 65535, got "x"',
    });
  });

  it('reads --budget SCOPE:KEY=USD, repeated flags adding to each other over the variable', () => {
    expect(
      parseConfig(['--budget', 'label:nightly=20', '--budget=TOKEN:ci-bot=5.5'], {
        CLAUDE_HUB_BUDGETS: 'label:from-env=1',
      }),
    ).toMatchObject({
      ok: true,
      config: {
        budgets: [
          { scope: 'LABEL', key: 'nightly', usd: 20 },
          { scope: 'TOKEN', key: 'ci-bot', usd: 5.5 },
        ],
      },
    });
    expect(
      parseConfig([], { CLAUDE_HUB_BUDGETS: 'label:team:infra=.5,label:ticket=ABC-12=1000000' }),
    ).toMatchObject({
      ok: true,
      config: {
        budgets: [
          { scope: 'LABEL', key: 'team:infra', usd: 0.5 },
          { scope: 'LABEL', key: 'ticket=ABC-12', usd: 1_000_000 },
        ],
      },
    });
    expect(parseConfig([], {})).toMatchObject({ ok: true, config: { budgets: [] } });
  });

  it.each([
    ['nightly=20', '--budget must be SCOPE:KEY=USD, SCOPE label or token, got "nightly=20"'],
    ['label:nightly', '--budget must be SCOPE:KEY=USD, SCOPE label or token, got "label:nightly"'],
    [
      'session:abc=5',
      '--budget scope must be label or token (a session\'s own budget is createSession\'s budgetUsd), got "session:abc=5"',
    ],
    ['label:=5', '--budget key must not be empty, got "label:=5"'],
    ['token:=5', '--budget key must not be empty, got "token:=5"'],
    [
      'label:a b=5',
      '--budget label must be 1 to 64 letters, digits or any of . _ : / = -, got "label:a b=5"',
    ],
    [
      'token:ci bot=5',
      '--budget token name must be 1 to 100 characters without spaces, got "token:ci bot=5"',
    ],
    ['label:x=abc', '--budget amount must be a number of US dollars, got "label:x=abc"'],
    ['label:x=', '--budget amount must be a number of US dollars, got "label:x="'],
    ['label:x=-5', '--budget amount must be a number of US dollars, got "label:x=-5"'],
    ['label:x=1e3', '--budget amount must be a number of US dollars, got "label:x=1e3"'],
    [
      'label:x=0',
      '--budget amount must be more than 0 and at most 1000000 US dollars, got "label:x=0"',
    ],
    [
      'label:x=1000000.01',
      '--budget amount must be more than 0 and at most 1000000 US dollars, got "label:x=1000000.01"',
    ],
  ])('rejects --budget %j naming the option', (value, error) => {
    expect(parseConfig(['--budget', value], {})).toEqual({ ok: false, error });
  });

  it('rejects a budget set twice, and a bad one in the variable naming it', () => {
    expect(parseConfig(['--budget', 'label:a=1', '--budget', 'label:a=2'], {})).toEqual({
      ok: false,
      error: '--budget sets the budget of label:a twice',
    });
    expect(parseConfig(['--budget', 'label:a=1', '--budget', 'token:a=2'], {}).ok).toBe(true);
    expect(parseConfig([], { CLAUDE_HUB_BUDGETS: 'label:a=1,LABEL:a=2' })).toEqual({
      ok: false,
      error: 'CLAUDE_HUB_BUDGETS sets the budget of label:a twice',
    });
    expect(parseConfig([], { CLAUDE_HUB_BUDGETS: 'label:a=0' })).toEqual({
      ok: false,
      error:
        'CLAUDE_HUB_BUDGETS amount must be more than 0 and at most 1000000 US dollars, got "label:a=0"',
    });
  });

  it('documents every option in the table of docs/configuration.md', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const spec of optionSpecs) {
      expect(doc).toContain(`\`--${spec.flag}\``);
      expect(doc).toContain(`\`${spec.env}\``);
    }
  });
});
