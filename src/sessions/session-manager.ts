import path from 'node:path';
import { checkChannelName } from '../channels/channel.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { HookPayload } from '../events/hook-event.js';
import type { HubEventName } from '../events/registry.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { StreamLine } from '../runtime/headless-runtime.js';
import { RuntimeKind, type SessionRuntime } from '../runtime/session-runtime.js';
import type { Pane } from '../runtime/tmux-pane.js';
import type { RecordTable } from '../store/record-table.js';
import type { RecordRetention } from '../store/retention.js';
import { ask, type AskOutcome } from './ask.js';
import {
  checkAllowedRoot,
  checkSessionLimit,
  newSession,
  type CreateLimits,
  type CreateSessionInput,
} from './create-checks.js';
import type { DialogAnswer } from './dialog-watch.js';
import { isExternal } from './external-session.js';
import type { HookOrigin, IngestResult } from './hook-origin.js';
import type { HookAddress } from './hook-urls.js';
import type { MessageRecord } from './message.js';
import type { EnqueueOptions, MessageQueue } from './message-queue.js';
import { checkMessageText, MessageKind } from './message-text.js';
import { reAdopt } from './re-adoption.js';
import { expired, type PrunedRecords } from './record-retention.js';
import {
  hasTerminal,
  isRunning,
  SessionStatus,
  withStoredDefaults,
  type SessionRecord,
} from './session.js';
import { checkLabels } from './session-labels.js';
import type { SessionChanges } from './session-changes.js';
import { Move } from './session-lifecycle.js';
import { askedCwd, SessionWorktrees } from './session-worktrees.js';
import {
  sessionParts,
  type SessionDeps,
  type SessionParts,
  type SessionPartsOptions,
} from './session-parts.js';

export type { AskOutcome, CreateSessionInput };

export interface SessionManagerOptions extends SessionPartsOptions, CreateLimits {
  /** The processes of the hub's own tmux clients (terminal watches): no person's terminal. */
  readonly ownClients?: () => ReadonlySet<number>;
  /** Where sessions' worktrees are made (--worktree-root); `<dataDir>/worktrees` when absent. */
  readonly worktreeRoot?: string;
}

/** What stopSession does beyond ending claude. */
export interface StopOptions {
  /** Remove the session's worktree, and its branch when nothing on it would be lost. */
  readonly removeWorktree?: boolean;
}

/**
 * The sessions' facade: what clients ask of sessions, each request checked here and carried out
 * by the part that owns it (see docs/architecture.md): the index (lookups), the intake (events
 * into the log), the hook routing, the launcher, the supervision tick, re-adoption, and the
 * lifecycle's moves, each committed in one place (SessionChanges).
 */
export class SessionManager {
  readonly #options: SessionManagerOptions;
  readonly #runtime: SessionRuntime;
  readonly #bus: EventBus;
  readonly #store: RecordTable<SessionRecord>;
  readonly #permissions: PermissionBroker;
  readonly #parts: SessionParts;
  readonly #worktrees: SessionWorktrees;
  /** Ids of sessions whose worktree is being made: taken, though not in the index yet. */
  readonly #making = new Set<string>();
  readonly messages: MessageQueue;

  constructor(options: SessionManagerOptions, deps: SessionDeps) {
    this.#options = options;
    this.#runtime = deps.runtime;
    this.#bus = deps.bus;
    this.#store = deps.store;
    this.#permissions = deps.permissions;
    this.#parts = sessionParts(options, deps);
    this.messages = this.#parts.messages;
    this.#worktrees = new SessionWorktrees(
      {
        root: options.worktreeRoot ?? path.join(options.dataDir, 'worktrees'),
        env: options.env,
        secrets: options.secrets ?? [],
      },
      { changes: this.#parts.changes, clock: this.#parts.clock, log: options.log },
    );
    for (const record of deps.store.loadAll()) {
      this.#parts.index.add(withStoredDefaults(record));
    }
  }

  /** Fires with a session whenever its status, pending permissions, last message or labels change. */
  get updates(): SessionChanges['updates'] {
    return this.#parts.changes.updates;
  }

