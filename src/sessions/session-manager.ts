import { hash, randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { systemClock, type Clock } from '../clock.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { EventLog } from '../events/event-log.js';
import type { Logger } from '../log.js';
import { stringField, type HookPayload, type StoredEvent } from '../events/hook-event.js';
import type { HookOrigin, IngestResult } from '../ingest/hook-endpoint.js';
import type { HookAddress } from '../ingest/hook-listeners.js';
import {
  hookSecretEnv,
  hookSettings,
  hookSettingsUrl,
  hubSessionEnv,
  mcpConfig,
  mcpConfigPath,
} from './hook-settings.js';
import type { RecordTable } from '../store/record-table.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import { Topic } from '../events/topic.js';
import type { HubEventName } from '../events/registry.js';
import type { RecordRetention } from '../store/retention.js';
import { expired, type PrunedRecords } from './record-retention.js';
import { decideRestart, type RestartPolicy } from './restart-policy.js';
import { checkChannelName } from '../channels/channel.js';
import { hubToolAllowance } from '../mcp/hub-tools.js';
import {
  MessageQueue,
  type EnqueueOptions,
  type MessageQueueOptions,
  type SessionPort,
} from './message-queue.js';
import { MessageStatus, type MessageRecord } from './message.js';
import { checkMessageText, MessageKind } from './message-text.js';
import { sessionEnvironment } from '../runtime/session-env.js';
import { hasTerminal, isRunning, SessionStatus, type SessionRecord } from './session.js';
import { applyEvent, setStatus, statusOnExit } from './session-status.js';
import { DialogWatch, heldByDialog, inTurn, type DialogAnswer } from './dialog-watch.js';
import { fieldOf, type StreamLine } from '../runtime/headless-runtime.js';
import { RuntimeKind, SessionOrigin, type SessionRuntime } from '../runtime/session-runtime.js';
import { paneAddress, type Pane } from '../runtime/tmux-pane.js';
import { externalRecord, isExternal } from './external-session.js';
import { liveClaudes } from './live-claudes.js';
import { claudeConfigDir, readTranscriptSince, resumeId, transcriptPathFor } from './transcript.js';
import { untimed, type Timed } from '../metrics.js';
import type { SupportedHookEvent } from '../claude/hook-event-support.js';

export interface SessionManagerOptions {
  readonly claudeBin: string;
  /** The hook events a session of the claude at `bin` registers; the registry's when absent. */
  readonly hookEvents?: (bin: string) => Promise<readonly SupportedHookEvent[]>;
  /** How a session runs when createSession does not say. */
  readonly defaultRuntime: RuntimeKind;
  readonly dataDir: string;
  /** The hub's environment: sessions start with it, less the hub's own (see sessionEnvironment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The hub's secrets (see hubSecrets): no variable holding one reaches a session. */
  readonly secrets?: readonly string[];
  readonly forwarderPath: string;
  /** Directories a cwd must lie in, symlinks resolved; empty allows any. */
  readonly allowedRoots: readonly string[];
  /** Sessions that may be live at once. */
  readonly maxSessions: number;
  readonly hookTimeoutSeconds: number;
  /** claude's timeout for the PermissionRequest hook: longer than the hub's hold. */
  readonly permissionTimeoutSeconds: number;
  /** How long createSession and early messages wait for claude's SessionStart. */
  readonly startTimeoutMs: number;
  /** How long stopSession waits for claude's SessionEnd before giving up on it. */
  readonly stopTimeoutMs: number;
  /** The poll tick: how soon a starting session's dialog or an exited claude is noticed. */
  readonly pollIntervalMs: number;
  /** Records how long each tick's check took. */
  readonly timed?: Timed;
  readonly restartPolicy: RestartPolicy;
  /** A start showing no known dialog and no input box for this long is BLOCKED on an unknown screen. */
  readonly unknownScreenAfterMs: number;
  readonly messages: Omit<MessageQueueOptions, 'changed' | 'clock'>;
  /**
   * Whether a hook call's secret, by its hex SHA-256, is one of the hub's hook tokens (the
   * installed global hooks): the secret is hashed once per call, for both look-ups.
   */
  readonly isHookToken: (secretSha256: string) => boolean;
  /** When a person last typed into the session's terminal through the API (the browser). */
  readonly lastInput?: (id: string) => number | null;
  /** The processes of the hub's own tmux clients (terminal watches): no person's terminal. */
  readonly ownClients?: () => ReadonlySet<number>;
  readonly log: Logger;
  /** Decides restarts, waits, timestamps and how long a start may look stuck. */
  readonly clock?: Clock;
}

export interface CreateSessionInput {
  readonly id?: string | null | undefined;
  readonly cwd: string;
  readonly name?: string | null | undefined;
  readonly model?: string | null | undefined;
  readonly permissionMode?: string | null | undefined;
  readonly prompt?: string | null | undefined;
  /** Answer claude's workspace-trust dialog with "Yes, I trust this folder". */
  readonly trustWorkspace?: boolean | null | undefined;
  /** Continue this conversation of claude's in cwd: its id or its resume line. */
  readonly resume?: string | null | undefined;
  /** How claude runs; the hub's default runtime when absent. */
  readonly runtime?: RuntimeKind | null | undefined;
}

/** How an ask ended: the reply, or why there is none yet. */
export type AskOutcome =
  | {
      readonly kind: 'reply';
      readonly message: MessageRecord;
      readonly reply: string | null;
      readonly events: StoredEvent[];
      readonly durationMs: number;
    }
  | { readonly kind: 'timeout'; readonly message: MessageRecord; readonly waitedMs: number }
  | { readonly kind: 'failed'; readonly message: MessageRecord };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * Owns the sessions' lifecycle: starts claude through its runtime, routes hook events to the
 * right session, derives status, queues messages, notices when a claude process exits,
 * restarts crashed ones, and re-adopts the sessions still running when the hub starts again.
 */
export class SessionManager {
  readonly #options: SessionManagerOptions;
  readonly #clock: Clock;
  readonly #runtime: SessionRuntime;
  readonly #log: EventLog;
  readonly #bus: EventBus;
  readonly #store: RecordTable<SessionRecord>;
  readonly #permissions: PermissionBroker;
  readonly #dialogs: DialogWatch;
  /** Fires with a session whenever its status, pending permissions or last message change. */
  readonly updates = new Topic<SessionRecord>();
  readonly messages: MessageQueue;
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #secretHashes = new Map<string, string>();
  readonly #byClaudeId = new Map<string, string>();
  readonly #stopping = new Set<string>();
  /** Sessions between STARTING and their runtime's launch: no exit of theirs is seen yet. */
  readonly #launching = new Set<string>();
  /** Cancels each pending restart. */
  readonly #restartTimers = new Map<string, () => void>();
  /** Per session: checks run whenever it changes, for those waiting on it. */
  readonly #changeWaiters = new Map<string, Set<() => void>>();
  /** Sessions whose creator asked the hub to answer the workspace-trust dialog. */
  readonly #trustOnStart = new Set<string>();
  #hooks: HookAddress = {
    url: '',
    reclaim: () => Promise.resolve('the hub has not started'),
    release: () => Promise.resolve(),
    reclaimed: [],
  };
  /** The transcript mtime of each idle EXTERNAL session when it was last read. */
  readonly #transcriptSeen = new Map<string, number>();
  /** DISCONNECTED sessions whose screen showed the turn over on the last tick. */
  readonly #idleSeen = new Set<string>();
  #poller: NodeJS.Timeout | null = null;
  #polling: Promise<void> | null = null;

  constructor(
    options: SessionManagerOptions,
    deps: {
      runtime: SessionRuntime;
      log: EventLog;
      bus: EventBus;
      store: RecordTable<SessionRecord>;
      messageStore: RecordTable<MessageRecord>;
      permissions: PermissionBroker;
    },
  ) {
    this.#permissions = deps.permissions;
    const port: SessionPort = {
      get: (id) => this.#sessions.get(id),
      waitForChange: (id, done, timeoutMs) => this.waitForChange(id, done, timeoutMs),
      look: (id) => this.#runtime.look(this.require(id)),
      lastTyped: async (id) => {
        const typed = await this.#runtime.lastTyped(this.require(id));
        const input = options.lastInput?.(id) ?? null;
        return typed === null || input === null ? (typed ?? input) : Math.max(typed, input);
      },
      type: async (id, text, mode) => {
        const record = this.require(id);
        await this.#runtime.waitForInput(record, this.#options.startTimeoutMs, () =>
          isRunning(record.status),
        );
        await this.#runtime.type(record, text, mode);
      },
      keys: (id, keys) => this.#runtime.keys(this.require(id), keys),
      events: (id, listener) =>
        this.#bus.subscribe(id, (message) => {
          if (message.kind === 'event') listener(message.event);
        }),
    };
    this.messages = new MessageQueue(
      {
        ...options.messages,
        changed: (message) => this.#notify(message.sessionId),
        clock: options.clock ?? systemClock,
      },
      port,
      deps.messageStore,
    );
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#runtime = deps.runtime;
    this.#log = deps.log;
    this.#bus = deps.bus;
    this.#store = deps.store;
    this.#dialogs = new DialogWatch({
      runtime: deps.runtime,
      awaitingPermission: (id) => deps.permissions.pending(id).length > 0,
      commit: (record) => this.#commit(record),
      turnInterrupted: (record) => this.#turnInterrupted(record),
      clock: this.#clock,
      log: options.log,
    });
    for (const record of deps.store.loadAll()) this.#index({ ...sessionDefaults, ...record });
  }

  /**
   * Re-adopts the sessions still running in tmux, marks the others, and starts watching.
   * `hooks` says where sessions launched now post their hooks, and takes back the addresses
   * that running sessions were launched with, when the hub listened elsewhere then.
   * `earlierGlobalUrl` is where the global hooks posted before they were pointed here.
   */
  async start(hooks: HookAddress, earlierGlobalUrl: string | null = null): Promise<void> {
    this.#hooks = hooks;
    const presence = await this.#runtime.presence(
      [...this.#sessions.values()].filter((record) => isRunning(record.status)),
    );
    const resumable: SessionRecord[] = [];
    for (const record of this.#sessions.values()) {
      const [last] = await this.#log.read(record.id, {
        after: this.#log.lastSeq(record.id) - 1,
        limit: 1,
      });
      if (last) record.lastEventAt = last.receivedAt;
      const found = presence.get(record.id);
      if (!isRunning(record.status) || !found) continue;
      if (isExternal(record)) {
        if (found.kind === 'running') await this.#recordMissed(record);
        else this.#finish(record, SessionStatus.Stopped, null);
        continue;
      }
      if (found.kind === 'gone') continue;
      if (found.kind === 'resumable') {
        resumable.push(record);
      } else if (found.kind === 'running') {
        const url = (record.hookUrl ??= hookSettingsUrl(record.settingsPath));
        const unreachable = url ? await hooks.reclaim(url) : 'its settings file is gone';
        // Its settings file stays as claude read it at launch: claude does not read it again.
        await this.#recordMissed(record);
        if (unreachable) this.#disconnect(record, unreachable);
      } else this.#finish(record, SessionStatus.Crashed, found.detail);
    }
    for (const record of resumable) {
      await this.#recordMissed(record);
      await this.#launch(record, true).catch((error: unknown) =>
        this.#options.log.error({ err: error, sessionId: record.id }, 'session not resumed'),
      );
    }
    this.#findStartedByHand();
    if (earlierGlobalUrl) await this.#keepEarlierGlobalUrl(earlierGlobalUrl);
    await this.#poll(false);
    this.#poller = setInterval(() => this.#tick(), this.#options.pollIntervalMs);
    this.#poller.unref();
  }

  /**
   * The claudes that run now and that the hub has not heard of (started by hand before the hub,
   * or before the global hooks were installed) join as EXTERNAL sessions, from their session files.
   */
  #findStartedByHand(): void {
    for (const claude of liveClaudes(claudeConfigDir(this.#options.env))) {
      if (claude.kind !== 'interactive' || this.#byClaudeId.has(claude.sessionId)) continue;
      const record = externalRecord({
        payload: { session_id: claude.sessionId, hook_event_name: '', cwd: claude.cwd },
        pid: claude.pid,
        pane: claude.pane,
        busy: claude.busy,
        now: this.#clock.now(),
      });
      record.transcriptPath = transcriptPathFor(this.#options.env, claude.cwd, claude.sessionId);
      this.#join(record, 'found a claude started by hand');
    }
  }

  /**
   * claude reads its settings again when they change, but only once it watches them: a claude
   * started a moment before the global hooks were pointed here may keep posting to their earlier
   * address. The hub answers there too while a claude that ran then still runs.
   */
  async #keepEarlierGlobalUrl(url: string): Promise<void> {
    const running = [...this.#sessions.values()].filter(
      (record) => isExternal(record) && isRunning(record.status),
    );
    if (running.length === 0) return;
    const unreachable = await this.#hooks.reclaim(url);
    if (unreachable) {
      this.#options.log.warn({ url, reason: unreachable }, 'earlier global hook address not kept');
      return;
    }
    for (const record of running) record.hookUrl = url;
  }

  /** Keeps a new EXTERNAL session, and says so. */
  #join(record: SessionRecord, how: string): void {
    this.#index(record);
    this.#store.save(record);
    this.updates.publish(record);
    this.#options.log.info(
      { sessionId: record.id, cwd: record.cwd, pane: record.pane, pid: record.pid },
      how,
    );
  }

  /** Stops watching; with `stopSessions`, ends every running session first. */
  async close(stopSessions: boolean): Promise<void> {
    if (this.#poller) clearInterval(this.#poller);
    this.#poller = null;
    for (const cancel of this.#restartTimers.values()) cancel();
    this.#restartTimers.clear();
    await this.#polling;
    if (stopSessions) {
      await Promise.all(
        this.list()
          .filter((s) => isRunning(s.status) && !isExternal(s))
          .map((s) => this.stop(s.id)),
      );
    }
  }

  list(): SessionRecord[] {
    return [...this.#sessions.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  get(id: string): SessionRecord | undefined {
    return this.#sessions.get(id);
  }

  require(id: string): SessionRecord {
    const record = this.#sessions.get(id);
    if (!record)
      throw new HubError(ErrorCode.SessionNotFound, `no session has id ${describeValue(id)}`);
    return record;
  }

  /** The session, or NO_TERMINAL when it runs headless. */
  terminalOf(id: string): SessionRecord {
    return withTerminal(this.require(id));
  }

  /**
   * Keeps a line a headless claude printed, as a StreamMessage event: every line, so nothing is
   * lost; one that is not JSON is kept as text, with a warning.
   */
  async appendStreamLine(id: string, { text, message, interrupted }: StreamLine): Promise<void> {
    const record = this.#sessions.get(id);
    if (!record) return;
    if (message === undefined) {
      this.#options.log.warn(
        { sessionId: id, line: text.slice(0, 200) },
        'claude printed a line that is not JSON',
      );
    }
    await this.#appendHub(
      record,
      'StreamMessage',
      message === undefined
        ? { type: 'not_json', subtype: null, message: text }
        : {
            type: fieldOf(message, 'type'),
            subtype: fieldOf(message, 'subtype'),
            message,
            ...(interrupted ? { interrupted } : {}),
          },
    );
  }

  /** The status clients see: AWAITING_PERMISSION while a request of a running session waits. */
  statusOf(record: SessionRecord): SessionStatus {
    return isRunning(record.status) && this.#permissions.pending(record.id).length > 0
      ? SessionStatus.AwaitingPermission
      : record.status;
  }

  /** The pane's visible text; empty when the session has no pane. */
  screen(record: SessionRecord): Promise<string> {
    return this.#runtime.screen(withTerminal(record));
  }

  /** Puts an event the hub itself makes (see hubEvents) into a session's stream. */
  async appendHubEvent(
    sessionId: string,
    name: HubEventName,
    fields: Record<string, unknown>,
  ): Promise<void> {
    await this.#appendHub(this.require(sessionId), name, fields);
  }

  #appendHub(
    record: SessionRecord,
    name: HubEventName,
    fields: Record<string, unknown>,
  ): Promise<StoredEvent> {
    const payload: HookPayload = {
      session_id: record.claudeSessionId,
      hook_event_name: name,
      cwd: record.cwd,
      ...(record.transcriptPath ? { transcript_path: record.transcriptPath } : {}),
      ...fields,
    };
    return this.#append(record, JSON.stringify(payload), payload);
  }

  attachCommand(record: SessionRecord): string | null {
    return this.#runtime.attachCommand(record);
  }

  /** True once a session has ended for good and its end was published. */
  isEnded(id: string): boolean {
    return this.#sessions.get(id)?.status === SessionStatus.Stopped;
  }

  async create(input: CreateSessionInput): Promise<SessionRecord> {
    const resumed = input.resume == null ? null : resumeId(input.resume);
    if (input.resume != null && resumed === null) {
      throw new HubError(
        ErrorCode.BadInput,
        `resume must be a Claude session id or its resume line (claude --resume <id>), got ${describeValue(input.resume)}`,
      );
    }
    if (resumed !== null && input.id != null && input.id.toLowerCase() !== resumed) {
      throw new HubError(ErrorCode.BadInput, 'give id or resume, not two different ids');
    }
    const id = (resumed ?? input.id ?? randomUUID()).toLowerCase();
    if (!uuidPattern.test(id)) {
      throw new HubError(ErrorCode.BadInput, `id must be a UUID, got ${describeValue(input.id)}`);
    }
    if (this.#sessions.has(id) || this.#byClaudeId.has(id)) {
      throw new HubError(ErrorCode.SessionExists, `a session with id ${id} exists already`);
    }
    const cwd = path.resolve(input.cwd);
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      throw new HubError(
        ErrorCode.BadInput,
        `cwd must be an existing directory, got ${describeValue(input.cwd)}`,
      );
    }
    this.checkAllowedRoot(cwd);
    this.#checkSessionLimit();
    if (input.prompt !== undefined && input.prompt !== null) {
      checkMessageText(input.prompt, 'prompt', MessageKind.Prompt);
    }
    const transcriptPath = resumed === null ? null : transcriptPathFor(this.#options.env, cwd, id);
    if (transcriptPath !== null && !hasConversation(transcriptPath)) {
      throw new HubError(
        ErrorCode.ConversationNotFound,
        `claude has no conversation ${id} in ${cwd} (no ${transcriptPath})`,
      );
    }

    const record: SessionRecord = {
      id,
      name: input.name ?? null,
      cwd,
      model: input.model ?? null,
      permissionMode: input.permissionMode ?? null,
      runtime: input.runtime ?? this.#options.defaultRuntime,
      origin: SessionOrigin.Managed,
      pane: null,
      pid: null,
      tmuxSession: this.#tmuxName(id),
      settingsPath: path.join(this.#options.dataDir, 'sessions', `${id}.settings.json`),
      hookUrl: null,
      hookSecretHash: '',
      claudeSessionId: id,
      transcriptPath,
      status: SessionStatus.Starting,
      statusSince: this.#clock.now(),
      blockedReason: null,
      error: null,
      ended: false,
      restartCount: 0,
      restartTimes: [],
      createdAt: this.#clock.now(),
      lastEventAt: null,
      lastAssistantMessage: null,
    };
    this.#sessions.set(id, record);
    this.#byClaudeId.set(id, id);
    if (input.trustWorkspace) this.#trustOnStart.add(id);
    await this.#launch(record, resumed !== null);
    await this.#waitForStart(record, true);
    this.#trustOnStart.delete(id);
    if (record.claudeSessionId !== id) {
      // The stream must be the conversation asked for, not a new one.
      await this.stop(id);
      throw new HubError(
        ErrorCode.SessionStartFailed,
        `claude resumed conversation ${record.claudeSessionId}, not ${id}; the session is stopped`,
        { sessionId: id },
      );
    }
    if (input.prompt) this.messages.enqueue(id, input.prompt);
    return record;
  }

  /** Continues a stopped or crashed session with `claude --resume`, same id, same stream. */
  async resume(id: string): Promise<SessionRecord> {
    const record = this.require(id);
    refuseExternal(record);
    if (isRunning(record.status)) {
      throw new HubError(
        ErrorCode.SessionRunning,
        `session ${id} is ${record.status.toLowerCase()}, not stopped or crashed`,
      );
    }
    this.checkAllowedRoot(record.cwd);
    this.#checkSessionLimit();
    this.#cancelRestart(id);
    await this.#launch(record, true);
    await this.#waitForStart(record, true);
    return record;
  }

  /** The cwd, with symlinks and `..` resolved, must lie in an allowed root (when any is set). */
  checkAllowedRoot(cwd: string): void {
    const roots = this.#options.allowedRoots;
    if (roots.length === 0) return;
    const real = realpathSync(cwd);
    const inside = roots.some((root) => {
      const realRoot = existsSync(root) ? realpathSync(root) : path.resolve(root);
      const prefix = realRoot.endsWith(path.sep) ? realRoot : `${realRoot}${path.sep}`;
      return real === realRoot || real.startsWith(prefix);
    });
    if (!inside) {
      throw new HubError(
        ErrorCode.CwdNotAllowed,
        `cwd ${real} is outside the allowed roots (${roots.join(', ')})`,
      );
    }
  }

  #checkSessionLimit(): void {
    let live = 0;
    for (const record of this.#sessions.values()) {
      if (isRunning(record.status) && !isExternal(record)) live += 1;
    }
    if (live >= this.#options.maxSessions) {
      throw new HubError(
        ErrorCode.SessionLimit,
        `${live} sessions are live, the limit (--max-sessions); stop one first`,
      );
    }
  }

  /**
   * Deletes the records past retention, from memory and the store alike: sessions that ended
   * longer than `maxAgeMs` ago with their messages and permission requests, and per session the
   * settled messages and requests beyond the latest `perSession`. Their events go by the event
   * log's own retention.
   */
  pruneRecords(retention: RecordRetention): PrunedRecords {
    const now = this.#clock.now();
    const forget = new Set<string>();
    for (const record of this.#sessions.values()) {
      if (expired(record, retention, now)) forget.add(record.id);
    }
    const pruned = {
      sessions: forget.size,
      messages: this.messages.prune(retention.perSession, forget),
      permissions: this.#permissions.prune(retention.perSession, forget),
    };
    for (const id of forget) {
      this.#secretHashes.delete(this.#sessions.get(id)!.hookSecretHash);
      this.#sessions.delete(id);
      this.#changeWaiters.delete(id);
    }
    for (const [claudeId, owner] of this.#byClaudeId) {
      if (forget.has(owner)) this.#byClaudeId.delete(claudeId);
    }
    this.#store.delete([...forget]);
    return pruned;
  }

  /** Queues a message; it is typed once the session is IDLE (see MessageQueue). */
  enqueue(
    id: string,
    text: string,
    channel: string | null = null,
    options: EnqueueOptions = {},
  ): MessageRecord {
    const record = this.require(id);
    checkMessageText(text, 'text', options.kind ?? MessageKind.Prompt);
    if (options.kind === MessageKind.Shell && record.runtime === RuntimeKind.Headless) {
      throw new HubError(ErrorCode.NoTerminal, `session ${id} is HEADLESS: it has no shell mode`, {
        sessionId: id,
      });
    }
    if (channel !== null) checkChannelName(channel);
    if (isExternal(record) && !record.pane) {
      throw new HubError(
        ErrorCode.NotInTmux,
        `session ${id} runs outside tmux: a message cannot be typed into it`,
        { sessionId: id },
      );
    }
    if (!isRunning(record.status)) {
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `session ${id} is ${record.status.toLowerCase()}`,
      );
    }
    return this.messages.enqueue(id, text, channel, options);
  }

  /**
   * Sends a message and waits for the end of its turn: the reply, the turn's events and how long
   * it took; or why not, as a value, when it failed or took longer than `timeoutMs`.
   */
  async ask(
    id: string,
    text: string,
    timeoutMs: number,
    channel: string | null = null,
  ): Promise<AskOutcome> {
    const events: StoredEvent[] = [];
    const stop = this.#bus.subscribe(id, (message) => {
      if (message.kind === 'event') events.push(message.event);
    });
    try {
      const message = this.enqueue(id, text, channel);
      const deadline = message.queuedAt + timeoutMs;
      await this.messages.settled(message, timeoutMs);
      const turnEnd = () =>
        message.promptSeq !== null &&
        events.some(
          (e) =>
            e.seq > message.promptSeq! && (e.eventName === 'Stop' || e.eventName === 'StopFailure'),
        );
      if (message.status === MessageStatus.Delivered) {
        await this.#waitFor(this.require(id), turnEnd, Math.max(0, deadline - this.#clock.now()));
      }
      if (message.status === MessageStatus.Failed) return { kind: 'failed', message };
      if (!turnEnd())
        return { kind: 'timeout', message, waitedMs: this.#clock.now() - message.queuedAt };
      const turn = events.filter((e) => e.seq >= message.promptSeq!);
      const end = turn.findIndex((e) => e.eventName === 'Stop' || e.eventName === 'StopFailure');
      const stopEvent = turn[end]!;
      return {
        kind: 'reply',
        message,
        reply: stringField(stopEvent.payload, 'last_assistant_message') ?? null,
        events: turn.slice(0, end + 1),
        durationMs: stopEvent.receivedAt - message.queuedAt,
      };
    } finally {
      stop();
    }
  }

  /**
   * Stops the current turn the way a person would. claude fires no hook for that, so the turn
   * counts as over once the runtime sees it stopped; the session is IDLE then.
   */
  async interrupt(id: string): Promise<SessionRecord> {
    const record = this.require(id);
    if (!isRunning(record.status)) {
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `session ${id} is ${record.status.toLowerCase()}`,
      );
    }
    const stopped = await this.#runtime.interrupt(record, this.#options.stopTimeoutMs);
    if (stopped) await this.#turnInterrupted(record);
    return record;
  }

  /** The running turn ended without a Stop: marked interrupted, and the session is IDLE. */
  async #turnInterrupted(record: SessionRecord): Promise<void> {
    if (!inTurn(record)) return;
    await this.#endTurn(record, 'interrupted', null);
    setStatus(record, SessionStatus.Idle, this.#clock.now());
    record.error = null;
    this.#commit(record);
  }

  /** Saves a changed record, publishes it and wakes whoever waits on it. */
  #commit(record: SessionRecord): void {
    this.#store.save(record);
    this.updates.publish(record);
    this.#notify(record.id);
  }

  /** Answers the dialog a session's turn waits on (see DialogWatch.answer). */
  async answerDialog(id: string, answer: DialogAnswer): Promise<SessionRecord> {
    const record = this.#runningTerminal(id);
    await this.#dialogs.answer(record, answer);
    return record;
  }

  /** Presses named keys (from an allow-list), for answering dialogs. */
  async sendKeys(id: string, keys: readonly string[]): Promise<SessionRecord> {
    const record = this.#runningTerminal(id);
    const allowed = this.#runtime.keyNames;
    for (const key of keys) {
      if (!allowed.includes(key)) {
        throw new HubError(
          ErrorCode.KeyNotAllowed,
          `key ${describeValue(key)} is not allowed; use one of ${allowed.join(', ')}`,
        );
      }
    }
    await this.#runtime.keys(record, keys);
    return record;
  }

  /**
   * Takes a person's tmux client to the session's pane (on the hub's tmux server, or the
   * person's own for an EXTERNAL session); resolves with the client's name.
   */
  focus(id: string, client: string | null): Promise<string> {
    return this.pane(id).focus(client, this.#options.ownClients?.() ?? new Set());
  }

  /** The pane a running session's claude draws in, to watch its terminal or type into it. */
  pane(id: string): Pane {
    return this.#runtime.pane(this.#runningTerminal(id));
  }

  /** A session with a terminal, or why not; SESSION_NOT_RUNNING once it has stopped. */
  #runningTerminal(id: string): SessionRecord {
    const record = this.terminalOf(id);
    if (!isRunning(record.status)) {
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `session ${id} is ${record.status.toLowerCase()}`,
      );
    }
    return record;
  }

  /** Resolves when `done()` holds, checked on every change of the session, or after `timeoutMs`. */
  waitForChange(id: string, done: () => boolean, timeoutMs: number): Promise<void> {
    const record = this.#sessions.get(id);
    return record ? this.#waitFor(record, done, timeoutMs) : Promise.resolve();
  }

  /** Ends claude (its SessionEnd is still delivered), then the tmux session. */
  async stop(id: string): Promise<SessionRecord> {
    const record = this.require(id);
    if (this.#cancelRestart(id)) this.#finish(record, SessionStatus.Stopped, record.error);
    if (!isRunning(record.status)) return record;
    if (this.#stopping.has(id)) {
      await this.#waitFor(record, () => !isRunning(record.status), this.#options.stopTimeoutMs * 2);
      return record;
    }
    this.#stopping.add(id);
    try {
      // A claude that never started (no SessionStart) fires no SessionEnd either.
      // Nor can a DISCONNECTED one's reach the hub.
      const started =
        record.status !== SessionStatus.Starting &&
        (record.status !== SessionStatus.Blocked || heldByDialog(record)) &&
        record.status !== SessionStatus.Disconnected;
      await this.#runtime.stop(record);
      if (started) await this.#waitFor(record, () => record.ended, this.#options.stopTimeoutMs);
      // Its SessionEnd, when it came, ended a running turn already.
      if (!record.ended) await this.#endTurn(record, 'stopped', null);
      this.#finish(record, SessionStatus.Stopped, null);
    } finally {
      this.#stopping.delete(id);
    }
    return record;
  }

  /** The running session a hook secret was made for; null for any other secret. */
  sessionOfSecret(secret: string): SessionRecord | null {
    const record = this.#bySecretHash(sha256(secret));
    return record && isRunning(record.status) ? record : null;
  }

  #bySecretHash(secretHash: string): SessionRecord | undefined {
    const id = this.#secretHashes.get(secretHash);
    return id === undefined ? undefined : this.#sessions.get(id);
  }

  /**
   * Routes one posted hook event: the secret names the session; a payload session_id that
   * belongs to another session is refused; a new one (after /clear) joins the secret's session.
   */
  async ingest(
    secret: string,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
    origin: HookOrigin,
  ): Promise<IngestResult> {
    const secretHash = sha256(secret);
    const record = this.#bySecretHash(secretHash);
    if (!record) {
      if (this.#options.isHookToken(secretHash))
        return this.#ingestExternal(raw, payload, closed, origin);
      return { ok: false, error: new HubError(ErrorCode.Unauthorized, 'unknown hook secret') };
    }
    if (origin.pid !== null && payload.hook_event_name === 'SessionStart') record.pid = origin.pid;
    const owner = this.#byClaudeId.get(payload.session_id);
    if (owner !== undefined && owner !== record.id) {
      return {
        ok: false,
        error: new HubError(ErrorCode.Unauthorized, 'session_id belongs to another session'),
      };
    }
    if (owner === undefined) this.#byClaudeId.set(payload.session_id, record.id);
    return this.#deliver(record, raw, payload, closed);
  }

  /**
   * An event of a claude a person started, posted by the global hooks: a session the hub started
   * is dropped (its own hooks post the same event); a new Claude session id continues the
   * session of the same process (after /clear), or becomes a new EXTERNAL session.
   */
  #ingestExternal(
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
    origin: HookOrigin,
  ): Promise<IngestResult> {
    const dropped: IngestResult = { ok: true, event: null, answer: Promise.resolve({}) };
    const marked = origin.hubSession === null ? undefined : this.#sessions.get(origin.hubSession);
    const ownerId = this.#byClaudeId.get(payload.session_id);
    const owner = ownerId === undefined ? undefined : this.#sessions.get(ownerId);
    if ((marked && !isExternal(marked)) || (owner && !isExternal(owner))) {
      return Promise.resolve(dropped);
    }
    const pane = paneAddress(origin.tmux, origin.tmuxPane);
    const record = owner ?? this.#sameProcess(origin.pid) ?? this.#adopt(payload, origin.pid, pane);
    this.#byClaudeId.set(payload.session_id, record.id);
    let moved = false;
    if (origin.pid !== null && record.pid !== origin.pid) {
      record.pid = origin.pid;
      moved = true;
    }
    if (pane && (pane.socket !== record.pane?.socket || pane.pane !== record.pane.pane)) {
      record.pane = pane;
      moved = true;
    }
    if (!isRunning(record.status) && payload.hook_event_name === 'SessionStart') {
      // claude --resume <id> by hand: the same conversation, so the same session, running again.
      setStatus(record, SessionStatus.Starting, this.#clock.now());
      Object.assign(record, { ended: false, error: null });
      moved = true;
    }
    if (moved) this.#store.save(record);
    return this.#deliver(record, raw, payload, closed);
  }

  /** The running EXTERNAL session of a claude process, which goes on under a new id after /clear. */
  #sameProcess(pid: number | null): SessionRecord | undefined {
    if (pid === null) return undefined;
    return this.list().find(
      (record) => isExternal(record) && record.pid === pid && isRunning(record.status),
    );
  }

  /**
   * A new EXTERNAL session for a claude first heard of: its process and pane from the hook's
   * headers, else from its session file. Synchronous, so two calls at once make one session.
   */
  #adopt(
    payload: HookPayload,
    pid: number | null,
    pane: ReturnType<typeof paneAddress>,
  ): SessionRecord {
    const live =
      pid === null
        ? liveClaudes(claudeConfigDir(this.#options.env)).find(
            (claude) => claude.sessionId === payload.session_id,
          )
        : undefined;
    const record = externalRecord({
      payload,
      pid: pid ?? live?.pid ?? null,
      pane: pane ?? live?.pane ?? null,
      busy: null,
      now: this.#clock.now(),
    });
    this.#join(record, 'a claude started by hand joined');
    return record;
  }

  /** Stores the event, then answers: at once, or for a permission request, when decided. */
  async #deliver(
    record: SessionRecord,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
  ): Promise<IngestResult> {
    const event = await this.#append(record, raw, payload);
    this.#permissions.observe(event);
    // Only sessions the hub started have its MCP server: a person's own "hub" is theirs.
    const allowance = isExternal(record)
      ? null
      : hubToolAllowance(event.eventName, payload.tool_name);
    const answer =
      allowance !== null
        ? Promise.resolve(allowance)
        : event.eventName === 'PermissionRequest'
          ? this.#permissions.hold(
              event,
              closed,
              () => isRunning(record.status),
              // Without a terminal there is no dialog to fall back to: nobody deciding is a no.
              hasTerminal(record) ? undefined : 'deny',
            )
          : Promise.resolve({});
    return { ok: true, event, answer };
  }

  /** Stores an event, applies it to the session, then publishes it: the one way events enter. */
  async #append(record: SessionRecord, raw: string, payload: HookPayload): Promise<StoredEvent> {
    const event = await this.#log.append(record.id, raw, payload);
    const transcriptPath = stringField(payload, 'transcript_path');
    const resumed = this.#dialogs.eventCame(record, event);
    const changed =
      applyEvent(record, event) ||
      resumed ||
      (transcriptPath !== undefined && transcriptPath !== record.transcriptPath);
    if (transcriptPath) record.transcriptPath = transcriptPath;
    // lastEventAt alone is not written per event: start() reads it back from the log.
    if (changed) this.#store.save(record);
    this.#bus.publish(record.id, { kind: 'event', event });
    if (changed) this.updates.publish(record);
    this.#notify(record.id);
    return event;
  }

  /**
   * Starts claude for the record in a fresh tmux session, with a new hook secret. `resume`
   * continues the conversation when its transcript exists; `inPlace` replaces the claude that
   * runs in the session's pane (a person attached stays attached).
   */
  async #launch(record: SessionRecord, resume: boolean, inPlace = false): Promise<void> {
    const secret = randomBytes(32).toString('base64url');
    this.#secretHashes.delete(record.hookSecretHash);
    record.hookSecretHash = sha256(secret);
    this.#secretHashes.set(record.hookSecretHash, record.id);
    // STARTING in the caller's turn: a subscriber that comes next sees the session live.
    this.#launching.add(record.id);
    setStatus(record, SessionStatus.Starting, this.#clock.now());
    Object.assign(record, { error: null, ended: false });
    this.#store.save(record);
    this.updates.publish(record);
    const canResume = resume && hasConversation(record.transcriptPath);
    try {
      // Learned once per claude binary, then cached: only the first launch waits for it.
      const events =
        this.#options.hookEvents && (await this.#options.hookEvents(this.#options.claudeBin));
      this.#writeSettings(record, events);
      await this.#runtime.launch({
        record,
        env: {
          ...sessionEnvironment(this.#options.env, this.#options.secrets ?? []),
          [hookSecretEnv]: secret,
          [hubSessionEnv]: record.id,
        },
        claude: {
          claudeBin: this.#options.claudeBin,
          sessionId: record.claudeSessionId,
          settingsPath: record.settingsPath,
          mcpConfigPath: mcpConfigPath(record.settingsPath),
          model: record.model,
          permissionMode: record.permissionMode,
          resume: canResume,
        },
        inPlace,
      });
      void this.#releaseUnusedHookUrls();
      this.#options.log.info(
        { sessionId: record.id, cwd: record.cwd, resume: canResume, tmux: record.tmuxSession },
        'session launched',
      );
    } catch (error) {
      // The whole error (a command line, its environment's names) goes to the log only.
      this.#options.log.warn({ sessionId: record.id, err: error }, 'session could not start');
      this.#finish(record, SessionStatus.Crashed, `claude could not start: ${startFailure(error)}`);
      throw new HubError(ErrorCode.SessionStartFailed, record.error ?? 'start failed', {
        sessionId: record.id,
      });
    } finally {
      this.#launching.delete(record.id);
    }
  }

  /**
   * The session's settings file, written for every launch with the hub's current hook URL and
   * the events its claude supports.
   */
  #writeSettings(record: SessionRecord, events?: readonly SupportedHookEvent[]): void {
    const dir = path.dirname(record.settingsPath);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // modes apply only on creation: a directory made before keeps its own
    record.hookUrl = this.#hooks.url;
    const settings = hookSettings({
      hookUrl: this.#hooks.url,
      forwarderPath: this.#options.forwarderPath,
      httpTimeoutSeconds: this.#options.hookTimeoutSeconds,
      permissionTimeoutSeconds: this.#options.permissionTimeoutSeconds,
      ...(events && { events }),
    });
    const mcpPath = mcpConfigPath(record.settingsPath);
    for (const [file, content] of [
      [record.settingsPath, settings],
      [mcpPath, mcpConfig(this.#hooks.url)],
    ] as const) {
      writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
    }
  }

  /**
   * Hook events of a time the hub did not hear the session are lost; when the transcript shows
   * the session went on, one HubEventsMissed event says what happened, and the status follows it.
   */
  async #recordMissed(record: SessionRecord): Promise<void> {
    if (!record.transcriptPath || record.lastEventAt === null) return;
    const summary = await readTranscriptSince(record.transcriptPath, record.lastEventAt);
    if (summary.count === 0) return;
    await this.#appendHub(record, 'HubEventsMissed', {
      since: new Date(record.lastEventAt).toISOString(),
      until: new Date().toISOString(),
      step_count: summary.count,
      steps: summary.steps,
      turn_over: summary.turnOver,
      last_assistant_message: summary.lastAssistantMessage,
    });
    this.#options.log.info(
      { sessionId: record.id, steps: summary.count },
      'transcript steps happened while the hub was down',
    );
  }

  #index(record: SessionRecord): void {
    this.#sessions.set(record.id, record);
    if (record.hookSecretHash) this.#secretHashes.set(record.hookSecretHash, record.id);
    this.#byClaudeId.set(record.id, record.id);
    this.#byClaudeId.set(record.claudeSessionId, record.id);
  }

  #tmuxName(id: string): string {
    const short = `claude-${id.slice(0, 8)}`;
    const taken = [...this.#sessions.values()].some((s) => s.tmuxSession === short);
    return taken ? `claude-${id}` : short;
  }

  /**
   * Waits until claude's SessionStart arrived; a dead or stuck start becomes an error. With
   * `returnBlocked`, a start held by a dialog returns (the session is BLOCKED and says why).
   */
  async #waitForStart(record: SessionRecord, returnBlocked = false): Promise<void> {
    const waiting = () =>
      record.status === SessionStatus.Starting ||
      (!returnBlocked && record.status === SessionStatus.Blocked);
    await this.#waitFor(record, () => !waiting(), this.#options.startTimeoutMs);
    const status = record.status as SessionStatus;
    if (status === SessionStatus.Crashed && record.lastEventAt === null) {
      throw new HubError(ErrorCode.SessionStartFailed, record.error ?? 'claude exited at start', {
        sessionId: record.id,
      });
    }
    if (!isRunning(status)) {
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `session ${record.id} is ${status.toLowerCase()}`,
        {
          sessionId: record.id,
        },
      );
    }
    if (waiting()) {
      const screen = await this.#runtime.screen(record);
      throw new HubError(
        ErrorCode.SessionStartFailed,
        `claude did not start within ${this.#options.startTimeoutMs} ms; the screen shows:\n${screen}`,
        { sessionId: record.id, screen },
      );
    }
  }

  #waitFor(record: SessionRecord, done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      let waiters = this.#changeWaiters.get(record.id);
      if (!waiters) this.#changeWaiters.set(record.id, (waiters = new Set()));
      const set = waiters;
      const finish = () => {
        cancel();
        set.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const cancel = this.#clock.after(timeoutMs, finish);
      set.add(check);
    });
  }

  #notify(id: string): void {
    for (const check of [...(this.#changeWaiters.get(id) ?? [])]) check();
  }

  #finish(record: SessionRecord, status: SessionStatus, error: string | null): void {
    this.#options.log.info({ sessionId: record.id, status }, 'session ended');
    this.#dialogs.forget(record.id);
    if (status === SessionStatus.Crashed) void this.#endTurn(record, 'crashed', error);
    setStatus(record, status, this.#clock.now());
    record.error = error;
    this.#store.save(record);
    this.#permissions.sessionGone(record.id);
    this.updates.publish(record);
    if (status === SessionStatus.Stopped) this.#bus.publish(record.id, { kind: 'end' });
    this.#notify(record.id);
    void this.#releaseUnusedHookUrls();
  }

  /**
   * Marks the end of a turn that claude never ended with a Stop (see HubTurnEnded); nothing
   * when no turn runs. Called before the status leaves BUSY.
   */
  async #endTurn(
    record: SessionRecord,
    reason: 'interrupted' | 'stopped' | 'crashed',
    error: string | null,
  ): Promise<void> {
    if (!inTurn(record)) return;
    await this.#appendHub(record, 'HubTurnEnded', { reason, error }).catch((err: unknown) =>
      this.#options.log.error({ sessionId: record.id, err }, 'turn end could not be stored'),
    );
  }

  /**
   * A running claude whose hooks cannot reach this hub: a status and an error that say so, until
   * its turn is over and it is relaunched on the hub's address (see #relaunchWhenIdle).
   */
  #disconnect(record: SessionRecord, why: string): void {
    setStatus(record, SessionStatus.Disconnected, this.#clock.now());
    record.error =
      `its hooks post to ${record.hookUrl ?? 'an unknown address'}, where this hub cannot ` +
      `listen (${why}); it is relaunched on ${this.#hooks.url} with --resume once its turn is over`;
    this.#commit(record);
    this.#options.log.warn({ sessionId: record.id, why }, 'session disconnected');
  }

  /**
   * Relaunches a DISCONNECTED session in its pane with `claude --resume` (same id, same stream)
   * once its screen has shown the turn over, with nothing typed in the input box, on two ticks
   * running. What it did meanwhile is marked from its transcript first.
   */
  async #relaunchWhenIdle(record: SessionRecord): Promise<void> {
    const screen = await this.#runtime.look(record);
    const idle = screen.inputText === '' && !screen.turnRunning;
    if (!idle || !this.#idleSeen.has(record.id)) {
      if (idle) this.#idleSeen.add(record.id);
      else this.#idleSeen.delete(record.id);
      return;
    }
    this.#idleSeen.delete(record.id);
    await this.#recordMissed(record);
    this.#options.log.info(
      { sessionId: record.id, from: record.hookUrl, to: this.#hooks.url },
      'relaunching a disconnected session',
    );
    await this.#launch(record, true, true).catch((error: unknown) =>
      this.#options.log.error({ sessionId: record.id, err: error }, 'relaunch failed'),
    );
  }

  /** Stops listening on earlier hook URLs that no running session posts to any more. */
  async #releaseUnusedHookUrls(): Promise<void> {
    for (const url of this.#hooks.reclaimed) {
      const used = [...this.#sessions.values()].some(
        (record) => isRunning(record.status) && record.hookUrl === url,
      );
      if (used) continue;
      await this.#hooks.release(url);
      this.#options.log.info({ url }, 'no session posts hooks here any more');
    }
  }

  /** Schedules the restart of a crashed session, or says in its error why there is none. */
  #scheduleRestart(record: SessionRecord): void {
    const now = this.#clock.now();
    const decision = decideRestart(this.#options.restartPolicy, record.restartTimes, now);
    if (!decision.restart) {
      this.#finish(record, SessionStatus.Crashed, `${record.error}\n${decision.reason}`);
      return;
    }
    const cancel = this.#clock.after(decision.delayMs, () => {
      this.#restartTimers.delete(record.id);
      if (record.status !== SessionStatus.Crashed) return;
      record.restartTimes = [...record.restartTimes, this.#clock.now()].filter(
        (time) => this.#clock.now() - time < this.#options.restartPolicy.windowMs,
      );
      record.restartCount += 1;
      this.#launch(record, true).catch((error: unknown) =>
        this.#options.log.error({ sessionId: record.id, err: error }, 'restart failed'),
      );
    });
    this.#restartTimers.set(record.id, cancel);
  }

  #cancelRestart(id: string): boolean {
    this.#restartTimers.get(id)?.();
    return this.#restartTimers.delete(id);
  }

  /**
   * An idle EXTERNAL session whose transcript shows a prompt after the hub last heard of it (a
   * person typed, and its hook did not reach the hub) is busy again: HubEventsMissed says so.
   * The transcript is read only when its mtime moved.
   */
  async #followTranscript(record: SessionRecord): Promise<void> {
    const { transcriptPath, lastEventAt } = record;
    if (!transcriptPath || lastEventAt === null) return;
    // Only whether it changed: the kernel's file times run on a coarser clock than Date.now().
    const mtime = statSync(transcriptPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (mtime === this.#transcriptSeen.get(record.id)) return;
    this.#transcriptSeen.set(record.id, mtime);
    const summary = await readTranscriptSince(transcriptPath, lastEventAt);
    if (summary.steps.some((step) => step.kind === 'prompt')) await this.#recordMissed(record);
  }

  /** Checks the sessions on every tick: a poll at a time. */
  #tick(): void {
    if (this.#polling) return;
    void (this.#options.timed ?? untimed)('session_check', () => this.#poll(true));
  }

  /**
   * Notices claude processes that exited (STOPPED after a real SessionEnd, else CRASHED), and
   * reads the screen of the sessions whose state only the screen tells: starting ones (a
   * dialog may hold them), DISCONNECTED ones (is their turn over?).
   */
  #poll(restartCrashed: boolean): Promise<void> {
    this.#polling ??= this.#pollOnce(restartCrashed).finally(() => {
      this.#polling = null;
    });
    return this.#polling;
  }

  /** The screen, last resort for facts: is a starting session held by a dialog? */
  async #checkStartupScreen(record: SessionRecord): Promise<void> {
    const screen = await this.#runtime.look(record);
    const stuck =
      this.#clock.now() - record.statusSince > this.#options.unknownScreenAfterMs &&
      screen.inputText === null;
    const reason = screen.dialog ?? (stuck ? 'UNKNOWN_SCREEN' : null);
    if (reason === 'WORKSPACE_TRUST' && this.#trustOnStart.delete(record.id)) {
      await this.#clock.sleep(700); // the dialog drops keys pressed the moment it appears
      await this.#runtime.keys(record, ['Down', 'Enter']);
      return;
    }
    if (record.status !== SessionStatus.Starting || reason === null) return;
    setStatus(record, SessionStatus.Blocked, this.#clock.now());
    record.blockedReason = reason;
    this.#commit(record);
    this.#options.log.warn({ sessionId: record.id, reason }, 'session blocked');
  }

  async #pollOnce(restartCrashed: boolean): Promise<void> {
    const watched = [...this.#sessions.values()].filter(
      (record) =>
        isRunning(record.status) &&
        !this.#stopping.has(record.id) &&
        !this.#launching.has(record.id),
    );
    const exits = await this.#runtime.exits(watched);
    for (const { record, how, screen } of exits) {
      if (!isRunning(record.status) || this.#stopping.has(record.id)) continue;
      const status = isExternal(record) ? SessionStatus.Stopped : statusOnExit(record, false);
      if (status === SessionStatus.Stopped) {
        this.#finish(record, status, null);
        continue;
      }
      this.#finish(
        record,
        status,
        `claude exited${how}${screen ? `; the screen shows:\n${screen}` : ''}`,
      );
      // A session that never started is a failed start, not a crash to retry.
      if (restartCrashed && record.lastEventAt !== null) this.#scheduleRestart(record);
    }
    for (const record of watched) {
      if (!isRunning(record.status) || this.#stopping.has(record.id)) continue;
      if (inTurn(record)) {
        await this.#dialogs.check(record);
      } else if (
        record.status === SessionStatus.Starting ||
        record.status === SessionStatus.Blocked
      ) {
        await this.#checkStartupScreen(record);
      } else if (record.status === SessionStatus.Disconnected) {
        await this.#relaunchWhenIdle(record);
      } else if (record.status === SessionStatus.Idle && isExternal(record)) {
        await this.#followTranscript(record);
      }
    }
  }
}

