import { hash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SupportedHookEvent } from '../claude/hook-event-support.js';
import type { Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import type { Logger } from '../log.js';
import { claudeAccount } from '../claude/claude-account.js';
import { sessionEnvironment } from '../runtime/session-env.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import {
  hookSecretEnv,
  hookSettings,
  hubSessionEnv,
  mcpConfig,
  mcpConfigPath,
} from './hook-settings.js';
import type { HookUrls } from './hook-urls.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';
import type { SessionEnding } from './session-end.js';
import type { SessionIndex } from './session-index.js';
import { enter, Move } from './session-lifecycle.js';

export interface LaunchOptions {
  readonly claudeBin: string;
  /** The hook events a session of the claude at `bin` registers; the registry's when absent. */
  readonly hookEvents?: (bin: string) => Promise<readonly SupportedHookEvent[]>;
  /** The hub's environment: sessions start with it, less the hub's own (see sessionEnvironment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The hub's secrets (see hubSecrets): no variable holding one reaches a session. */
  readonly secrets?: readonly string[];
  readonly forwarderPath: string;
  readonly hookTimeoutSeconds: number;
  /** claude's timeout for the PermissionRequest hook: longer than the hub's hold. */
  readonly permissionTimeoutSeconds: number;
  /** How long createSession and early messages wait for claude's SessionStart. */
  readonly startTimeoutMs: number;
}

export interface LauncherDeps {
  readonly runtime: SessionRuntime;
  readonly index: SessionIndex;
  readonly changes: SessionChanges;
  readonly ending: Pick<SessionEnding, 'finish'>;
  readonly hookUrls: HookUrls;
  readonly clock: Clock;
  readonly log: Logger;
}

export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Starts claude for a session through its runtime, and waits for it to have started. */
export class Launcher {
  readonly #options: LaunchOptions;
  readonly #deps: LauncherDeps;
  /** Sessions between STARTING and their runtime's launch: no exit of theirs is seen yet. */
  readonly #launching = new Set<string>();

  constructor(options: LaunchOptions, deps: LauncherDeps) {
    this.#options = options;
    this.#deps = deps;
  }

  isLaunching(id: string): boolean {
    return this.#launching.has(id);
  }

  /**
   * Starts claude for the record in a fresh tmux session, with a new hook secret. `resume`
   * continues the conversation when its transcript exists; `inPlace` replaces the claude that
   * runs in the session's pane (a person attached stays attached).
   */
  async launch(record: SessionRecord, resume: boolean, inPlace = false): Promise<void> {
    const { runtime, index, changes, ending, hookUrls, clock, log } = this.#deps;
    const secret = randomBytes(32).toString('base64url');
    index.setSecretHash(record, sha256(secret));
    const env = sessionEnvironment(this.#options.env, this.#options.secrets ?? []);
    record.account = claudeAccount(env);
    // STARTING in the caller's turn: a subscriber that comes next sees the session live.
    this.#launching.add(record.id);
    enter(record, Move.Launch, { at: clock.now() });
    changes.commit(record);
    const canResume = resume && hasConversation(record.transcriptPath);
    try {
      // Learned once per claude binary, then cached: only the first launch waits for it.
      const events =
        this.#options.hookEvents && (await this.#options.hookEvents(this.#options.claudeBin));
      this.#writeSettings(record, events);
      await runtime.launch({
        record,
        env: {
          ...env,
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
      void hookUrls.releaseUnused();
      log.info(
        { sessionId: record.id, cwd: record.cwd, resume: canResume, tmux: record.tmuxSession },
        'session launched',
      );
    } catch (error) {
      // The whole error (a command line, its environment's names) goes to the log only.
      log.warn({ sessionId: record.id, err: error }, 'session could not start');
      ending.finish(record, Move.Crashed, `claude could not start: ${startFailure(error)}`);
      throw new HubError(ErrorCode.SessionStartFailed, record.error ?? 'start failed', {
        sessionId: record.id,
      });
    } finally {
      this.#launching.delete(record.id);
    }
  }

  /**
   * Waits until claude's SessionStart arrived; a dead or stuck start becomes an error. With
   * `returnBlocked`, a start held by a dialog returns (the session is BLOCKED and says why).
   */
  async waitForStart(record: SessionRecord, returnBlocked = false): Promise<void> {
    const { startTimeoutMs } = this.#options;
    const waiting = () =>
      record.status === SessionStatus.Starting ||
      (!returnBlocked && record.status === SessionStatus.Blocked);
    await this.#deps.changes.waitFor(record.id, () => !waiting(), startTimeoutMs);
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
        { sessionId: record.id },
      );
    }
    if (waiting()) {
      const screen = await this.#deps.runtime.screen(record);
      throw new HubError(
        ErrorCode.SessionStartFailed,
        `claude did not start within ${startTimeoutMs} ms; the screen shows:\n${screen}`,
        { sessionId: record.id, screen },
      );
    }
  }

  /**
   * The session's settings file, written for every launch with the hub's current hook URL and
   * the events its claude supports.
   */
  #writeSettings(record: SessionRecord, events?: readonly SupportedHookEvent[]): void {
    const { url } = this.#deps.hookUrls;
    const dir = path.dirname(record.settingsPath);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // modes apply only on creation: a directory made before keeps its own
    record.hookUrl = url;
    const settings = hookSettings({
      hookUrl: url,
      forwarderPath: this.#options.forwarderPath,
      httpTimeoutSeconds: this.#options.hookTimeoutSeconds,
      permissionTimeoutSeconds: this.#options.permissionTimeoutSeconds,
      ...(events && { events }),
    });
    const mcpPath = mcpConfigPath(record.settingsPath);
    for (const [file, content] of [
      [record.settingsPath, settings],
      [mcpPath, mcpConfig(url)],
    ] as const) {
      writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
    }
  }
}

/** `claude --resume` needs a transcript holding at least one message; a crash can leave none. */
export function hasConversation(transcriptPath: string | null): boolean {
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
