import type { LogLevel } from '../log.js';
import type { ConfiguredBudget } from './budget-option.js';

/** graphql-ws servers: the hub's own, which shares each event's bytes, or graphql-ws' own. */
export const wsServerKinds = ['hub', 'library'] as const;
export type WsServerKind = (typeof wsServerKinds)[number];

/** How sessions run, as `--default-runtime` names them. */
export const runtimeChoices = ['tmux', 'headless'] as const;

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
  /** Milliseconds of each event-loop turn graphql-ws fan-out may take (FanoutTurns). */
  readonly fanoutBudgetMs: number;
  /** Characters of terminal output a sessionTerminal subscriber may lag behind (then: a snapshot). */
  readonly terminalBufferBytes: number;
  /** Lines of history a terminal snapshot carries above the screen. */
  readonly terminalScrollback: number;
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
  /**
   * Days an event is kept, and a session that ended (with its messages and permission
   * requests); 0 keeps them whatever their age.
   */
  readonly retainDays: number;
  /** Messages, and permission requests, kept per session (the latest); 0 keeps all. */
  readonly retainRecords: number;
  /** Seconds a permission request is held open for a decision through the API. */
  readonly permissionHoldSeconds: number;
  /** What an undecided request answers when the hold ends: `ask` (the terminal decides) or `deny`. */
  readonly permissionExpiry: 'ask' | 'deny';
  /** A YAML or JSON file of permission rules, watched for changes; '' for none. */
  readonly policyFile: string;
  /** A price table tried before the shipped one (--prices); '' for none. */
  readonly prices: string;
  /** Label and token budgets set in the BudgetBook at every start (--budget). */
  readonly budgets: readonly ConfiguredBudget[];
  /** Messages that may wait per session; one more is refused with QUEUE_FULL. */
  readonly maxQueuedMessages: number;
  /** Seconds a queued message waits after a person's last key in the session's terminal; 0: none. */
  readonly typingGraceSeconds: number;
  /** One admin token's secret; '' for none. */
  readonly token: string;
  /** A JSON file of named, scoped tokens (secrets stored as SHA-256); '' for none. */
  readonly tokensFile: string;
  /** Where the git worktrees of sessions are made; `<dataDir>/worktrees` once parsed. */
  readonly worktreeRoot: string;
  /** Directories a session's cwd must lie in, after resolving symlinks; empty allows any. */
  readonly allowedRoots: readonly string[];
  /** Channels open without a listener, as `NAME[:description]`. */
  readonly channels: readonly string[];
  /** Browser origins allowed to call the API (CORS and WebSocket Origin); empty allows none. */
  readonly corsOrigins: readonly string[];
  readonly maxGraphqlBodyBytes: number;
  /** Deepest field nesting a GraphQL operation may have. */
  readonly maxQueryDepth: number;
  /**
   * Largest cost of an operation: 1 per field and per fragment, each fragment counted every time
   * it is spread, a list's selection times its items (its limit/first/last, literal or variable,
   * else its bound).
   */
  readonly maxQueryCost: number;
  /** Bytes one query's or mutation's response may take; past it, RESPONSE_TOO_LARGE. */
  readonly maxResponseBytes: number;
  /** Most aliases one operation may use. */
  readonly maxAliases: number;
  /** Most tokens one GraphQL document may have. */
  readonly maxTokens: number;
  /** Subscriptions one graphql-ws connection may run at once. */
  readonly maxSubscriptions: number;
  /** Which graphql-ws server answers WebSocket clients. */
  readonly graphqlWsServer: WsServerKind;
  /** How a session runs when createSession does not say. */
  readonly defaultRuntime: (typeof runtimeChoices)[number];
  /** Open WebSocket connections and event streams one token may hold. */
  readonly maxConnections: number;
  /** Sessions that may be live (not STOPPED or CRASHED) at once. */
  readonly maxSessions: number;
  readonly maxChildren: number;
  readonly maxOrchestrationDepth: number;
  readonly logLevel: LogLevel;
  /** Redis that makes this hub a node of a cluster; '' for a hub on its own. */
  readonly redisUrl: string;
  /** Prefix of every Redis key the cluster uses: clusters may share one Redis. */
  readonly redisPrefix: string;
  /** This node's name in the cluster; '' for the machine's host name. */
  readonly nodeName: string;
  /** Where the other nodes reach this one; '' for http://<host>:<port>. */
  readonly advertiseUrl: string;
  /** Seconds a node's lease lasts: a node silent for longer is down. */
  readonly nodeLeaseSeconds: number;
}
