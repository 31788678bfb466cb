import { statSync } from 'node:fs';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { untimed, type Timed } from '../periodic.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import type { DialogWatch } from './dialog-watch.js';
import { dialogKeyDelayMs, inTurn } from './dialog-watch.js';
import type { EventIntake } from './event-intake.js';
import { isExternal } from './external-session.js';
import type { HookUrls } from './hook-urls.js';
import { decideRestart, type RestartPolicy } from './restart-policy.js';
import { isRunning, SessionStatus, type SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';
import type { SessionEnding } from './session-end.js';
import type { SessionIndex } from './session-index.js';
import type { Launcher } from './session-launch.js';
import { enter, Move } from './session-lifecycle.js';
import { moveOnExit } from './session-status.js';
import { readTranscriptSince } from './transcript.js';

export interface SupervisionOptions {
  /** The poll tick: how soon a starting session's dialog or an exited claude is noticed. */
  readonly pollIntervalMs: number;
  /** Records how long each tick's check took. */
  readonly timed?: Timed;
  readonly restartPolicy: RestartPolicy;
  /** A start showing no known dialog and no input box for this long is BLOCKED on an unknown screen. */
  readonly unknownScreenAfterMs: number;
}

export interface SupervisionDeps {
  readonly runtime: SessionRuntime;
  readonly index: SessionIndex;
  readonly changes: SessionChanges;
  readonly launcher: Pick<Launcher, 'launch' | 'isLaunching'>;
  readonly ending: Pick<SessionEnding, 'finish' | 'isStopping'>;
  readonly intake: Pick<EventIntake, 'recordMissed'>;
  readonly dialogs: Pick<DialogWatch, 'check'>;
  readonly hookUrls: HookUrls;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * The poll tick: notices claude processes that exited (and restarts crashed ones), starts held
 * by a dialog, turns held by a dialog, DISCONNECTED sessions whose turn is over (relaunched on
 * the hub's address), and prompts a person typed into an EXTERNAL claude whose hook was lost.
 */
export class Supervision {
  readonly #options: SupervisionOptions;
  readonly #deps: SupervisionDeps;
  /** Cancels each pending restart. */
  readonly #restartTimers = new Map<string, () => void>();
  /** Sessions whose creator asked the hub to answer the workspace-trust dialog. */
  readonly #trustOnStart = new Set<string>();
  /** The transcript mtime of each idle EXTERNAL session when it was last read. */
  readonly #transcriptSeen = new Map<string, number>();
  /** DISCONNECTED sessions whose screen showed the turn over on the last tick. */
  readonly #idleSeen = new Set<string>();
  #poller: NodeJS.Timeout | null = null;
  #polling: Promise<void> | null = null;

  constructor(options: SupervisionOptions, deps: SupervisionDeps) {
    this.#options = options;
    this.#deps = deps;
  }

  /** Checks once (no restarts: what crashed while the hub was down stays so), then every tick. */
  async start(): Promise<void> {
    await this.#poll(false);
    this.#poller = setInterval(() => this.#tick(), this.#options.pollIntervalMs);
    this.#poller.unref();
  }

  /** Stops the tick and the pending restarts, after the check under way. */
  async close(): Promise<void> {
    if (this.#poller) clearInterval(this.#poller);
    this.#poller = null;
    for (const cancel of this.#restartTimers.values()) cancel();
    this.#restartTimers.clear();
    await this.#polling;
  }

  /** The session's start answers the workspace-trust dialog (until `trusted`). */
  trustOnStart(id: string): void {
    this.#trustOnStart.add(id);
  }

  trusted(id: string): void {
    this.#trustOnStart.delete(id);
  }

  /** Cancels a pending restart; whether there was one. */
  cancelRestart(id: string): boolean {
    this.#restartTimers.get(id)?.();
    return this.#restartTimers.delete(id);
  }

  /**
   * A running claude whose hooks cannot reach this hub: a status and an error that say so, until
   * its turn is over and it is relaunched on the hub's address (see #relaunchWhenIdle).
   */
  disconnect(record: SessionRecord, why: string): void {
    const { hookUrls, clock, changes, log } = this.#deps;
    const error =
      `its hooks post to ${record.hookUrl ?? 'an unknown address'}, where this hub cannot ` +
      `listen (${why}); it is relaunched on ${hookUrls.url} with --resume once its turn is over`;
    enter(record, Move.Disconnected, { at: clock.now(), error });
    changes.commit(record);
    log.warn({ sessionId: record.id, why }, 'session disconnected');
  }

  /** Checks the sessions on every tick: a poll at a time. */
  #tick(): void {
    if (this.#polling) return;
    void (this.#options.timed ?? untimed)('session_check', () => this.#poll(true));
  }

  #poll(restartCrashed: boolean): Promise<void> {
    this.#polling ??= this.#pollOnce(restartCrashed).finally(() => {
      this.#polling = null;
    });
    return this.#polling;
  }

  /**
   * Notices claude processes that exited (STOPPED after a real SessionEnd, else CRASHED), and
   * reads the screen of the sessions whose state only the screen tells: starting ones (a
   * dialog may hold them), DISCONNECTED ones (is their turn over?).
   */
  async #pollOnce(restartCrashed: boolean): Promise<void> {
    const { runtime, index, launcher, ending, dialogs } = this.#deps;
    const watched = [...index.values()].filter(
      (record) =>
        isRunning(record.status) &&
        !ending.isStopping(record.id) &&
        !launcher.isLaunching(record.id),
    );
    const exits = await runtime.exits(watched);
    for (const { record, how, screen } of exits) {
      if (!isRunning(record.status) || ending.isStopping(record.id)) continue;
      const move = isExternal(record) ? Move.Stopped : moveOnExit(record);
      if (move === Move.Stopped) {
        ending.finish(record, move, null);
        continue;
      }
      ending.finish(
        record,
        move,
        `claude exited${how}${screen ? `; the screen shows:\n${screen}` : ''}`,
      );
      // A session that never started is a failed start, not a crash to retry.
      if (restartCrashed && record.lastEventAt !== null) this.#scheduleRestart(record);
    }
    for (const record of watched) {
      if (!isRunning(record.status) || ending.isStopping(record.id)) continue;
      if (inTurn(record)) {
        await dialogs.check(record);
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

  /** The screen, last resort for facts: is a starting session held by a dialog? */
  async #checkStartupScreen(record: SessionRecord): Promise<void> {
    const { runtime, clock, changes, log } = this.#deps;
    const screen = await runtime.look(record);
    const stuck =
      clock.now() - record.statusSince > this.#options.unknownScreenAfterMs &&
      screen.inputText === null;
    const reason = screen.dialog ?? (stuck ? 'UNKNOWN_SCREEN' : null);
    if (reason === 'WORKSPACE_TRUST' && this.#trustOnStart.delete(record.id)) {
      await clock.sleep(dialogKeyDelayMs); // the dialog drops keys pressed the moment it appears
      await runtime.keys(record, ['Down', 'Enter']);
      return;
    }
    if (reason === null) return;
    if (!enter(record, Move.StartupBlocked, { at: clock.now(), reason })) return;
    changes.commit(record);
    log.warn({ sessionId: record.id, reason }, 'session blocked');
  }

  /**
   * Relaunches a DISCONNECTED session in its pane with `claude --resume` (same id, same stream)
   * once its screen has shown the turn over, with nothing typed in the input box, on two ticks
   * running. What it did meanwhile is marked from its transcript first.
   */
  async #relaunchWhenIdle(record: SessionRecord): Promise<void> {
    const { runtime, intake, launcher, hookUrls, log } = this.#deps;
    const screen = await runtime.look(record);
    const idle = screen.inputText === '' && !screen.turnRunning;
    if (!idle || !this.#idleSeen.has(record.id)) {
      if (idle) this.#idleSeen.add(record.id);
      else this.#idleSeen.delete(record.id);
      return;
    }
    this.#idleSeen.delete(record.id);
    await intake.recordMissed(record);
    log.info(
      { sessionId: record.id, from: record.hookUrl, to: hookUrls.url },
      'relaunching a disconnected session',
    );
    await launcher
      .launch(record, true, true)
      .catch((error: unknown) =>
        log.error({ sessionId: record.id, err: error }, 'relaunch failed'),
      );
  }

  /** Schedules the restart of a crashed session, or says in its error why there is none. */
  #scheduleRestart(record: SessionRecord): void {
    const { clock, ending, launcher, log } = this.#deps;
    const policy = this.#options.restartPolicy;
    const decision = decideRestart(policy, record.restartTimes, clock.now());
    if (!decision.restart) {
      ending.finish(record, Move.Crashed, `${record.error}\n${decision.reason}`);
      return;
    }
    const cancel = clock.after(decision.delayMs, () => {
      this.#restartTimers.delete(record.id);
      if (record.status !== SessionStatus.Crashed) return;
      record.restartTimes = [...record.restartTimes, clock.now()].filter(
        (time) => clock.now() - time < policy.windowMs,
      );
      record.restartCount += 1;
      launcher
        .launch(record, true)
        .catch((error: unknown) =>
          log.error({ sessionId: record.id, err: error }, 'restart failed'),
        );
    });
    this.#restartTimers.set(record.id, cancel);
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
    if (summary.steps.some((step) => step.kind === 'prompt')) {
      await this.#deps.intake.recordMissed(record);
    }
  }
}
