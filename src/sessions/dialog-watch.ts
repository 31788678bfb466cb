import type { Clock } from '../clock.js';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import type { StoredEvent } from '../events/hook-event.js';
import { isHubEvent } from '../events/registry.js';
import type { Logger } from '../log.js';
import { inputReady, turnDialog, turnRunning, type ScreenDialog } from '../runtime/screen.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import { isExternal } from './external-session.js';
import { hasTerminal, SessionStatus, type SessionRecord } from './session.js';
import { enter, Move } from './session-lifecycle.js';

/** The blockedReason of a session whose turn waits on a dialog (startup dialogs name their own). */
export const dialogBlock = 'DIALOG';

/**
 * How long a BUSY session goes without a hook event before its screen is read for a dialog.
 * A turn that works fires hooks; one that waits on the model or a long tool shows its input
 * box and "esc to interrupt", so a read then finds no dialog and costs one capture.
 */
export const dialogQuietMs = 3_000;
/** The least time between two reads of one session's screen for a dialog. */
export const dialogReadEveryMs = 1_000;
/** How long answerDialog waits for the dialog to change after its keys. */
export const answerSettleMs = 2_000;
/** How long a dialog must have been drawn before keys reach it: it drops keys pressed earlier. */
export const dialogKeyDelayMs = 700;
/** The longest answerDialog waits by design, its keys aside. */
export const answerWaitMs = dialogKeyDelayMs + answerSettleMs;
/** The most of a dialog's text kept (Session.error); longer text is cut and ends with `…`. */
export const dialogTextLimit = 4_000;

/** Keys a dialog may be answered with, by the names the runtimes press. */
export const dialogKeys = [
  'Enter',
  'Escape',
  'Tab',
  'ShiftTab',
  'Up',
  'Down',
  'Left',
  'Right',
  'Space',
] as const;
export type DialogKey = (typeof dialogKeys)[number];

/** How answerDialog answers: a choice of the dialog's list, or one key its hint names. */
export type DialogAnswer = { readonly option: number } | { readonly key: DialogKey };

/** True while the session's turn waits on a dialog the hub found on its screen. */
export function heldByDialog(record: Pick<SessionRecord, 'status' | 'blockedReason'>): boolean {
  return record.status === SessionStatus.Blocked && record.blockedReason === dialogBlock;
}

/** A turn runs: BUSY, or held by a dialog in its middle. */
export function inTurn(record: Pick<SessionRecord, 'status' | 'blockedReason'>): boolean {
  return record.status === SessionStatus.Busy || heldByDialog(record);
}

/**
 * The keys that give the answer: for an option, the cursor moved to it with Up or Down, then
 * Enter (numbers pick at once in some of claude's lists and not in others; arrows work in all).
 */
export function answerKeys(dialog: ScreenDialog, answer: DialogAnswer): DialogKey[] {
  if ('key' in answer) {
    if (dialogKeys.includes(answer.key)) return [answer.key];
    throw new HubError(
      ErrorCode.BadInput,
      `key must be one of ${dialogKeys.join(', ')}, got ${describeValue(answer.key)}`,
    );
  }
  const target = dialog.choices.findIndex((choice) => choice.number === answer.option);
  if (target < 0) {
    const offered = dialog.choices.map((choice) => `${choice.number} (${choice.label})`);
    throw new HubError(
      ErrorCode.BadInput,
      offered.length > 0
        ? `option must be one of ${offered.join(', ')}, got ${describeValue(answer.option)}`
        : `the dialog offers no list to choose from, only keys: ${lastLine(dialog.text)}`,
    );
  }
  const at = Math.max(
    0,
    dialog.choices.findIndex((choice) => choice.selected),
  );
  const move: DialogKey = target > at ? 'Down' : 'Up';
  return [...Array<DialogKey>(Math.abs(target - at)).fill(move), 'Enter'];
}

