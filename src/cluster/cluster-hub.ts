import type { ChangeScope, FileChangeRecord } from '../changes/session-file-changes.js';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CreateInput, Hub, NodeInfo } from '../hub/hub.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { EventLog, ReadOptions } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import {
  PermissionStatus,
  type Decision,
  type DecisionResult,
  type PermissionRecord,
} from '../permissions/permission-request.js';
import type { DialogAnswer } from '../sessions/dialog-watch.js';
import type { MessageRecord } from '../sessions/message.js';
import type { EnqueueOptions } from '../sessions/message-queue.js';
import { MessageKind } from '../sessions/message-text.js';
import { isRunning, SessionStatus, type SessionRecord } from '../sessions/session.js';
import type { AskOutcome, StopOptions } from '../sessions/session-manager.js';
import type { TerminalChunk } from '../terminal/terminal-viewer.js';
import type { UsageGroup, UsageTotal } from '../costs/usage-ledger.js';
import { clusterUsage } from './cluster-costs.js';
import { ClusterFeeds } from './cluster-feeds.js';
import type { LocalParts } from './local-parts.js';
import { LocalViews } from './local-views.js';
import { NodeClient } from './node-calls.js';
import { nodeHandlers } from './node-handlers.js';
import {
  nodeCallTimeoutMs,
  runNodeCall,
  type NodeCall,
  type NodeHandlers,
  type WireTurnCost,
} from './node-ops.js';
import { NodeRegistry } from './node-registry.js';
import { OwnerCalls } from './owner-calls.js';
import {
  RecordMirror,
  type MessageView,
  type PermissionView,
  type SessionView,
} from './record-mirror.js';
import { connectRedis } from './redis-connection.js';
import { RedisEventLog } from './redis-event-log.js';
import { RedisKeys, type RecordKind } from './redis-keys.js';
import { RemoteEvent } from './remote-event.js';
import { LimitShare } from './limit-share.js';
import type { AccountLimit } from '../sessions/usage-limits.js';
import { RuleShare } from './rule-share.js';
import { StreamMirror } from './stream-mirror.js';
import { StreamWatcher } from './stream-watcher.js';

export interface ClusterOptions {
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly nodeName: string;
  /** Where other nodes reach this one. */
  readonly url: string;
  readonly leaseMs: number;
  /** Entries a session's stream keeps; 0 keeps all. */
  readonly retainEvents: number;
  readonly subscriberBuffer: number;
  /**
   * --start-timeout in ms: how long creating or resuming a session on another node may wait for
   * claude, before the call's own timeout (nodeCallTimeoutMs).
   */
  readonly startTimeoutMs: number;
  /** How long stopping a session waits for its SessionEnd (an interrupt, for its turn). */
  readonly stopTimeoutMs: number;
  readonly log: Logger;
}

function byTime<T>(time: (item: T) => number): (a: T, b: T) => number {
  return (a, b) => time(a) - time(b);
}

/**
 * This node's view of the whole cluster. Sessions that run here are served by the local hub;
 * the others are read from Redis (records, event streams) and their commands are sent to the
 * node that runs them, whose answer is returned as is.
 */
export class ClusterHub implements Hub {
  readonly #local: LocalParts;
  readonly #options: ClusterOptions;
  readonly #keys: RedisKeys;
  readonly #redis: Redis;
  readonly #connections: Redis[];
  readonly #registry: NodeRegistry;
  readonly #records: RecordMirror;
  readonly #rules: RuleShare;
  readonly #limits: LimitShare;
  readonly #remoteLog: RedisEventLog;
  readonly #streams: StreamMirror;
  readonly #watcher: StreamWatcher;
  readonly #calls: OwnerCalls;
  readonly #client: NodeClient;
  readonly #feeds: ClusterFeeds;
  readonly #views: LocalViews;
  readonly #handlers: NodeHandlers;
  readonly #unlisten: (() => void)[];
  /** The secret nodes call each other with. */
  readonly secret: string;
  readonly log: Pick<EventLog, 'read'>;

  /** Connects to Redis (a clear error when it does not answer), joins the cluster and shares this node's sessions. */
  static async join(local: LocalParts, options: ClusterOptions): Promise<ClusterHub> {
    const connections: Redis[] = [];
    try {
      for (const role of ['commands', 'stream-reader', 'changes']) {
        connections.push(
          await connectRedis(options.redisUrl, `claude-hub:${options.nodeName}:${role}`),
        );
      }
      const keys = new RedisKeys(options.redisPrefix);
      const redis = connections[0]!;
      await redis.set(keys.secret, randomBytes(32).toString('hex'), 'NX');
      const secret = (await redis.get(keys.secret))!;
      const hub = new ClusterHub(local, options, keys, connections, secret);
      await hub.#start();
      return hub;
    } catch (error) {
      for (const connection of connections) connection.disconnect();
      throw error;
    }
  }

