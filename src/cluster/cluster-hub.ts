import { MessageKind, messageKind } from '../sessions/message-text.js';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CreateInput, Hub, NodeInfo } from '../hub/hub.js';
import type { LocalHub } from '../hub/local-hub.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { EventLog, ReadOptions } from '../events/event-log.js';
import { LocalEventBus, type BusListener } from '../events/event-bus.js';
import type { StoredEvent } from '../events/hook-event.js';
import { sessionEvents, type SessionEventsDeps } from '../subscriptions/session-events.js';
import { Topic } from '../events/topic.js';
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
import { isRunning, SessionStatus, type SessionRecord } from '../sessions/session.js';
import type { AskOutcome, SessionManager } from '../sessions/session-manager.js';
import type { TerminalChunk } from '../terminal/terminal-viewer.js';
import { NodeClient } from './node-calls.js';
import {
  nodeCallTimeoutMs,
  runNodeCall,
  type NodeArgs,
  type NodeCall,
  type NodeHandlers,
  type NodeOp,
  type NodeResult,
} from './node-ops.js';
import { NodeRegistry, type NodeState } from './node-registry.js';
import {
  RecordMirror,
  type MessageView,
  type PermissionView,
  type RecordChange,
  type RecordView,
  type SessionView,
} from './record-mirror.js';
import { connectRedis } from './redis-connection.js';
import { RedisEventLog } from './redis-event-log.js';
import { RedisKeys, type RecordKind } from './redis-keys.js';
import { RemoteEvent, toWire } from './remote-event.js';
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