/** A dialog's text wherever its cursor is: the keys of an answer move the cursor first. */
function shapeOf(dialog: ScreenDialog): string {
  return dialog.text.replaceAll('❯', ' ');
}

function lastLine(text: string): string {
  return text.slice(text.lastIndexOf('\n') + 1);
}

function bounded(text: string): string {
  return text.length > dialogTextLimit ? `${text.slice(0, dialogTextLimit - 1)}…` : text;
}

export interface DialogWatchDeps {
  readonly runtime: Pick<SessionRuntime, 'screen' | 'keys'>;
  /** Whether a permission request of the session waits: the dialog on screen is the hub's own. */
  readonly awaitingPermission: (id: string) => boolean;
  /** Saves, publishes and wakes the waiters of a session the watch changed. */
  readonly commit: (record: SessionRecord) => void;
  /** The turn is over without a Stop (the dialog's Esc interrupted it): end it as interrupted. */
  readonly turnInterrupted: (record: SessionRecord) => Promise<void>;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * Notices a turn that waits on a dialog, which no hook reports: a BUSY session without a hook
 * event for dialogQuietMs whose screen shows one (see turnDialog) becomes BLOCKED with
 * blockedReason DIALOG and the dialog's text as its error. It is BUSY again once a hook event
 * comes or the dialog is gone; when the dialog went and its turn with it (Esc), claude fires no
 * Stop, so a screen showing the turn over on two reads running ends the turn as interrupted.
 * A session with a pending permission request is left alone: that dialog is the hub's.
 */
export class DialogWatch {
  readonly #deps: DialogWatchDeps;
  /** When each session's screen was last read for a dialog. */
  readonly #readAt = new Map<string, number>();
  /**
   * Sessions whose dialog went without a hook event since: whether their screen showed the
   * turn over on the last read.
   */
  readonly #released = new Map<string, boolean>();
  /** The dialog each session's screen showed on its last read, and since when. */
  readonly #drawn = new Map<string, { readonly shape: string; readonly at: number }>();

  constructor(deps: DialogWatchDeps) {
    this.#deps = deps;
  }

