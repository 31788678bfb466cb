import type { WorkTreeMarksOptions } from '../changes/work-tree-marks.js';
import path from 'node:path';
import { systemClock, type Clock } from '../clock.js';
import { fileURLToPath } from 'node:url';
import { parseChannelSpec } from '../channels/channel.js';
import type { ChannelsOptions } from '../channels/channels.js';
import type { ChannelRetention } from '../channels/sqlite-channel-log.js';
import { claudeProbeBounds, type ClaudeCliOptions } from '../claude/claude-cli.js';
import type { ClusterOptions } from '../cluster/cluster-hub.js';
import type { HubConfig, WsServerKind } from '../config/index.js';
import type { GlobalHooksOptions } from '../hooks/global-hooks.js';
import type { PermissionBrokerOptions } from '../permissions/permission-broker.js';
import type { PolicyFileOptions } from '../permissions/policy-file-watch.js';
import type { ExternalRuntimeOptions } from '../runtime/external-runtime.js';
import type { HeadlessRuntimeOptions } from '../runtime/headless-runtime.js';
import { hubSecrets, sessionEnvironment } from '../runtime/session-env.js';
import { RuntimeKind } from '../runtime/session-runtime.js';
import type { TmuxRuntimeOptions } from '../runtime/tmux-runtime.js';
import type { SessionManagerOptions } from '../sessions/session-manager.js';
import type { Retention } from '../store/sqlite-event-log.js';
import type { RecordRetention } from '../store/retention.js';
import type { SessionEventsDeps } from '../subscriptions/session-events.js';
import type { WebSocketLimits } from '../subscriptions/graphql-ws-options.js';
import type { TerminalWatchOptions } from '../terminal/terminal-watch.js';

/**
 * How long stopSession waits for claude's SessionEnd, interruptSession for the turn to stop, and
 * a headless or EXTERNAL claude to exit before it is signalled: room for a busy machine, yet a
 * mutation does not hang long on a claude that never ends.
 */
export const stopTimeoutMs = 5_000;

/**
 * The supervision tick: a kernel call per claude and the screen of each starting session, so
 * twice a second notices an exit or a dialog soon at little cost.
 */
export const sessionPollMs = 500;

/**
 * How often every tmux pane is listed when nothing else asks: a launch and an exited process
 * list them at once, so this is a safety net, and each listing holds the loop while tmux starts.
 */
export const paneCheckMs = 60_000;

/**
 * A start showing neither a known dialog nor the input box this long is BLOCKED (UNKNOWN_SCREEN):
 * room for a slow start, yet a client soon learns of a screen the hub does not know.
 */
export const unknownScreenAfterMs = 10_000;

/**
 * A typed message waits this long for its UserPromptSubmit before the screen is read: the hook
 * follows a prompt claude took at once, so by then the screen says what became of it.
 */
export const messageConfirmTimeoutMs = 10_000;

/** Pause after claude's input box first appears: its TUI drops keys typed right away. */
export const inputSettleMs = 500;

/**
 * How long a paste may take to show in the input box before Enter is pressed anyway: short, as
 * every typed message may wait on it.
 */
export const pasteSettleMs = 300;

/**
 * claude's timeout for the PermissionRequest hook is the hold plus this: the hub answers when
 * the hold ends (ask or deny), and claude must still be waiting for that answer then.
 */
export const permissionHookMarginSeconds = 30;

/**
 * Records and events past retention go at start, then this often: nobody waits on it, since
 * reads skip what is past the bounds at once.
 */
export const retentionIntervalMs = 60_000;

/**
 * The longest a hook answer waits for the snapshot of the work tree taken at it (a turn's
 * start and end, after a tool call): past it claude goes on, and the mark lands late.
 */
export const changeMarkWaitMs = 2000;

/**
 * A session whose last snapshot took longer than this has its hooks answered without waiting
 * for the next: claude waits for no very large checkout.
 */
export const changeMarkQuickMs = 250;

/**
 * Events read from the log per page while replaying: one query each, so a replay's memory stays
 * bounded whatever its length.
 */
export const replayPageSize = 1_000;

/**
 * Seconds tmux may hold a terminal's output for the hub (its event loop stalled) before it stops
 * sending it; the hub then sends its viewers a fresh snapshot.
 */
export const terminalPauseAfterSeconds = 10;

/** Lines tmux keeps above each pane's screen: what a person scrolling back in it can reach. */
export const tmuxHistoryLines = 10_000;