export interface LocalParts {
  readonly hub: LocalHub;
  readonly sessions: SessionManager;
  readonly eventLog: EventLog;
  readonly bus: LocalEventBus;
  readonly permissionChanges: Topic<PermissionRecord>;
  /** Everything sessionEvents needs but the log, the bus and the seams. */
  readonly streamOptions: Pick<SessionEventsDeps, 'bufferLimit' | 'replayPageSize' | 'streams'>;
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
  readonly #remoteLog: RedisEventLog;
  readonly #streams: StreamMirror;
  readonly #watcher: StreamWatcher;
  readonly #client: NodeClient;
  readonly #updates = new Topic<SessionRecord>();
  readonly #permissionChanges = new Topic<PermissionRecord>();
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
      this.#remoteChanged(change),
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
      deps,
      { name: options.nodeName, url: options.url, startedAt: Date.now() },
      { leaseMs: options.leaseMs, changed: (before, after) => this.#nodeChanged(before, after) },
    );
    this.#client = new NodeClient(secret, {
      timeoutMs: nodeCallTimeoutMs,
      startTimeoutMs: options.startTimeoutMs,
      stopTimeoutMs: options.stopTimeoutMs,
    });
    this.log = {
      read: async (sessionId: string, options?: ReadOptions) => {
        if (this.#isLocal(sessionId)) return local.eventLog.read(sessionId, options);
        const events = await this.#remoteLog.read(sessionId, options);
        if (events.length > 0) await this.#records.caughtUp();
        return events;
      },
    };
    this.#unlisten = [
      local.sessions.updates.listen((record) => {
        this.#updates.publish(record);
        this.localChanged('sessions', record);
      }),
      local.permissionChanges.listen((request) => this.#permissionChanges.publish(request)),
    ];
  }

  async #start(): Promise<void> {
    await this.#registry.join();
    await this.#records.start(() => this.#localViews());
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

  /** A record of this node changed: its view goes to the other nodes. */
  localChanged(kind: RecordKind, record: { readonly id: string }): void {
    this.#records.changed(kind, record.id, () => this.#viewOf(kind, record));
  }

  async close(): Promise<void> {
    for (const unlisten of this.#unlisten) unlisten();
    await this.#streams.drained();
    await this.#records.written();
    await this.#watcher.close();
    await this.#registry.leave();
    this.#client.close();
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
    return this.#callOwner(record.id, 'screen', { id: record.id });
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

  sessionEvents(sessionId: string, after: number | null): AsyncGenerator<StoredEvent> {
    const local = this.#isLocal(sessionId);
    return sessionEvents(
      {
        ...this.#local.streamOptions,
        log: this.log,
        bus: local
          ? this.#local.bus
          : {
              subscribe: (id, listener: BusListener) => this.#watcher.subscribe(id, listener),
              publish: () => undefined,
            },
        liveFrom: (id) => (local ? this.#local.eventLog.lastSeq(id) : this.#watcher.liveFrom(id)),
        isEnded: (id, delivered) => {
          if (local) return this.#local.sessions.isEnded(id);
          const view = this.#remoteSessions().get(id);
          return view?.status === SessionStatus.Stopped && delivered >= view.lastSeq;
        },
      },
      sessionId,
      after,
    );
  }
  sessionUpdates(): AsyncGenerator<SessionRecord> {
    return this.#updates.stream(this.#options.subscriberBuffer, this.#overflow);
  }
  permissionChanges(): AsyncGenerator<PermissionRecord> {
    return this.#permissionChanges.stream(this.#options.subscriberBuffer, this.#overflow);
  }
  readonly #overflow = () =>
    new HubError(
      ErrorCode.SubscriberTooSlow,
      `subscriber fell more than ${this.#options.subscriberBuffer} updates behind; subscribe again`,
    );

  // Commands: run here for this node's sessions, sent to the owner for the others.

  async create({ node, ...input }: CreateInput): Promise<SessionRecord> {
    const name = node ?? this.self;
    if (name === this.self) return this.#local.hub.create(input);
    const target = this.#registry.get(name) ?? (await this.#refreshed(name));
    if (!target) {
      const known = this.#registry
        .list()
        .map((n) => n.name)
        .join(', ');
      throw new HubError(
        ErrorCode.NodeNotFound,
        `no node is named ${describeValue(name)}; the nodes are ${known}`,
      );
    }
    const created = await this.#client.call(target, 'create', { input });
    // Commands may follow at once, before the owner's announcement of the session arrives.
    this.#records.learn('sessions', created);
    return created;
  }
  resume(id: string): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.resume(id);
    return this.#callOwner(id, 'resume', { id });
  }
  stop(id: string): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.stop(id);
    return this.#callOwner(id, 'stop', { id });
  }
  interrupt(id: string): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.interrupt(id);
    return this.#callOwner(id, 'interrupt', { id });
  }
  sendKeys(id: string, keys: readonly string[]): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.sendKeys(id, keys);
    return this.#callOwner(id, 'sendKeys', { id, keys });
  }
  answerDialog(id: string, answer: DialogAnswer): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.answerDialog(id, answer);
    return this.#callOwner(id, 'answerDialog', { id, answer });
  }
  focus(id: string, client: string | null): Promise<SessionRecord> {
    if (this.#isLocal(id)) return this.#local.hub.focus(id, client);
    return this.#callOwner(id, 'focus', { id, client: client ?? '' });
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
    return this.#callOwner(id, 'enqueue', { id, text, channel: channel ?? '', typingGuard, kind });
  }
  async ask(
    id: string,
    text: string,
    timeoutMs: number,
    channel: string | null = null,
  ): Promise<AskOutcome> {
    if (this.#isLocal(id)) return this.#local.hub.ask(id, text, timeoutMs, channel);
    const outcome = await this.#callOwner(id, 'ask', {
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
    return this.#callOwner(remote.sessionId, 'decide', { decision });
  }

  /** Runs a call from another node on this one. */
  run(call: NodeCall): Promise<unknown> {
    return runNodeCall(this.#handlers, call);
  }

  /** What this node runs for the others; results are the views other nodes read. */
  readonly #handlers: NodeHandlers = {
    create: async ({ input }) => this.#sessionView(await this.#local.hub.create(input)),
    resume: async ({ id }) => this.#sessionView(await this.#local.hub.resume(id)),
    stop: async ({ id }) => this.#sessionView(await this.#local.hub.stop(id)),
    interrupt: async ({ id }) => this.#sessionView(await this.#local.hub.interrupt(id)),
    sendKeys: async ({ id, keys }) => this.#sessionView(await this.#local.hub.sendKeys(id, keys)),
    answerDialog: async ({ id, answer }) =>
      this.#sessionView(await this.#local.hub.answerDialog(id, answer)),
    focus: async ({ id, client }) =>
      this.#sessionView(await this.#local.hub.focus(id, client || null)),
    enqueue: async ({ id, text, channel, typingGuard, kind }) => ({
      ...(await this.#local.hub.enqueue(id, text, channel || null, {
        typingGuard,
        kind: messageKind(kind),
      })),
      node: this.self,
    }),
    ask: async ({ id, text, channel, timeoutMs }) => {
      const outcome = await this.#local.hub.ask(id, text, timeoutMs, channel || null);
      return outcome.kind === 'reply'
        ? { ...outcome, events: outcome.events.map(toWire) }
        : outcome;
    },
    decide: async ({ decision }) => {
      const result = await this.#local.hub.decide(decision);
      return result.request
        ? { ...result, request: { ...result.request, node: this.self } }
        : result;
    },
    screen: async ({ id }) => this.#local.hub.screen(this.#local.hub.require(id)),
  };

  #isLocal(sessionId: string): boolean {
    return this.#local.sessions.get(sessionId) !== undefined;
  }

  #remoteSessions(): ReadonlyMap<string, SessionView> {
    return this.#records.remote<SessionView>('sessions');
  }

  #localSessionIds(): string[] {
    return this.#local.sessions.list().map((record) => record.id);
  }

  /** A node that joined since the last refresh is known once Redis has been read again. */
  async #refreshed(node: string): Promise<NodeState | undefined> {
    await this.#registry.refresh().catch(() => undefined);
    return this.#registry.get(node);
  }

  async #callOwner<K extends NodeOp>(
    sessionId: string,
    op: K,
    args: NodeArgs<K>,
  ): Promise<NodeResult<K>> {
    const view = this.#remoteSessions().get(sessionId);
    if (!view)
      throw new HubError(
        ErrorCode.SessionNotFound,
        `no session has id ${describeValue(sessionId)}`,
      );
    const owner = this.#registry.get(view.node) ?? (await this.#refreshed(view.node));
    if (!owner) {
      throw new HubError(
        ErrorCode.NodeUnreachable,
        `session ${sessionId} runs on node ${view.node}, which is unknown`,
      );
    }
    return this.#client.call(owner, op, args);
  }

  #sessionView(record: SessionRecord): SessionView {
    const sessions = this.#local.sessions;
    return {
      ...record,
      hookSecretHash: '',
      status: sessions.statusOf(record),
      node: this.self,
      attachCommand: sessions.attachCommand(record),
      lastSeq: this.#local.eventLog.lastSeq(record.id),
    };
  }

  /** The view of a local record; records are live objects, so it is current when it is made. */
  #viewOf(kind: RecordKind, record: { readonly id: string }): RecordView {
    return kind === 'sessions'
      ? this.#sessionView(record as SessionRecord)
      : { ...record, node: this.self };
  }

  *#localViews(): Iterable<RecordChange> {
    const local: [RecordKind, Iterable<{ readonly id: string }>][] = [
      ['sessions', this.#local.sessions.list()],
      ['permissions', this.#local.hub.permissionRequests()],
      ['messages', this.#local.sessions.messages.all()],
    ];
    for (const [kind, records] of local) {
      for (const record of records) yield { kind, view: this.#viewOf(kind, record) };
    }
  }

  #remoteChanged({ kind, view }: RecordChange): void {
    if (kind === 'sessions') {
      const session = view as SessionView;
      this.#watcher.sessionChanged(
        session.id,
        session.status === SessionStatus.Stopped,
        session.lastSeq,
      );
      this.#updates.publish(session);
    } else if (kind === 'permissions') {
      this.#permissionChanges.publish(view as PermissionView);
    }
  }

  /** A node came or went: its sessions' status changes with it. */
  #nodeChanged(before: NodeState | undefined, after: NodeState | undefined): void {
    const name = (after ?? before)!.name;
    const alive = after?.alive ?? false;
    this.#options.log.info({ node: name, alive }, alive ? 'node is up' : 'node is down');
    for (const view of this.#remoteSessions().values()) {
      if (view.node === name) this.#updates.publish(view);
    }
  }
}