  /**
   * Re-adopts the sessions still running in tmux, marks the others, and starts watching.
   * `hooks` says where sessions launched now post their hooks, and takes back the addresses
   * that running sessions were launched with, when the hub listened elsewhere then.
   * `earlierGlobalUrl` is where the global hooks posted before they were pointed here.
   */
  async start(hooks: HookAddress, earlierGlobalUrl: string | null = null): Promise<void> {
    this.#parts.hookUrls.address = hooks;
    await reAdopt(
      { ...this.#parts, runtime: this.#runtime, env: this.#options.env, log: this.#options.log },
      earlierGlobalUrl,
    );
    await this.#parts.supervision.start();
  }

  /** Stops watching; with `stopSessions`, ends every running session first. */
  async close(stopSessions: boolean): Promise<void> {
    await this.#parts.supervision.close();
    if (stopSessions) {
      await Promise.all(
        this.list()
          .filter((s) => isRunning(s.status) && !isExternal(s))
          .map((s) => this.stop(s.id)),
      );
    }
  }

  list(): SessionRecord[] {
    return this.#parts.index.list();
  }

  get(id: string): SessionRecord | undefined {
    return this.#parts.index.get(id);
  }

  require(id: string): SessionRecord {
    return this.#parts.index.require(id);
  }

  /** The session, or NO_TERMINAL when it runs headless. */
  terminalOf(id: string): SessionRecord {
    return withTerminal(this.require(id));
  }

  /**
   * Keeps a line a headless claude printed, as a StreamMessage event (see EventIntake). The
   * runtime reads claude's stdout with nobody to tell of a failure, so it is logged here.
   */
  appendStreamLine(id: string, line: StreamLine): void {
    const record = this.#parts.index.get(id);
    if (!record) return;
    this.#parts.intake
      .appendStreamLine(record, line)
      .catch((error: unknown) =>
        this.#options.log.error({ err: error, sessionId: id }, 'a stream line could not be stored'),
      );
  }

  /** A permission request of a session was made or settled (see PermissionOutcomes.changed). */
  permissionChanged(request: PermissionRecord): void {
    this.#parts.permissionOutcomes.changed(request);
  }

  /** A permission request was settled: it enters the session's stream (PermissionOutcomes). */
  permissionResolved(request: PermissionRecord): Promise<void> {
    return this.#parts.permissionOutcomes.resolved(request);
  }

  /** The status clients see: AWAITING_PERMISSION (a request waits), LIMITED (a usage limit). */
  statusOf(record: SessionRecord): SessionStatus {
    if (isRunning(record.status) && this.#permissions.pending(record.id).length > 0)
      return SessionStatus.AwaitingPermission;
    return record.status === SessionStatus.Idle && record.usageLimit
      ? SessionStatus.Limited
      : record.status;
  }

  /** The pane's visible text; empty when the session has no pane. */
  screen(record: SessionRecord): Promise<string> {
    return this.#runtime.screen(withTerminal(record));
  }

  /** The sessions' worktrees: a session's diff, a commit of its worktree. */
  get worktrees(): Pick<SessionWorktrees, 'diff' | 'commit'> {
    return this.#worktrees;
  }

  /** Puts an event the hub itself makes (see hubEvents) into a session's stream. */
  async appendHubEvent(
    sessionId: string,
    name: HubEventName,
    fields: Record<string, unknown>,
  ): Promise<void> {
    await this.#parts.intake.appendHub(this.require(sessionId), name, fields);
  }

  attachCommand(record: SessionRecord): string | null {
    return this.#runtime.attachCommand(record);
  }

  /** True once a session has ended for good and its end was published. */
  isEnded(id: string): boolean {
    return this.#parts.index.get(id)?.status === SessionStatus.Stopped;
  }

  async create(input: CreateSessionInput): Promise<SessionRecord> {
    const checked = newSession(input, this.#options, this.#parts.index, this.#parts.clock.now());
    const { resumed } = checked;
    const record = input.worktree
      ? await this.#withWorktree(checked.record, input.worktree)
      : checked.record;
    const { id } = record;
    this.#parts.index.add(record);
    if (input.trustWorkspace) this.#parts.supervision.trustOnStart(id);
    try {
      await this.#parts.launcher.launch(record, resumed);
      await this.#parts.launcher.waitForStart(record, true);
    } catch (error) {
      if (record.worktree) await this.#discardWorktree(record);
      throw error;
    }
    this.#parts.supervision.trusted(id);
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

  /** The record with its worktree made; the id stays taken meanwhile. */
  async #withWorktree(
    record: SessionRecord,
    request: NonNullable<CreateSessionInput['worktree']>,
  ): Promise<SessionRecord> {
    if (this.#making.has(record.id)) {
      throw new HubError(ErrorCode.SessionExists, `a session with id ${record.id} exists already`);
    }
    this.#making.add(record.id);
    let made: SessionRecord;
    try {
      made = await this.#worktrees.make(record, request);
    } finally {
      this.#making.delete(record.id);
    }
    if (this.#parts.index.taken(record.id)) {
      // Another createSession took the id while git ran.
      await this.#worktrees.undo(made);
      throw new HubError(ErrorCode.SessionExists, `a session with id ${record.id} exists already`);
    }
    return made;
  }

  /** A start that failed: its claude is stopped, and the worktree and branch made for it go. */
  async #discardWorktree(record: SessionRecord): Promise<void> {
    try {
      await this.stop(record.id);
      await this.#worktrees.remove(record, 'ALWAYS');
    } catch (error) {
      this.#options.log.warn(
        { sessionId: record.id, err: error },
        'the worktree of a session that failed to start could not be removed',
      );
    }
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
    this.checkAllowedRoot(askedCwd(record));
    this.#worktrees.checkRunnable(record);
    checkSessionLimit(this.#parts.index, this.#options.maxSessions);
    this.#parts.supervision.cancelRestart(id);
    await this.#parts.launcher.launch(record, true);
    await this.#parts.launcher.waitForStart(record, true);
    return record;
  }

  /** The cwd, with symlinks and `..` resolved, must lie in an allowed root (when any is set). */
  checkAllowedRoot(cwd: string): void {
    checkAllowedRoot(cwd, this.#options.allowedRoots);
  }

  /**
   * Deletes the records past retention, from memory and the store alike: sessions that ended
   * longer than `maxAgeMs` ago with their messages and permission requests, and per session the
   * settled messages and requests beyond the latest `perSession`. Their events go by the event
   * log's own retention.
   */
  pruneRecords(retention: RecordRetention): PrunedRecords {
    const now = this.#parts.clock.now();
    const forget = new Set<string>();
    for (const record of this.#parts.index.values()) {
      if (expired(record, retention, now)) forget.add(record.id);
    }
    const pruned = {
      sessions: forget.size,
      messages: this.messages.prune(retention.perSession, forget),
      permissions: this.#permissions.prune(retention.perSession, forget),
    };
    this.#worktrees.forgotten([...forget].map((id) => this.#parts.index.require(id)));
    this.#parts.index.forget(forget);
    this.#parts.changes.forget(forget);
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
    refuseStopped(record);
    return this.messages.enqueue(id, text, channel, options);
  }

  /**
   * Sends a message and waits for the end of its turn: the reply, the turn's events and how long
   * it took; or why not, as a value, when it failed or took longer than `timeoutMs`.
   */
  ask(id: string, text: string, timeoutMs: number, channel: string | null = null) {
    const deps = {
      bus: this.#bus,
      messages: this.messages,
      changes: this.#parts.changes,
      clock: this.#parts.clock,
    };
    return ask(deps, id, () => this.enqueue(id, text, channel), timeoutMs);
  }

  /**
   * Stops the current turn the way a person would. claude fires no hook for that, so the turn
   * counts as over once the runtime sees it stopped; the session is IDLE then.
   */
  async interrupt(id: string): Promise<SessionRecord> {
    const record = this.require(id);
    refuseStopped(record);
    const stopped = await this.#runtime.interrupt(record, this.#options.stopTimeoutMs);
    if (stopped) await this.#parts.turnInterrupted(record);
    return record;
  }

  /** Answers the dialog a session's turn waits on (see DialogWatch.answer). */
  async answerDialog(id: string, answer: DialogAnswer): Promise<SessionRecord> {
    const record = this.#runningTerminal(id);
    await this.#parts.dialogs.answer(record, answer);
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
    refuseStopped(record);
    return record;
  }

  /** Resolves when `done()` holds, checked on every change of the session, or after `timeoutMs`. */
  waitForChange(id: string, done: () => boolean, timeoutMs: number): Promise<void> {
    return this.#parts.changes.waitFor(id, done, timeoutMs);
  }

  /**
   * Changes a session's record (of any origin and status) with `edit`, then saves and publishes
   * it as any other change, and wakes what waits on it. `edit` checks what it sets.
   */
  amend(id: string, edit: (record: SessionRecord) => void): SessionRecord {
    const record = this.require(id);
    edit(record);
    this.#parts.changes.commit(record);
    return record;
  }

  /**
   * Ends claude (its SessionEnd is still delivered), then the tmux session; with
   * `removeWorktree`, then its worktree (see SessionWorktrees.remove), of a stopped session too.
   */
  async stop(id: string, options: StopOptions = {}): Promise<SessionRecord> {
    const record = this.require(id);
    if (this.#parts.supervision.cancelRestart(id)) {
      this.#parts.ending.finish(record, Move.Stopped, record.error);
    }
    await this.#parts.ending.stop(record);
    if (options.removeWorktree) await this.#worktrees.remove(record);
    return record;
  }

  /** The running session a hook secret was made for; null for any other secret. */
  sessionOfSecret(secret: string): SessionRecord | null {
    return this.#parts.routing.sessionOfSecret(secret);
  }

  /** Routes one posted hook event to its session (see HookRouting). */
  ingest(
    secret: string,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
    origin: HookOrigin,
  ): Promise<IngestResult> {
    return this.#parts.routing.ingest(secret, raw, payload, closed, origin);
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

/** SESSION_NOT_RUNNING for a session that stopped or crashed. */
function refuseStopped(record: SessionRecord): void {
  if (isRunning(record.status)) return;
  throw new HubError(
    ErrorCode.SessionNotRunning,
    `session ${record.id} is ${record.status.toLowerCase()}`,
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
