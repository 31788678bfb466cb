import type { TokenEntry } from '../auth/tokens.js';
import { ChangeMarks } from '../changes/change-marks.js';
import { WorkTreeMarks } from '../changes/work-tree-marks.js';
import { Channels } from '../channels/channels.js';
import { BudgetBook } from '../costs/budgets.js';
import { readPriceFile } from '../costs/price-file.js';
import { Prices, shippedPrices } from '../costs/prices.js';
import { UsageLedger } from '../costs/usage-ledger.js';
import { SqliteChannelLog } from '../channels/sqlite-channel-log.js';
import { ClaudeCli } from '../claude/claude-cli.js';
import { LocalEventBus } from '../events/event-bus.js';
import { appendObserved } from '../events/event-log.js';
import { byId, Topic } from '../events/topic.js';
import { gitEnvironment, gitRunner } from '../git/git.js';
import { TreeSnapshots } from '../git/tree-snapshots.js';
import { GlobalHooks } from '../hooks/global-hooks.js';
import type { HubMetrics } from '../metrics.js';
import { systemClock } from '../clock.js';
import { AuditLog } from '../audit/audit-log.js';
import { PermissionBroker } from '../permissions/permission-broker.js';
import { RuleBook } from '../permissions/rule-book.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import { ExternalRuntime } from '../runtime/external-runtime.js';
import { HeadlessRuntime } from '../runtime/headless-runtime.js';
import { RuntimeSet } from '../runtime/runtime-set.js';
import { TmuxDriver } from '../runtime/tmux-driver.js';
import { TmuxRuntime } from '../runtime/tmux-runtime.js';
import { SessionManager } from '../sessions/session-manager.js';
import { Terminals } from '../terminal/terminals.js';
import type { Store } from './open-store.js';
import type { StartContext } from './parts.js';

/** The hub's own parts, behind its API: sessions and what they run on, permissions, channels. */
export interface HubCore {
  readonly claude: ClaudeCli;
  readonly tmux: TmuxDriver;
  readonly bus: LocalEventBus;
  /** Every new and settled permission request, for subscribers and the cluster. */
  readonly permissionChanges: Topic<PermissionRecord>;
  readonly permissions: PermissionBroker;
  /** The permission rules in force: the API's (stored) and the --policy-file's. */
  readonly rules: RuleBook;
  readonly audit: AuditLog;
  readonly channels: Channels;
  readonly terminals: Terminals;
  readonly globalHooks: GlobalHooks;
  readonly sessions: SessionManager;
  /** The completed turns' costs, and the prices turns are costed at. */
  readonly costs: {
    readonly ledger: UsageLedger;
    readonly prices: Prices;
    readonly budgets: BudgetBook;
  };
  /** Snapshots of sessions' work trees, and the marks that keep them: turns' changes. */
  readonly changes: {
    readonly snapshots: TreeSnapshots;
    readonly store: ChangeMarks;
    readonly marks: WorkTreeMarks;
  };
}

export interface HubCoreDeps {
  readonly store: Store;
  /** The configured tokens: the global hooks take those of the `hook` scope. */
  readonly tokens: readonly TokenEntry[];
  readonly metrics: HubMetrics;
}

/**
 * Builds the hub's parts on its opened store, construction only: each reads its records in, and
 * the global hooks make their token once, but nothing is started. What needs another part built
 * after it (the broker and the runtimes tell the sessions) is bound to it by name.
 */
export function hubCore(
  { config, options, log, parts }: StartContext,
  { store, tokens, metrics }: HubCoreDeps,
): HubCore {
  const { claudeBin } = config;
  const tmux = new TmuxDriver(options.tmux.socket, options.tmux.configFile, options.childEnv);
  const claude = (parts.claude = new ClaudeCli({ ...options.claude, log }));
  const bus = new LocalEventBus();
  const permissionChanges = new Topic<PermissionRecord>(byId);
  const permissions = (parts.permissions = new PermissionBroker(
    {
      ...options.permissions,
      changed: (request) => {
        permissionChanges.publish(request);
        sessions.permissionChanged(request);
      },
      resolved: (request) => {
        metrics.permissionDecisions.inc({
          outcome: request.status,
          // `rule <name>` and `token <name>` count by kind: names would make a series each.
          decided_by: request.decidedBy?.split(' ')[0] ?? 'none',
        });
        return sessions.permissionResolved(request);
      },
    },
    store.records.permissions,
  ));
  const rules = new RuleBook(store.records.rules);
  const audit = new AuditLog(store.db);
  const channels = new Channels(
    options.channels,
    new SqliteChannelLog(store.db, options.channelLog),
  );
  const terminals = (parts.terminals = new Terminals(options.terminals));
  const globalHooks = new GlobalHooks({
    ...options.globalHooks,
    hookUrl: () => parts.hookListeners?.url ?? '',
    events: () => claude.hookEvents(claudeBin),
    checkProjectDir: (dir) => sessions.checkAllowedRoot(dir),
    tokens,
  });
  const runtime = new RuntimeSet({
    TMUX: new TmuxRuntime(tmux, { ...options.runtimes.tmux, timed: metrics.timed }),
    HEADLESS: new HeadlessRuntime({
      ...options.runtimes.headless,
      output: (id, line) => sessions.appendStreamLine(id, line),
    }),
    EXTERNAL: new ExternalRuntime(options.runtimes.external),
  });
  // git runs with the sessions' environment: the hub's secrets are not in it.
  const snapshots = new TreeSnapshots(gitRunner(gitEnvironment(options.childEnv)));
  const changeMarks = new ChangeMarks(store.db);
  const marks = new WorkTreeMarks(options.changeMarks, {
    snapshots,
    marks: changeMarks,
    clock: systemClock,
    log,
  });
  const ledger = new UsageLedger(store.db, store.commits);
  const sessions: SessionManager = (parts.sessions = new SessionManager(
    {
      ...options.sessions,
      hookEvents: (bin) => claude.hookEvents(bin),
      isHookToken: (secretSha256) => globalHooks.isHookToken(secretSha256),
      lastInput: (id) => terminals.lastInput(id),
      heldBack: (id) =>
        (parts.budgetHolds?.isHeld(id) ?? false) || (parts.usageLimits?.isHeld(id) ?? false),
      ownClients: () => terminals.clientPids(),
      timed: metrics.timed,
      log,
    },
    {
      runtime,
      // A cluster node shares each appended event with the others.
      log: options.cluster
        ? appendObserved(store.eventLog, (id) => parts.cluster?.appended(id))
        : store.eventLog,
      bus,
      store: store.records.sessions,
      messageStore: store.records.messages,
      permissions,
      rules,
      audit: (entry) => audit.record(entry),
      marks,
    },
  ));
  return {
    claude,
    tmux,
    bus,
    permissionChanges,
    permissions,
    rules,
    audit,
    channels,
    terminals,
    globalHooks,
    sessions,
    changes: { snapshots, store: changeMarks, marks },
    costs: {
      ledger,
      budgets: new BudgetBook(store.db, ledger),
      // A --prices file that does not load stops the start, naming the field to blame.
      prices: new Prices(
        config.prices ? [readPriceFile(config.prices), shippedPrices] : [shippedPrices],
      ),
    },
  };
}