/**
 * A change in the policy file's folder is read this long after it: an editor's save (a write, a
 * rename, a mode change) is read once, soon enough that a person sees the rules in force at once.
 */
export const policyFileDebounceMs = 100;

/** A larger policy file is refused: its rules are tried on every tool call. */
export const policyFileMaxBytes = 1024 * 1024;

const dayMs = 24 * 60 * 60 * 1000;

/** The command-hook forwarder every session's settings name, in this install. */
export const forwarderPath = fileURLToPath(new URL('../../hooks/forward.sh', import.meta.url));

/** What the caller of buildApp may set beyond the config (the tests). */
export interface PartOverrides {
  /** How often every tmux pane is listed regardless (paneCheckMs by default). */
  readonly paneCheckMs?: number;
  /** The clock usage limits reset by (the system's by default; a test moves it). */
  readonly limitClock?: Clock;
  /** The clock scheduled prompts tick by (the system's by default; a test moves it). */
  readonly scheduleClock?: Clock;
}

/** What each part of the hub is given, derived from the config alone. */
export interface PartOptions {
  /** Where the database, tmux's config, the hook token and claude's learned events live. */
  readonly dataDir: string;
  /** The hub's secrets, kept out of every session's environment (see hubSecrets). */
  readonly secrets: readonly string[];
  /**
   * All that claude and tmux get of the hub's environment: a tmux server keeps its first
   * client's, so this is what every session's tmux sees.
   */
  readonly childEnv: Readonly<Record<string, string>>;
  readonly tmux: {
    readonly socket: string;
    /** tmux's config file in the data dir (0600), and what it holds. */
    readonly configFile: string;
    readonly configText: string;
  };
  readonly claude: Omit<ClaudeCliOptions, 'log'>;
  readonly eventLog: Retention;
  readonly channelLog: ChannelRetention;
  readonly channels: Omit<ChannelsOptions, 'clock'>;
  /** Records past these go at start and every `intervalMs`. */
  readonly retention: RecordRetention & { readonly intervalMs: number };
  /** Where sessions' snapshot indexes are kept, and how long a hook answer waits for one. */
  readonly changeMarks: WorkTreeMarksOptions;
  readonly permissions: Pick<PermissionBrokerOptions, 'holdMs' | 'onExpiry'>;
  /** The --policy-file, watched; null without one. */
  readonly policyFile: Omit<PolicyFileOptions, 'log' | 'clock'> | null;
  readonly terminals: TerminalWatchOptions;
  readonly globalHooks: Omit<
    GlobalHooksOptions,
    'hookUrl' | 'events' | 'checkProjectDir' | 'tokens'
  >;
  readonly sessions: Omit<
    SessionManagerOptions,
    'hookEvents' | 'isHookToken' | 'lastInput' | 'ownClients' | 'timed' | 'log' | 'clock'
  >;
  readonly runtimes: {
    readonly tmux: Omit<TmuxRuntimeOptions, 'timed'>;
    readonly headless: Omit<HeadlessRuntimeOptions, 'output'>;
    readonly external: ExternalRuntimeOptions;
  };
  /** What every stream of a session's events shares (graphql-ws, SSE, plain SSE, the cluster's). */
  readonly streams: Pick<SessionEventsDeps, 'bufferLimit' | 'replayPageSize'>;
  readonly graphqlWs: Pick<
    WebSocketLimits,
    'maxMessageBytes' | 'maxSubscriptions' | 'fanoutBudgetMs'
  > & { readonly server: WsServerKind };
  /** Larger bodies are refused with 413: hooks, and GraphQL, MCP and node calls. */
  readonly maxHookBodyBytes: number;
  readonly maxBodyBytes: number;
  /** The cluster to join (with --redis-url), less what is known only once the hub listens. */
  readonly cluster: Omit<ClusterOptions, 'nodeName' | 'url' | 'log'> | null;
  /** The clock usage limits reset by. */
  readonly limitClock: Clock;
  /** The clock scheduled prompts tick by. */
  readonly scheduleClock: Clock;
}

