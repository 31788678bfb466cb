import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { EventLog } from '../events/event-log.js';
import type { HookPayload, StoredEvent } from '../events/hook-event.js';
import { hookSecretEnv, hookSettings } from '../hooks/settings.js';
import { claudeCommand } from './claude-command.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';
import { applyEvent, statusOnExit } from './session-status.js';
import { inputReady } from './screen.js';
import type { SessionStore } from '../store/session-store.js';
import type { TmuxDriver } from './tmux-driver.js';

export interface SessionManagerOptions {
  readonly claudeBin: string;
  readonly dataDir: string;
  /** Environment every session starts with (the hub's own, by default). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly forwarderPath: string;
  readonly hookTimeoutSeconds: number;
  /** How long createSession and early messages wait for claude's SessionStart. */
  readonly startTimeoutMs: number;
  /** How long stopSession waits for claude's SessionEnd before killing the tmux session. */
  readonly stopTimeoutMs: number;
  /** How often tmux is asked whether each claude process still runs. */
  readonly pollIntervalMs: number;
  /** Pause between pasting a message and pressing Enter, so the paste is not submitted early. */
  readonly enterDelayMs: number;
  /** Pause after the input box first appears: the TUI drops keys typed right away. */
  readonly inputSettleMs: number;
}

export interface CreateSessionInput {
  readonly id?: string | null | undefined;
  readonly cwd: string;
  readonly name?: string | null | undefined;
  readonly model?: string | null | undefined;
  readonly permissionMode?: string | null | undefined;
  readonly prompt?: string | null | undefined;
}

export type IngestResult =
  | { readonly ok: true; readonly event: StoredEvent }
  | { readonly ok: false; readonly status: 401; readonly error: string };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Owns the sessions: starts claude in tmux, routes hook events to the right session, derives
 * status, types messages, and notices when a claude process exits.
 */
export class SessionManager {
  readonly #options: SessionManagerOptions;
  readonly #tmux: TmuxDriver;
  readonly #log: EventLog;
  readonly #bus: EventBus;
  readonly #store: SessionStore;
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #bySecretHash = new Map<string, string>();
  readonly #byClaudeId = new Map<string, string>();
  readonly #stopping = new Set<string>();
  /** Per session: resolves waiters when its status changes. */
  readonly #changeWaiters = new Map<string, Set<() => void>>();
  /** Per session: the tail of its message chain, so pastes never interleave. */
  readonly #typing = new Map<string, Promise<unknown>>();
  /** Sessions whose input box has been seen since their claude process started. */
  readonly #inputSeen = new Set<string>();
  #hookUrl = '';
  #poller: NodeJS.Timeout | null = null;
  #polling = false;

  constructor(
    options: SessionManagerOptions,
    deps: { tmux: TmuxDriver; log: EventLog; bus: EventBus; store: SessionStore },
  ) {
    this.#options = options;
    this.#tmux = deps.tmux;
    this.#log = deps.log;
    this.#bus = deps.bus;
    this.#store = deps.store;
    for (const record of deps.store.loadAll()) this.#index(record);
  }

  /** Starts watching processes; `hookUrl` is where the sessions' hooks post. */
  async start(hookUrl: string): Promise<void> {
    this.#hookUrl = hookUrl;
    await this.#poll();
    this.#poller = setInterval(() => void this.#poll(), this.#options.pollIntervalMs);
    this.#poller.unref();
  }