  private constructor(
    local: LocalParts,
    options: ClusterOptions,
    keys: RedisKeys,
    connections: Redis[],
    secret: string,
  ) {
    this.#local = local;
    this.#options = options;
    this.#connections = connections;
    this.secret = secret;
    this.#keys = keys;
    const [redis, blocker, subscriber] = connections as [Redis, Redis, Redis];
    this.#redis = redis;
    const deps = { redis, keys: this.#keys, log: options.log };
    this.#remoteLog = new RedisEventLog(redis, this.#keys);
    this.#records = new RecordMirror({ ...deps, subscriber, self: options.nodeName }, (change) =>
      this.#feeds.remoteChanged(change),
    );
    this.#rules = new RuleShare({ ...deps, subscriber, self: options.nodeName }, local.rules);
    this.#limits = new LimitShare(
      { ...deps, subscriber, self: options.nodeName },
      local.usageLimits,
    );
    // A record change made before an event reaches every node before that event does.
    this.#streams = new StreamMirror(
      {
        ...deps,
        local: local.eventLog,
        remote: this.#remoteLog,
        before: () => this.#records.flush(),
      },
      { batch: 500, maxLength: options.retainEvents },
    );
    this.#watcher = new StreamWatcher({
      ...deps,
      blocker,
      remote: this.#remoteLog,
      settle: () => this.#records.caughtUp(),
    });
    this.#registry = new NodeRegistry(
      { ...deps, subscriber },
      { name: options.nodeName, url: options.url, startedAt: Date.now() },
      {
        leaseMs: options.leaseMs,
        changed: (before, after) => this.#feeds.nodeChanged(before, after),
      },
    );
    this.#client = new NodeClient(secret, {
      timeoutMs: nodeCallTimeoutMs,
      startTimeoutMs: options.startTimeoutMs,
      stopTimeoutMs: options.stopTimeoutMs,
    });
    this.#calls = new OwnerCalls({
      registry: this.#registry,
      records: this.#records,
      client: this.#client,
    });
    this.log = {
      read: async (sessionId: string, options?: ReadOptions) => {
        if (this.#isLocal(sessionId)) return local.eventLog.read(sessionId, options);
        const events = await this.#remoteLog.read(sessionId, options);
        if (events.length > 0) await this.#records.caughtUp();
        return events;
      },
    };
    this.#feeds = new ClusterFeeds({
      local,
      log: this.log,
      watcher: this.#watcher,
      isLocal: (id) => this.#isLocal(id),
      remoteSessions: () => this.#remoteSessions(),
      subscriberBuffer: options.subscriberBuffer,
      logger: options.log,
    });
    this.#views = new LocalViews(local, options.nodeName);
    this.#handlers = nodeHandlers(local.hub, this.#views, local.costs, options.nodeName);
    this.#unlisten = [
      local.sessions.updates.listen((record) => {
        this.#feeds.sessionChanged(record);
        this.localChanged('sessions', record);
      }),
      local.permissionChanges.listen((request) => this.#feeds.permissionChanged(request)),
    ];
  }

  async #start(): Promise<void> {
    await this.#registry.join();
    await this.#records.start(() => this.#views.all());
    await this.#rules.start();
    await this.#limits.start();
    this.#streams.resync(this.#localSessionIds());
    this.#redis.on('ready', () => this.#streams.resync(this.#localSessionIds()));
  }

  get self(): string {
    return this.#options.nodeName;
  }

  /** Redis answers: what GET /readyz reports. */
  get connected(): boolean {
    return this.#connections.every((connection) => connection.status === 'ready');
  }

  /** A session of this node stored an event: it goes to its Redis stream. */
  appended(sessionId: string): void {
    this.#streams.touch(sessionId);
  }

  /** A usage limit one of this node's sessions met: the other nodes' sessions of the account wait too. */
  shareUsageLimit(account: string, limit: AccountLimit): void {
    this.#limits.share(account, limit);
  }

  /** A record of this node changed: its view goes to the other nodes. */
  localChanged(kind: RecordKind, record: { readonly id: string }): void {
    this.#records.changed(kind, record.id, () => this.#views.of(kind, record));
  }

  async close(): Promise<void> {
    for (const unlisten of this.#unlisten) unlisten();
    await this.#streams.drained();
    await this.#records.written();
    await this.#rules.close();
    this.#limits.close();
    await this.#watcher.close();
    await this.#registry.leave();
    this.#calls.close();
    for (const connection of this.#connections) connection.disconnect();
  }

  // Reads.

  list(): SessionRecord[] {
    return [...this.#local.sessions.list(), ...this.#remoteSessions().values()].sort(
      byTime((record) => record.createdAt),
    );
  }
  get(id: string): SessionRecord | undefined {
    return this.#local.sessions.get(id) ?? this.#remoteSessions().get(id);
  }
  require(id: string): SessionRecord {
    const record = this.get(id);
    if (!record)
      throw new HubError(ErrorCode.SessionNotFound, `no session has id ${describeValue(id)}`);
    return record;
  }
  statusOf(record: SessionRecord): SessionStatus {
    if (this.#isLocal(record.id)) return this.#local.sessions.statusOf(record);
    const view = record as SessionView;
    return isRunning(view.status) && !this.#registry.isAlive(view.node)
      ? SessionStatus.Unreachable
      : view.status;
  }
  nodeOf(record: SessionRecord): string {
    return this.#isLocal(record.id) ? this.self : (record as SessionView).node;
  }
  async screen(record: SessionRecord): Promise<string> {
    if (this.#isLocal(record.id)) return this.#local.hub.screen(record);
    return this.#calls.call(record.id, 'screen', { id: record.id });
  }
  async diff(record: SessionRecord, base: string | null): Promise<string> {
    if (this.#isLocal(record.id)) return this.#local.hub.diff(record, base);
    return this.#calls.call(record.id, 'diff', { id: record.id, base: base ?? '' });
  }
  async changes(record: SessionRecord, scope: ChangeScope): Promise<FileChangeRecord[]> {
    if (this.#isLocal(record.id)) return this.#local.hub.changes(record, scope);
    const args =
      'turnId' in scope
        ? { id: record.id, turnId: scope.turnId, since: -1 }
        : { id: record.id, turnId: '', since: scope.since ?? -1 };
    return this.#calls.call(record.id, 'changes', args);
  }
  attachCommand(record: SessionRecord): string | null {
    return this.#isLocal(record.id)
      ? this.#local.hub.attachCommand(record)
      : (record as SessionView).attachCommand;
  }
  pendingPermissions(sessionId: string): PermissionRecord[] {
    if (this.#isLocal(sessionId)) return this.#local.hub.pendingPermissions(sessionId);
    return [...this.#records.remote<PermissionView>('permissions').values()]
      .filter(
        (request) => request.sessionId === sessionId && request.status === PermissionStatus.Pending,
      )
      .sort(byTime((request) => request.requestedAt));
  }
  permissionRequests(status?: PermissionStatus | null): PermissionRecord[] {
    const remote = [...this.#records.remote<PermissionView>('permissions').values()].filter(
      (request) => status == null || request.status === status,
    );
    return [...this.#local.hub.permissionRequests(status), ...remote].sort(
      byTime((request) => request.requestedAt),
    );
  }
  messages(sessionId: string, last: number): MessageRecord[] {
    if (this.#isLocal(sessionId)) return this.#local.hub.messages(sessionId, last);
    if (last === 0) return [];
    return [...this.#records.remote<MessageView>('messages').values()]
      .filter((message) => message.sessionId === sessionId)
      .sort(byTime((message) => message.queuedAt))
      .slice(-last);
  }
  nodes(): NodeInfo[] {
    const sessions = this.list();
    return this.#registry.list().map((node) => ({
      name: node.name,
      url: node.url,
      alive: this.#registry.isAlive(node.name),
      self: node.name === this.self,
      startedAt: node.startedAt,
      liveSessions: sessions.filter(
        (record) => this.nodeOf(record) === node.name && isRunning(record.status),
      ).length,
    }));
  }

  // Costs: each node keeps its own sessions' (see cluster-costs.ts).

  /** Query.usage of every live node, summed by group. */
  usage(since: number, groupBy: UsageGroup): Promise<UsageTotal[]> {
    const local = (from: number, group: UsageGroup) => this.#local.costs.usage(from, group);
    const deps = { registry: this.#registry, client: this.#client, self: this.self, local };
    return clusterUsage(deps, since, groupBy);
  }
  /** A session's cost: its node's ledger's, which that node's view of it carries. */
  sessionCost(sessionId: string): number | null {
    if (this.#isLocal(sessionId)) return this.#local.costs.sessionCost(sessionId);
    return this.#remoteSessions().get(sessionId)?.costUsd ?? null;
  }
  /** The turns' costs of a session another node runs, asked of it; null for one of this node. */
  turnCosts(sessionId: string): Promise<WireTurnCost[]> | null {
    if (this.#isLocal(sessionId) || !this.#remoteSessions().has(sessionId)) return null;
    return this.#calls.call(sessionId, 'turnCosts', { id: sessionId });
  }

  sessionEvents(sessionId: string, after: number | null): AsyncGenerator<StoredEvent> {
    return this.#feeds.sessionEvents(sessionId, after);
  }
  sessionUpdates(only?: string): AsyncGenerator<SessionRecord> {
    return this.#feeds.sessionUpdates(only);
  }
  sessionUpdateBatches(everyMs: number): AsyncGenerator<readonly SessionRecord[]> {
    return this.#feeds.sessionUpdateBatches(everyMs);
  }
  permissionChanges(): AsyncGenerator<PermissionRecord> {
    return this.#feeds.permissionChanges();
  }

  // Commands: run here for this node's sessions, sent to the owner for the others.

  async create({ node, ...input }: CreateInput): Promise<SessionRecord> {
    const name = node ?? this.self;
    if (name === this.self) return this.#local.hub.create(input);
    return this.#calls.create(name, input);
  }
  resume(id: string): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.resume(id);
    return this.#calls.call(id, 'resume', { id });
  }
  commitWorktree(id: string, message: string): Promise<string> {
    if (this.#isLocal(id)) return this.#local.hub.commitWorktree(id, message);
    return this.#calls.call(id, 'commitWorktree', { id, message });
  }
  stop(id: string, { removeWorktree = false }: StopOptions = {}): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.stop(id, { removeWorktree });
    return this.#calls.call(id, 'stop', { id, removeWorktree });
  }
  interrupt(id: string): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.interrupt(id);
    return this.#calls.call(id, 'interrupt', { id });
  }
  sendKeys(id: string, keys: readonly string[]): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.sendKeys(id, keys);
    return this.#calls.call(id, 'sendKeys', { id, keys });
  }
  answerDialog(id: string, answer: DialogAnswer): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.answerDialog(id, answer);
    return this.#calls.call(id, 'answerDialog', { id, answer });
  }
  focus(id: string, client: string | null): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.focus(id, client);
    return this.#calls.call(id, 'focus', { id, client: client ?? '' });
  }
  setLabels(id: string, labels: readonly string[]): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.setLabels(id, labels);
    return this.#calls.call(id, 'setLabels', { id, labels });
  }
  terminal(id: string): AsyncIterableIterator<TerminalChunk> {
    return this.#local.hub.terminal(this.#localTerminal(id));
  }
  async terminalInput(id: string, data: string, paste: boolean): Promise<void> {
    return this.#local.hub.terminalInput(this.#localTerminal(id), data, paste);
  }
  async resizeTerminal(id: string, cols: number, rows: number): Promise<boolean> {
    return this.#local.hub.resizeTerminal(this.#localTerminal(id), cols, rows);
  }

  /**
   * A terminal streams from the node whose tmux holds it: a session of another node gets
   * ON_OTHER_NODE with that node's address, where a client watches and types into it.
   */
  #localTerminal(id: string): string {
    const record = this.require(id);
    if (this.#isLocal(id)) return id;
    const node = this.nodeOf(record);
    const url = this.nodes().find((found) => found.name === node)?.url ?? null;
    throw new HubError(
      ErrorCode.OnOtherNode,
      `session ${id} runs on node ${node}: its terminal is served there${url ? ` (${url})` : ''}`,
      { node, url },
    );
  }
  enqueue(
    id: string,
    text: string,
    channel: string | null = null,
    { typingGuard = true, kind = MessageKind.Prompt }: EnqueueOptions = {},
  ): Promise<MessageRecord> {
    if (this.#isLocal(id)) return this.#local.hub.enqueue(id, text, channel, { typingGuard, kind });
    return this.#calls.call(id, 'enqueue', { id, text, channel: channel ?? '', typingGuard, kind });
  }
  async ask(
    id: string,
    text: string,
    timeoutMs: number,
    channel: string | null = null,
  ): Promise<AskOutcome> {
    if (this.#isLocal(id)) return this.#local.hub.ask(id, text, timeoutMs, channel);
    const outcome = await this.#calls.call(id, 'ask', {
      id,
      text,
      channel: channel ?? '',
      timeoutMs,
    });
    if (outcome.kind !== 'reply') return outcome;
    return { ...outcome, events: outcome.events.map((e) => new RemoteEvent(e)) };
  }
  async decide(decision: Decision): Promise<DecisionResult> {
    const remote = this.#records.remote<PermissionView>('permissions').get(decision.requestId);
    if (!remote) return this.#local.hub.decide(decision);
    return this.#calls.call(remote.sessionId, 'decide', { decision });
  }

  /** Runs a call from another node on this one. */
  run(call: NodeCall): Promise<unknown> {
    return runNodeCall(this.#handlers, call);
  }

  #isLocal(sessionId: string): boolean {
    return this.#local.sessions.get(sessionId) !== undefined;
  }

  #remoteSessions(): ReadonlyMap<string, SessionView> {
    return this.#records.remote<SessionView>('sessions');
  }

  #localSessionIds(): string[] {
    return this.#local.sessions.list().map((record) => record.id);
  }
}