/** The options of every part of the hub, from its config. Pure: no I/O, and the same each call. */
export function partOptions(
  config: HubConfig,
  env: Readonly<Record<string, string | undefined>>,
  overrides: PartOverrides = {},
): PartOptions {
  const secrets = hubSecrets(config);
  const childEnv = sessionEnvironment(env, secrets);
  const maxAgeMs = config.retainDays * dayMs;
  const startTimeoutMs = config.startTimeoutSeconds * 1000;
  const permissionTimeoutSeconds = config.permissionHoldSeconds + permissionHookMarginSeconds;
  return {
    dataDir: config.dataDir,
    secrets,
    childEnv,
    tmux: {
      socket: config.tmuxSocket,
      configFile: path.join(config.dataDir, 'tmux.conf'),
      configText: `set -g remain-on-exit on\nset -g history-limit ${tmuxHistoryLines}\n`,
    },
    claude: { dataDir: config.dataDir, env: childEnv, ...claudeProbeBounds },
    eventLog: { events: config.retainEvents, maxAgeMs },
    channelLog: { perChannel: config.retainEvents, maxAgeMs },
    channels: {
      declared: new Map(
        config.channels.map((spec) => {
          const { name, description } = parseChannelSpec(spec);
          return [name, description];
        }),
      ),
      bufferLimit: config.subscriberBuffer,
    },
    retention: { maxAgeMs, perSession: config.retainRecords, intervalMs: retentionIntervalMs },
    changeMarks: {
      folder: path.join(config.dataDir, 'change-index'),
      waitMs: changeMarkWaitMs,
      quickMs: changeMarkQuickMs,
    },
    permissions: { holdMs: config.permissionHoldSeconds * 1000, onExpiry: config.permissionExpiry },
    policyFile: config.policyFile
      ? {
          path: config.policyFile,
          debounceMs: policyFileDebounceMs,
          maxBytes: policyFileMaxBytes,
        }
      : null,
    terminals: {
      scrollback: config.terminalScrollback,
      viewerBuffer: config.terminalBufferBytes,
      pauseAfterSeconds: terminalPauseAfterSeconds,
    },
    globalHooks: {
      dataDir: config.dataDir,
      env,
      forwarderPath,
      httpTimeoutSeconds: config.hookTimeoutSeconds,
      permissionTimeoutSeconds,
    },
    sessions: {
      claudeBin: config.claudeBin,
      defaultRuntime:
        config.defaultRuntime === 'headless' ? RuntimeKind.Headless : RuntimeKind.Tmux,
      dataDir: config.dataDir,
      env,
      secrets,
      forwarderPath,
      allowedRoots: config.allowedRoots,
      worktreeRoot: config.worktreeRoot,
      maxSessions: config.maxSessions,
      hookTimeoutSeconds: config.hookTimeoutSeconds,
      permissionTimeoutSeconds,
      unknownScreenAfterMs,
      messages: {
        limit: config.maxQueuedMessages,
        confirmTimeoutMs: messageConfirmTimeoutMs,
        readyTimeoutMs: startTimeoutMs,
        typingGraceMs: config.typingGraceSeconds * 1000,
      },
      startTimeoutMs,
      stopTimeoutMs,
      pollIntervalMs: sessionPollMs,
      restartPolicy: {
        limit: config.restartLimit,
        windowMs: config.restartWindowSeconds * 1000,
        initialDelayMs: config.restartDelaySeconds * 1000,
        maxDelayMs: config.restartMaxDelaySeconds * 1000,
      },
    },
    runtimes: {
      tmux: { paneCheckMs: overrides.paneCheckMs ?? paneCheckMs, inputSettleMs, pasteSettleMs },
      headless: { stopTimeoutMs },
      external: { pasteSettleMs, stopTimeoutMs },
    },
    streams: { bufferLimit: config.subscriberBuffer, replayPageSize },
    graphqlWs: {
      maxMessageBytes: config.maxGraphqlBodyBytes,
      maxSubscriptions: config.maxSubscriptions,
      fanoutBudgetMs: config.fanoutBudgetMs,
      server: config.graphqlWsServer,
    },
    maxHookBodyBytes: config.maxHookBodyBytes,
    maxBodyBytes: config.maxGraphqlBodyBytes,
    cluster: config.redisUrl
      ? {
          redisUrl: config.redisUrl,
          redisPrefix: config.redisPrefix,
          leaseMs: config.nodeLeaseSeconds * 1000,
          startTimeoutMs,
          stopTimeoutMs,
          retainEvents: config.retainEvents,
          subscriberBuffer: config.subscriberBuffer,
        }
      : null,
    limitClock: overrides.limitClock ?? systemClock,
    scheduleClock: overrides.scheduleClock ?? systemClock,
  };
}