  /** Stops watching; with `stopSessions`, ends every running session first. */
  async close(stopSessions: boolean): Promise<void> {
    if (this.#poller) clearInterval(this.#poller);
    this.#poller = null;
    if (stopSessions) {
      await Promise.all(
        this.list()
          .filter((s) => isRunning(s.status))
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

  attachCommand(record: SessionRecord): string {
    return this.#tmux.attachCommand(record.tmuxSession);
  }

  /** True once a session has ended for good and its end was published. */
  isEnded(id: string): boolean {
    return this.#sessions.get(id)?.status === SessionStatus.Stopped;
  }

  async create(input: CreateSessionInput): Promise<SessionRecord> {
    const id = (input.id ?? randomUUID()).toLowerCase();
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
    if (input.prompt !== undefined && input.prompt !== null) validateText(input.prompt, 'prompt');

    const secret = randomBytes(32).toString('base64url');
    const settingsDir = path.join(this.#options.dataDir, 'sessions');
    mkdirSync(settingsDir, { recursive: true, mode: 0o700 });
    const settingsPath = path.join(settingsDir, `${id}.settings.json`);
    const settings = hookSettings({
      hookUrl: this.#hookUrl,
      forwarderPath: this.#options.forwarderPath,
      httpTimeoutSeconds: this.#options.hookTimeoutSeconds,
    });
    writeFileSync(settingsPath, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });

    const record: SessionRecord = {
      id,
      name: input.name ?? null,
      cwd,
      model: input.model ?? null,
      permissionMode: input.permissionMode ?? null,
      tmuxSession: this.#tmuxName(id),
      settingsPath,
      hookSecretHash: sha256(secret),
      claudeSessionId: id,
      status: SessionStatus.Starting,
      error: null,
      ended: false,
      restartCount: 0,
      createdAt: Date.now(),
      lastEventAt: null,
      lastAssistantMessage: null,
    };
    this.#index(record);
    this.#store.save(record);

    try {
      await this.#tmux.newSession({
        name: record.tmuxSession,
        cwd,
        env: { ...definedEnv(this.#options.env), [hookSecretEnv]: secret },
        argv: claudeCommand({
          claudeBin: this.#options.claudeBin,
          sessionId: id,
          settingsPath,
          model: record.model,
          permissionMode: record.permissionMode,
        }),
      });
    } catch (error) {
      this.#finish(
        record,
        SessionStatus.Crashed,
        `tmux could not start the session: ${(error as Error).message}`,
      );
      throw new HubError(ErrorCode.SessionStartFailed, record.error ?? 'start failed', {
        sessionId: id,
      });
    }

    await this.#waitForStart(record);
    if (input.prompt) void this.send(id, input.prompt).catch(() => undefined);
    return record;
  }

  /** Types the text into the session as one prompt, once the session is ready. */
  send(id: string, text: string): Promise<SessionRecord> {
    const record = this.require(id);
    validateText(text, 'text');
    if (!isRunning(record.status)) {
      throw new HubError(
        ErrorCode.SessionNotRunning,
        `session ${id} is ${record.status.toLowerCase()}`,
      );
    }
    const previous = this.#typing.get(id) ?? Promise.resolve();
    const typed = previous
      .catch(() => undefined)
      .then(async () => {
        await this.#waitForStart(record);
        await this.#waitForInputBox(record);
        // A CR in a terminal is Enter: line breaks are sent as LF whatever the client used.
        await this.#tmux.paste(record.tmuxSession, text.replace(/\r\n?/g, '\n'));
        await sleep(this.#options.enterDelayMs);
        await this.#tmux.sendKeys(record.tmuxSession, ['Enter']);
        return record;
      });
    this.#typing.set(id, typed);
    return typed;
  }

  /** Ends claude (its SessionEnd is still delivered), then the tmux session. */
  async stop(id: string): Promise<SessionRecord> {
    const record = this.require(id);
    if (!isRunning(record.status)) return record;
    if (this.#stopping.has(id)) {
      await this.#waitFor(record, () => !isRunning(record.status), this.#options.stopTimeoutMs * 2);
      return record;
    }
    this.#stopping.add(id);
    try {
      await this.#tmux.killSession(record.tmuxSession);
      await this.#waitFor(record, () => record.ended, this.#options.stopTimeoutMs);
      this.#finish(record, SessionStatus.Stopped, null);
    } finally {
      this.#stopping.delete(id);
    }
    return record;
  }

  /**
   * Routes one posted hook event: the secret names the session; a payload session_id that
   * belongs to another session is refused; a new one (after /clear) joins the secret's session.
   */
  async ingest(secret: string, raw: string, payload: HookPayload): Promise<IngestResult> {
    const id = this.#bySecretHash.get(sha256(secret));
    const record = id === undefined ? undefined : this.#sessions.get(id);
    if (!record) return { ok: false, status: 401, error: 'unknown hook secret' };
    const owner = this.#byClaudeId.get(payload.session_id);
    if (owner !== undefined && owner !== record.id) {
      return { ok: false, status: 401, error: 'session_id belongs to another session' };
    }
    if (owner === undefined) this.#byClaudeId.set(payload.session_id, record.id);
    const event = await this.#log.append(record.id, raw, payload);
    if (applyEvent(record, event)) this.#store.save(record);
    this.#bus.publish(record.id, { kind: 'event', event });
    this.#notify(record.id);
    return { ok: true, event };
  }

  #index(record: SessionRecord): void {
    this.#sessions.set(record.id, record);
    this.#bySecretHash.set(record.hookSecretHash, record.id);
    this.#byClaudeId.set(record.id, record.id);
    this.#byClaudeId.set(record.claudeSessionId, record.id);
  }

  #tmuxName(id: string): string {
    const short = `claude-${id.slice(0, 8)}`;
    const taken = [...this.#sessions.values()].some((s) => s.tmuxSession === short);
    return taken ? `claude-${id}` : short;
  }

  /** Waits until claude's SessionStart arrived; a dead or stuck start becomes an error. */
  async #waitForStart(record: SessionRecord): Promise<void> {
    if (record.status !== SessionStatus.Starting) {
      if (!isRunning(record.status)) {
        throw new HubError(
          ErrorCode.SessionNotRunning,
          `session ${record.id} is ${record.status.toLowerCase()}`,
          { sessionId: record.id },
        );
      }
      return;
    }
    await this.#waitFor(
      record,
      () => record.status !== SessionStatus.Starting,
      this.#options.startTimeoutMs,
    );
    const status = record.status as SessionStatus;
    if (status === SessionStatus.Crashed) {
      throw new HubError(ErrorCode.SessionStartFailed, record.error ?? 'claude exited at start', {
        sessionId: record.id,
      });
    }
    if (status === SessionStatus.Starting) {
      const screen = await this.#tmux.capture(record.tmuxSession);
      throw new HubError(
        ErrorCode.SessionStartFailed,
        `claude did not start within ${this.#options.startTimeoutMs} ms; the screen shows:\n${screen}`,
        { sessionId: record.id, screen },
      );
    }
  }

  /** SessionStart fires before the TUI draws its input box; keys sent earlier are lost. */
  async #waitForInputBox(record: SessionRecord): Promise<void> {
    if (this.#inputSeen.has(record.id)) return;
    const deadline = Date.now() + this.#options.startTimeoutMs;
    while (!inputReady(await this.#tmux.capture(record.tmuxSession))) {
      if (Date.now() > deadline || !isRunning(record.status)) {
        throw new HubError(
          ErrorCode.SessionNotRunning,
          `session ${record.id} never showed its input box`,
          { sessionId: record.id },
        );
      }
      await sleep(100);
    }
    await sleep(this.#options.inputSettleMs);
    this.#inputSeen.add(record.id);
  }

  #waitFor(record: SessionRecord, done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      let waiters = this.#changeWaiters.get(record.id);
      if (!waiters) this.#changeWaiters.set(record.id, (waiters = new Set()));
      const set = waiters;
      const finish = () => {
        clearTimeout(timer);
        set.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      set.add(check);
    });
  }

  #notify(id: string): void {
    for (const check of [...(this.#changeWaiters.get(id) ?? [])]) check();
  }

  #finish(record: SessionRecord, status: SessionStatus, error: string | null): void {
    record.status = status;
    record.error = error;
    this.#store.save(record);
    if (status === SessionStatus.Stopped) this.#bus.publish(record.id, { kind: 'end' });
    this.#notify(record.id);
  }

  /** Notices claude processes that exited: STOPPED after a real SessionEnd, else CRASHED. */
  async #poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const panes = new Map((await this.#tmux.listPanes()).map((pane) => [pane.session, pane]));
      for (const record of this.#sessions.values()) {
        if (!isRunning(record.status) || this.#stopping.has(record.id)) continue;
        const pane = panes.get(record.tmuxSession);
        if (pane && !pane.dead) continue;
        const screen = pane ? await this.#tmux.capture(record.tmuxSession, true) : '';
        await this.#tmux.killSession(record.tmuxSession);
        const status = statusOnExit(record, false);
        const why =
          status === SessionStatus.Crashed
            ? `claude exited${pane?.exitStatus != null ? ` with status ${pane.exitStatus}` : ''}${screen ? `; the screen shows:\n${screen}` : ''}`
            : null;
        this.#finish(record, status, why);
      }
    } finally {
      this.#polling = false;
    }
  }
}

/** Rejects text that cannot be a prompt; any other text is typed exactly as given. */
function validateText(text: string, field: string): void {
  if (text.trim().length === 0) {
    throw new HubError(ErrorCode.BadInput, `${field} must not be empty or only whitespace`);
  }
}

/** Variables that describe the hub's own terminal, not the session's. */
const hubOnlyEnv = new Set(['TMUX', 'TMUX_PANE', 'CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT']);

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || hubOnlyEnv.has(key)) continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) result[key] = value;
  }
  return result;
}
