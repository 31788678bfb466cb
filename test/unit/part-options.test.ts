import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig, type HubConfig } from '../../src/config/index.js';
import { RuntimeKind } from '../../src/runtime/session-runtime.js';
import {
  inputSettleMs,
  messageConfirmTimeoutMs,
  paneCheckMs,
  partOptions,
  pasteSettleMs,
  permissionHookMarginSeconds,
  replayPageSize,
  retentionIntervalMs,
  sessionPollMs,
  stopTimeoutMs,
  terminalPauseAfterSeconds,
  tmuxHistoryLines,
  unknownScreenAfterMs,
} from '../../src/server/part-options.js';

function config(argv: string[] = []): HubConfig {
  const parsed = parseConfig(['--data-dir', '/data/hub', ...argv], {});
  if (!parsed.ok) throw new Error(`bad test config: ${JSON.stringify(parsed)}`);
  return parsed.config;
}

describe('partOptions', () => {
  it('gives each part its defaults, every fixed timing by its name', () => {
    const options = partOptions(config(), {});
    expect(options.permissions).toEqual({ holdMs: 300_000, onExpiry: 'ask' });
    expect(options.sessions).toMatchObject({
      claudeBin: 'claude',
      defaultRuntime: RuntimeKind.Tmux,
      dataDir: '/data/hub',
      hookTimeoutSeconds: 10,
      startTimeoutMs: 30_000,
      stopTimeoutMs,
      pollIntervalMs: sessionPollMs,
      unknownScreenAfterMs,
      maxSessions: 100,
      allowedRoots: [],
      worktreeRoot: path.join('/data/hub', 'worktrees'),
      messages: {
        limit: 100,
        confirmTimeoutMs: messageConfirmTimeoutMs,
        readyTimeoutMs: 30_000,
        typingGraceMs: 10_000,
      },
      restartPolicy: { limit: 5, windowMs: 600_000, initialDelayMs: 1000, maxDelayMs: 60_000 },
    });
    expect(options.runtimes).toEqual({
      tmux: { paneCheckMs, inputSettleMs, pasteSettleMs },
      headless: { stopTimeoutMs },
      external: { pasteSettleMs, stopTimeoutMs },
    });
    expect(options.terminals).toEqual({
      scrollback: 1000,
      viewerBuffer: 1024 * 1024,
      pauseAfterSeconds: terminalPauseAfterSeconds,
    });
    expect(options.eventLog).toEqual({ events: 1_000_000, maxAgeMs: 0 });
    expect(options.channelLog).toEqual({ perChannel: 1_000_000, maxAgeMs: 0 });
    expect(options.retention).toEqual({
      maxAgeMs: 0,
      perSession: 1000,
      intervalMs: retentionIntervalMs,
    });
    expect(options.streams).toEqual({ bufferLimit: 10_000, replayPageSize });
    expect(options.graphqlWs).toEqual({
      maxMessageBytes: 1024 * 1024,
      maxSubscriptions: 100,
      fanoutBudgetMs: 5,
      server: 'hub',
    });
    expect(options.maxHookBodyBytes).toBe(32 * 1024 * 1024);
    expect(options.maxBodyBytes).toBe(1024 * 1024);
    expect(options.cluster).toBeNull();
    expect(options.tmux).toEqual({
      socket: 'claude-code-hub',
      configFile: path.join('/data/hub', 'tmux.conf'),
      configText: `set -g remain-on-exit on\nset -g history-limit ${tmuxHistoryLines}\n`,
    });
  });

  it('maps options to the parts that take them, in their units', () => {
    const options = partOptions(
      config([
        '--permission-hold=60',
        '--permission-expiry=deny',
        '--retain-days=2',
        '--retain-records=7',
        '--retain-events=50',
        '--typing-grace=0',
        '--start-timeout=45',
        '--default-runtime=headless',
        '--max-subscriptions=3',
        '--graphql-ws-server=library',
        '--channel=alerts:for the pager',
        '--channel=plain',
        '--restart-delay=2',
        '--restart-max-delay=20',
      ]),
      {},
    );
    const twoDaysMs = 2 * 24 * 60 * 60 * 1000;
    expect(options.permissions).toEqual({ holdMs: 60_000, onExpiry: 'deny' });
    expect(options.eventLog).toEqual({ events: 50, maxAgeMs: twoDaysMs });
    expect(options.channelLog).toEqual({ perChannel: 50, maxAgeMs: twoDaysMs });
    expect(options.retention).toMatchObject({ maxAgeMs: twoDaysMs, perSession: 7 });
    expect(options.sessions.defaultRuntime).toBe(RuntimeKind.Headless);
    expect(options.sessions.startTimeoutMs).toBe(45_000);
    expect(options.sessions.messages).toMatchObject({ readyTimeoutMs: 45_000, typingGraceMs: 0 });
    expect(options.sessions.restartPolicy).toMatchObject({
      initialDelayMs: 2000,
      maxDelayMs: 20_000,
    });
    expect(options.graphqlWs).toMatchObject({ maxSubscriptions: 3, server: 'library' });
    expect([...options.channels.declared]).toEqual([
      ['alerts', 'for the pager'],
      ['plain', null],
    ]);
  });

  it("sets claude's PermissionRequest hook timeout to the hold plus its margin", () => {
    for (const hold of [1, 300, 3600]) {
      const options = partOptions(config([`--permission-hold=${hold}`]), {});
      const timeout = hold + permissionHookMarginSeconds;
      expect(options.sessions.permissionTimeoutSeconds).toBe(timeout);
      expect(options.globalHooks.permissionTimeoutSeconds).toBe(timeout);
      expect(options.sessions.permissionTimeoutSeconds * 1000).toBeGreaterThan(
        options.permissions.holdMs,
      );
    }
  });

  it("keeps the hub's secrets and variables out of what claude and tmux get", () => {
    const secret = 'a-secret-of-16-chars';
    const env = {
      PATH: '/usr/bin',
      CLAUDE_HUB_TOKEN: secret,
      COPY_OF_IT: `x${secret}`,
      TMUX: '/tmp/tmux-1/default,1,0',
    };
    const options = partOptions(config(['--token', secret]), env);
    expect(options.secrets).toContain(secret);
    expect(options.childEnv).toEqual({ PATH: '/usr/bin' });
    expect(options.claude.env).toEqual({ PATH: '/usr/bin' });
    expect(options.sessions.env).toBe(env);
    expect(options.sessions.secrets).toEqual(options.secrets);
  });

  it('derives the cluster from --redis-url, and takes a pane check from the caller', () => {
    const options = partOptions(
      config(['--redis-url=redis://127.0.0.1:6379', '--node-lease=4', '--start-timeout=12']),
      {},
      { paneCheckMs: 250 },
    );
    expect(options.cluster).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'claude-hub',
      leaseMs: 4000,
      startTimeoutMs: 12_000,
      stopTimeoutMs,
      retainEvents: 1_000_000,
      subscriberBuffer: 10_000,
    });
    expect(options.runtimes.tmux.paneCheckMs).toBe(250);
  });

  it('is pure: the same config gives equal options', () => {
    const hub = config(['--channel=a']);
    expect(partOptions(hub, { PATH: '/bin' })).toEqual(partOptions(hub, { PATH: '/bin' }));
  });
});