  /** On each poll tick, for a running session with a terminal; reads its screen only when due. */
  async check(record: SessionRecord, force = false): Promise<void> {
    const { clock } = this.#deps;
    const now = clock.now();
    if (!force && now - (this.#readAt.get(record.id) ?? 0) < dialogReadEveryMs) return;
    if (!force && !this.#due(record, now)) return;
    this.#readAt.set(record.id, now);
    const before = { status: record.status, eventAt: record.lastEventAt };
    let screen: string;
    try {
      screen = await this.#deps.runtime.screen(record);
    } catch (error) {
      this.#deps.log.debug({ sessionId: record.id, err: error }, 'screen not read for a dialog');
      return;
    }
    // A hook event or another change while the screen was read says more than the screen.
    if (record.status !== before.status || record.lastEventAt !== before.eventAt) return;
    const dialog = turnDialog(screen);
    if (dialog) {
      this.#drawnAt(record, dialog);
      this.#hold(record, dialog);
    } else {
      this.#drawn.delete(record.id);
      await this.#gone(record, screen);
    }
  }

  /**
   * A hook event came: a turn held by a dialog goes on (BUSY). Notification events do not
   * count (claude sends them about the dialog itself), nor do the hub's own but HubEventsMissed
   * (the transcript went on while the hub was down). Returns whether the record changed.
   */
  eventCame(record: SessionRecord, event: StoredEvent): boolean {
    const name = event.eventName;
    if (name === 'Notification' || (isHubEvent(name) && name !== 'HubEventsMissed')) return false;
    this.#released.delete(record.id);
    if (!heldByDialog(record)) return false;
    this.#release(record, event.receivedAt);
    return true;
  }

  /**
   * Answers the dialog on the session's screen with the keys for `answer`, then reads the screen
   * again once it changed (or after answerSettleMs), so the status returned is the new one.
   */
  async answer(record: SessionRecord, answer: DialogAnswer): Promise<void> {
    const { runtime, clock } = this.#deps;
    const dialog = turnDialog(await runtime.screen(record));
    if (!dialog) {
      throw new HubError(ErrorCode.NoDialog, `session ${record.id} shows no dialog to answer`, {
        sessionId: record.id,
      });
    }
    const keys = answerKeys(dialog, answer);
    const drawnFor = clock.now() - this.#drawnAt(record, dialog);
    if (drawnFor < dialogKeyDelayMs) await clock.sleep(dialogKeyDelayMs - drawnFor);
    for (const key of keys) {
      await runtime.keys(record, [key]);
      await clock.sleep(50); // one key per read: the TUI may take a burst as one key
    }
    const deadline = clock.now() + answerSettleMs;
    while (clock.now() < deadline) {
      const now = turnDialog(await runtime.screen(record));
      if (!now || shapeOf(now) !== shapeOf(dialog)) break;
      await clock.sleep(100);
    }
    await this.check(record, true);
  }

  /** Drops what the watch knew of a session that ended. */
  forget(id: string): void {
    this.#readAt.delete(id);
    this.#released.delete(id);
    this.#drawn.delete(id);
  }

  /** Since when the screen has shown this dialog, as far as the watch has seen. */
  #drawnAt(record: SessionRecord, dialog: ScreenDialog): number {
    const shape = shapeOf(dialog);
    const seen = this.#drawn.get(record.id);
    if (seen?.shape === shape) return seen.at;
    const at = this.#deps.clock.now();
    this.#drawn.set(record.id, { shape, at });
    return at;
  }

  /** Whether the session's screen is worth a read now. */
  #due(record: SessionRecord, now: number): boolean {
    if (!hasTerminal(record) || (isExternal(record) && !record.pane)) return false;
    if (heldByDialog(record)) return true;
    if (record.status !== SessionStatus.Busy) return false;
    if (this.#released.has(record.id)) return true;
    const quietSince = Math.max(record.lastEventAt ?? 0, record.statusSince);
    return now - quietSince >= dialogQuietMs && !this.#deps.awaitingPermission(record.id);
  }

  /** BLOCKED on the dialog; a held session whose dialog changed gets the new text. */
  #hold(record: SessionRecord, dialog: ScreenDialog): void {
    if (!inTurn(record) || this.#deps.awaitingPermission(record.id)) return;
    const error = bounded(dialog.text);
    if (heldByDialog(record) && record.error === error) return;
    if (!heldByDialog(record)) {
      enter(record, Move.DialogShown, { at: this.#deps.clock.now(), reason: dialogBlock, error });
      this.#deps.log.warn({ sessionId: record.id }, 'turn blocked on a dialog');
    }
    this.#released.delete(record.id);
    record.error = error; // a held dialog whose text changed
    this.#deps.commit(record);
  }

  /** No dialog: a held turn goes on; a released one whose screen shows it over twice ended. */
  async #gone(record: SessionRecord, screen: string): Promise<void> {
    if (heldByDialog(record)) {
      this.#release(record, this.#deps.clock.now());
      this.#released.set(record.id, false);
      this.#deps.commit(record);
    }
    if (!this.#released.has(record.id) || record.status !== SessionStatus.Busy) return;
    if (turnRunning(screen)) {
      this.#released.delete(record.id);
    } else if (inputReady(screen)) {
      if (!this.#released.get(record.id)) {
        this.#released.set(record.id, true);
        return;
      }
      this.#released.delete(record.id);
      await this.#deps.turnInterrupted(record);
    }
  }

  #release(record: SessionRecord, at: number): void {
    enter(record, Move.DialogAnswered, { at });
    this.#deps.log.info({ sessionId: record.id }, 'dialog answered; the turn goes on');
  }
}
