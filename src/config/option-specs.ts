import { logLevels } from '../log.js';
import { runtimeChoices, wsServerKinds, type HubConfig } from './hub-config.js';

/**
 * One option: its flag, its variable, the key of HubConfig it sets, how it is read,
 * its default.
 */
export interface OptionSpec {
  readonly flag: string;
  readonly env: string;
  readonly key: keyof HubConfig;
  readonly kind:
    | 'port'
    | 'string'
    | 'optional'
    | 'secret'
    | 'list'
    | 'budget'
    | 'name'
    | 'positive'
    | 'count'
    | 'boolean'
    | 'choice'
    | 'url';
  readonly default: string | number | boolean | readonly string[];
  /** The values a `choice` takes. */
  readonly choices?: readonly string[];
  readonly description: string;
}

/**
 * The options, as data: the parser, `--help` and the table of docs/configuration.md all read
 * this list.
 */
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
    description:
      'Seconds createSession waits for SessionStart before reporting the screen, and a queued message for a session that is not ready.',
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
    flag: 'fanout-budget',
    env: 'CLAUDE_HUB_FANOUT_BUDGET',
    key: 'fanoutBudgetMs',
    kind: 'count',
    default: 5,
    description:
      "Milliseconds of each event-loop turn that graphql-ws subscribers' messages may take, writes included, before the rest waits for the next turn, oldest connections first, so hook answers stay fast under any fan-out.",
  },
  {
    flag: 'terminal-buffer',
    env: 'CLAUDE_HUB_TERMINAL_BUFFER',
    key: 'terminalBufferBytes',
    kind: 'positive',
    default: 1024 * 1024,
    description:
      "Characters of a session's terminal output a sessionTerminal subscriber may lag behind; past that it gets a fresh snapshot instead.",
  },
  {
    flag: 'terminal-scrollback',
    env: 'CLAUDE_HUB_TERMINAL_SCROLLBACK',
    key: 'terminalScrollback',
    kind: 'count',
    default: 1000,
    description:
      "Lines of a terminal's history a sessionTerminal snapshot carries above the screen.",
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
    description:
      'Days an event, and an ended session with its messages and permission requests, is kept; 0 keeps them whatever their age.',
  },
  {
    flag: 'retain-records',
    env: 'CLAUDE_HUB_RETAIN_RECORDS',
    key: 'retainRecords',
    kind: 'count',
    default: 1000,
    description:
      'Messages, and permission requests, kept per session; older settled ones are deleted at start. 0 keeps all.',
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
    kind: 'choice',
    choices: ['ask', 'deny'],
    default: 'ask',
    description: 'When nobody decides in time: ask (leave it to the terminal dialog) or deny.',
  },
  {
    flag: 'policy-file',
    env: 'CLAUDE_HUB_POLICY_FILE',
    key: 'policyFile',
    kind: 'optional',
    default: '',
    description:
      'YAML or JSON file of permission rules, read again whenever it changes (a broken edit keeps the rules before).',
  },
  {
    flag: 'prices',
    env: 'CLAUDE_HUB_PRICES',
    key: 'prices',
    kind: 'optional',
    default: '',
    description:
      'YAML or JSON price table (per million tokens, by model glob) tried before the one the hub ships, for turns whose cost claude does not report.',
  },
  {
    flag: 'budget',
    env: 'CLAUDE_HUB_BUDGETS',
    key: 'budgets',
    kind: 'budget',
    default: [],
    description:
      'Budget of a label or a token, as SCOPE:KEY=USD (label:nightly=20, token:ci-bot=5), set at every start over the stored one (repeatable; the variable is comma-separated).',
  },
  {
    flag: 'max-queued-messages',
    env: 'CLAUDE_HUB_MAX_QUEUED_MESSAGES',
    key: 'maxQueuedMessages',
    kind: 'positive',
    default: 100,
    description: 'Messages that may wait per session while it is busy; one more gets QUEUE_FULL.',
  },
  {
    flag: 'typing-grace',
    env: 'CLAUDE_HUB_TYPING_GRACE',
    key: 'typingGraceSeconds',
    kind: 'count',
    default: 10,
    description:
      "Seconds a queued message waits after a person's last key in the session's terminal; 0 turns that off.",
  },
  {
    flag: 'token',
    env: 'CLAUDE_HUB_TOKEN',
    key: 'token',
    kind: 'secret',
    default: '',
    description:
      'Secret of one token with the admin scope (16+ characters; prefer the variable, argv is visible in ps).',
  },
  {
    flag: 'tokens-file',
    env: 'CLAUDE_HUB_TOKENS_FILE',
    key: 'tokensFile',
    kind: 'optional',
    default: '',
    description: 'JSON file of named tokens with scopes and SHA-256 secret hashes.',
  },
  {
    flag: 'worktree-root',
    env: 'CLAUDE_HUB_WORKTREE_ROOT',
    key: 'worktreeRoot',
    kind: 'optional',
    default: '',
    description:
      "Folder of the git worktrees made for sessions (createSession's worktree). None: <data dir>/worktrees.",
  },
  {
    flag: 'allowed-root',
    env: 'CLAUDE_HUB_ALLOWED_ROOTS',
    key: 'allowedRoots',
    kind: 'list',
    default: [],
    description:
      'Directory a session cwd must lie in (repeatable; the variable is comma-separated). None: any.',
  },
  {
    flag: 'channel',
    env: 'CLAUDE_HUB_CHANNELS',
    key: 'channels',
    kind: 'list',
    default: [],
    description:
      'Channel open without a listener, as NAME[:description], for adapters that poll (repeatable; the variable is comma-separated).',
  },
  {
    flag: 'cors-origin',
    env: 'CLAUDE_HUB_CORS_ORIGINS',
    key: 'corsOrigins',
    kind: 'list',
    default: [],
    description:
      'Browser origin allowed to call the API, e.g. https://dash.example (repeatable). None: same origin only.',
  },
  {
    flag: 'max-graphql-body',
    env: 'CLAUDE_HUB_MAX_GRAPHQL_BODY',
    key: 'maxGraphqlBodyBytes',
    kind: 'positive',
    default: 1024 * 1024,
    description:
      'Largest GraphQL request body, and graphql-ws message, in bytes; larger bodies get 413, larger messages close 1009.',
  },
  {
    flag: 'max-query-depth',
    env: 'CLAUDE_HUB_MAX_QUERY_DEPTH',
    key: 'maxQueryDepth',
    kind: 'positive',
    default: 12,
    description: 'Deepest field nesting of an operation.',
  },
  {
    flag: 'max-query-cost',
    env: 'CLAUDE_HUB_MAX_QUERY_COST',
    key: 'maxQueryCost',
    kind: 'positive',
    default: 50_000,
    description:
      'Largest cost of an operation, refused before it runs: 1 per field and fragment, fragments counted at every spread, a list field times its items (its limit/first/last, literal or variable, up to what the field returns; 100 for a list without one; a list of scalars counts 1).',
  },
  {
    flag: 'max-response-bytes',
    env: 'CLAUDE_HUB_MAX_RESPONSE_BYTES',
    key: 'maxResponseBytes',
    kind: 'positive',
    default: 64 * 1024 * 1024,
    description:
      "Bytes one query's or mutation's response may take, counted as it is built; past them it stops and answers RESPONSE_TOO_LARGE alone. The default holds two of the largest hook events (--max-hook-body).",
  },
  {
    flag: 'max-aliases',
    env: 'CLAUDE_HUB_MAX_ALIASES',
    key: 'maxAliases',
    kind: 'positive',
    default: 15,
    description: 'Most aliases one operation uses (one field asked for many times over).',
  },
  {
    flag: 'max-tokens',
    env: 'CLAUDE_HUB_MAX_TOKENS',
    key: 'maxTokens',
    kind: 'positive',
    default: 50_000,
    description: 'Most tokens one GraphQL document has; more is refused before it is parsed whole.',
  },
  {
    flag: 'max-subscriptions',
    env: 'CLAUDE_HUB_MAX_SUBSCRIPTIONS',
    key: 'maxSubscriptions',
    kind: 'positive',
    default: 100,
    description: 'Subscriptions one graphql-ws connection may run at once.',
  },
  {
    flag: 'graphql-ws-server',
    env: 'CLAUDE_HUB_GRAPHQL_WS_SERVER',
    key: 'graphqlWsServer',
    kind: 'choice',
    choices: wsServerKinds,
    default: 'hub',
    description:
      "graphql-ws server: hub (writes each event's message once for all its subscribers) or library (graphql-ws' own).",
  },
  {
    flag: 'default-runtime',
    env: 'CLAUDE_HUB_DEFAULT_RUNTIME',
    key: 'defaultRuntime',
    kind: 'choice',
    choices: runtimeChoices,
    default: 'tmux',
    description:
      'How a session runs when createSession does not say: tmux (a pane a person can attach to) or headless (claude -p over stream-json, no terminal).',
  },
  {
    flag: 'max-connections',
    env: 'CLAUDE_HUB_MAX_CONNECTIONS',
    key: 'maxConnections',
    kind: 'positive',
    default: 200,
    description: 'WebSocket connections and event streams one token may hold open.',
  },
  {
    flag: 'max-sessions',
    env: 'CLAUDE_HUB_MAX_SESSIONS',
    key: 'maxSessions',
    kind: 'positive',
    default: 100,
    description: 'Live sessions at once; one more gets SESSION_LIMIT.',
  },
  {
    flag: 'max-children',
    env: 'CLAUDE_HUB_MAX_CHILDREN',
    key: 'maxChildren',
    kind: 'positive',
    default: 10,
    description:
      'Live sessions one session may have started at once with the start_session tool; one more is a CHILD_LIMIT tool error.',
  },
  {
    flag: 'max-orchestration-depth',
    env: 'CLAUDE_HUB_MAX_ORCHESTRATION_DEPTH',
    key: 'maxOrchestrationDepth',
    kind: 'positive',
    default: 2,
    description:
      "How deep sessions may start sessions: a client's session is at depth 0, its children at 1; a start below this depth is a DEPTH_LIMIT tool error.",
  },
  {
    flag: 'log-level',
    env: 'CLAUDE_HUB_LOG_LEVEL',
    key: 'logLevel',
    kind: 'choice',
    choices: logLevels,
    default: 'info',
    description: `Least severe log lines written (JSON on stderr): ${logLevels.join(', ')}.`,
  },
  {
    flag: 'redis-url',
    env: 'CLAUDE_HUB_REDIS_URL',
    key: 'redisUrl',
    kind: 'url',
    default: '',
    description: 'redis:// URL: makes this hub a node of the cluster that shares that Redis.',
  },
  {
    flag: 'redis-prefix',
    env: 'CLAUDE_HUB_REDIS_PREFIX',
    key: 'redisPrefix',
    kind: 'name',
    default: 'claude-hub',
    description: "Prefix of the cluster's Redis keys; clusters with different ones share a Redis.",
  },
  {
    flag: 'node-name',
    env: 'CLAUDE_HUB_NODE_NAME',
    key: 'nodeName',
    kind: 'name',
    default: '',
    description: "This node's name in the cluster (default: the host name).",
  },
  {
    flag: 'advertise-url',
    env: 'CLAUDE_HUB_ADVERTISE_URL',
    key: 'advertiseUrl',
    kind: 'url',
    default: '',
    description: 'Where the other nodes reach this one (default: http://<host>:<port>).',
  },
  {
    flag: 'node-lease',
    env: 'CLAUDE_HUB_NODE_LEASE',
    key: 'nodeLeaseSeconds',
    kind: 'positive',
    default: 10,
    description: "Seconds a node's lease lasts; its sessions are UNREACHABLE once it lapses.",
  },
];
