import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeAccount } from '../../src/claude/claude-account.js';
import { usageLimitEntry } from '../../src/runs/usage-limit-entry.js';

// Two lines claude wrote when the API refused a turn (fields it does not read trimmed).
const subscriptionLimit = JSON.stringify({
  parentUuid: 'a1',
  type: 'assistant',
  timestamp: '2026-11-26T19:56:17.237Z',
  error: 'rate_limit',
  isApiErrorMessage: true,
  apiErrorStatus: 429,
  apiError: 'usage_limit_reached',
  apiErrorParams: {
    rate_limit_info: {
      status: 'rejected',
      resetsAt: 1795723095,
      rateLimitType: 'five_hour',
      isUsingOverage: false,
    },
  },
  message: {
    model: '<synthetic>',
    role: 'assistant',
    content: [{ type: 'text', text: "You've hit your 5-hour limit · resets 7:58pm (UTC)" }],
    usage: { input_tokens: 0, output_tokens: 0 },
  },
});
const keyRateLimit = JSON.stringify({
  parentUuid: 'a2',
  type: 'assistant',
  timestamp: '2026-11-26T19:56:23.080Z',
  error: 'rate_limit',
  isApiErrorMessage: true,
  apiErrorStatus: 429,
  apiErrorType: 'rate_limit_error',
  message: {
    model: '<synthetic>',
    role: 'assistant',
    content: [{ type: 'text', text: 'API Error: Request rejected (429) · Rate limited' }],
    usage: { input_tokens: 0, output_tokens: 0 },
  },
});
const userLine = JSON.stringify({
  type: 'user',
  timestamp: '2026-11-26T19:56:10.000Z',
  message: { role: 'user', content: 'go on' },
});

const at = (iso: string) => Date.parse(iso);

describe('the refusal in a transcript', () => {
  const before = at('2026-11-26T19:50:00.000Z');

  it("reads a subscription's limit: its reset in ms and its kind", () => {
    const jsonl = [userLine, subscriptionLimit, ''].join('\n');
    expect(usageLimitEntry(jsonl, before)).toEqual({
      resetsAt: 1795723095_000,
      kind: 'five_hour',
      at: at('2026-11-26T19:56:17.237Z'),
    });
  });

  it("reads an API key's 429 without a reset time", () => {
    expect(usageLimitEntry(`${userLine}\n${keyRateLimit}\n`, before)).toEqual({
      resetsAt: null,
      kind: null,
      at: at('2026-11-26T19:56:23.080Z'),
    });
  });

  it('ignores the refusals recorded before `since`, and takes the last of the others', () => {
    const jsonl = [subscriptionLimit, keyRateLimit].join('\n');
    expect(usageLimitEntry(jsonl, at('2026-11-26T19:56:20.000Z'))?.resetsAt).toBeNull();
    expect(usageLimitEntry(jsonl, at('2026-11-26T19:56:23.081Z'))).toBeNull();
    expect(usageLimitEntry(jsonl, at('2026-11-26T19:56:23.080Z'))?.kind).toBeNull();
    expect(usageLimitEntry([keyRateLimit, subscriptionLimit].join('\n'), 0)?.kind).toBe(
      'five_hour',
    );
  });

  it('skips a half-written last line, lines of other types and other errors', () => {
    const halfWritten = keyRateLimit.slice(0, keyRateLimit.length - 20);
    expect(usageLimitEntry(`${subscriptionLimit}\n${halfWritten}`, before)?.kind).toBe('five_hour');
    const asUser = JSON.stringify({ ...JSON.parse(keyRateLimit), type: 'user' });
    const serverError = keyRateLimit.replace('"error":"rate_limit"', '"error":"server_error"');
    expect(serverError).toContain('"server_error"');
    // Naming rate_limit elsewhere does not make another error a limit.
    const otherError = JSON.stringify({ ...JSON.parse(serverError), apiError: 'rate_limit' });
    expect(
      usageLimitEntry([userLine, asUser, serverError, otherError, halfWritten].join('\n'), 0),
    ).toBeNull();
    expect(usageLimitEntry('', 0)).toBeNull();
  });
});

describe("the account a claude's environment bills", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const configDir = (accountUuid: string): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hub-account-'));
    dirs.push(dir);
    writeFileSync(
      path.join(dir, '.claude.json'),
      JSON.stringify({ oauthAccount: { accountUuid, emailAddress: 'x@example.com' } }),
    );
    return dir;
  };

  it('is one per credential and API address, an opaque 16 hex digits', () => {
    const key = 'sk-ant-api03-secret-one';
    const id = claudeAccount({ ANTHROPIC_API_KEY: key });
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(id).not.toContain(key);
    expect(key).not.toContain(id);
    expect(claudeAccount({ ANTHROPIC_API_KEY: key, PATH: '/bin' })).toBe(id);
    expect(claudeAccount({ ANTHROPIC_API_KEY: 'sk-ant-api03-secret-two' })).not.toBe(id);
    expect(
      claudeAccount({ ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: 'https://proxy.example' }),
    ).not.toBe(id);
    const proxied = { ANTHROPIC_AUTH_TOKEN: 'tok', ANTHROPIC_BASE_URL: 'https://proxy.example' };
    expect(claudeAccount(proxied)).toBe(claudeAccount({ ...proxied }));
    expect(claudeAccount({ CLAUDE_CODE_OAUTH_TOKEN: 'oauth' })).toMatch(/^[0-9a-f]{16}$/);
  });

  it("without a credential, is the login's: config dirs of one account share it", () => {
    const one = claudeAccount({ CLAUDE_CONFIG_DIR: configDir('uuid-1') });
    expect(one).toMatch(/^[0-9a-f]{16}$/);
    expect(claudeAccount({ CLAUDE_CONFIG_DIR: configDir('uuid-1') })).toBe(one);
    expect(claudeAccount({ CLAUDE_CONFIG_DIR: configDir('uuid-2') })).not.toBe(one);
    expect(
      claudeAccount({ CLAUDE_CONFIG_DIR: configDir('uuid-1'), ANTHROPIC_BASE_URL: 'https://b' }),
    ).not.toBe(one);
    // A credential wins over the login.
    expect(claudeAccount({ CLAUDE_CONFIG_DIR: configDir('uuid-1'), ANTHROPIC_API_KEY: 'k' })).toBe(
      claudeAccount({ ANTHROPIC_API_KEY: 'k' }),
    );
  });
});