/**
 * EXTERNAL_SESSION: the hub never launches the claude of a session a person started (nor
 * restarts it: its exit is STOPPED, and its runtime refuses to launch).
 */
function refuseExternal(record: SessionRecord): void {
  if (!isExternal(record)) return;
  throw new HubError(
    ErrorCode.ExternalSession,
    `session ${record.id} was started outside the hub, so the hub does not resume it`,
    { sessionId: record.id },
  );
}

/** The record, or NO_TERMINAL when its session runs headless. */
function withTerminal(record: SessionRecord): SessionRecord {
  if (hasTerminal(record)) return record;
  throw new HubError(
    ErrorCode.NoTerminal,
    `session ${record.id} runs HEADLESS: it has no terminal`,
  );
}

/** Fields added since a record may have been stored. */
const sessionDefaults = {
  runtime: RuntimeKind.Tmux,
  origin: SessionOrigin.Managed,
  pane: null,
  pid: null,
  hookUrl: null,
  transcriptPath: null,
  restartTimes: [],
  statusSince: 0,
  blockedReason: null,
};

/** `claude --resume` needs a transcript holding at least one message; a crash can leave none. */
function hasConversation(transcriptPath: string | null): boolean {
  if (!transcriptPath || !existsSync(transcriptPath)) return false;
  return /"type":"(user|assistant)"/.test(readFileSync(transcriptPath, 'utf8'));
}

/**
 * Why a start failed, for clients: what the failing program said (its first line of stderr), or
 * the hub's own reason; never the command line or the environment it ran with.
 */
function startFailure(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  if (typeof stderr === 'string' && stderr.trim())
    return stderr.trim().split('\n')[0]!.slice(0, 300);
  if ((error as { command?: unknown }).command !== undefined)
    return 'the command failed (see the hub log)';
  return (error as Error).message;
}
