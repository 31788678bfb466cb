import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { createLogger } from '../../src/log.js';
import { turnDialog, type ScreenDialog } from '../../src/runtime/screen.js';
import { attentionItems } from '../../src/sessions/attention.js';
import {
  answerKeys,
  dialogKeyDelayMs,
  dialogQuietMs,
  DialogWatch,
  heldByDialog,
  type DialogAnswer,
} from '../../src/sessions/dialog-watch.js';
import type { SessionRecord } from '../../src/sessions/session.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { session } from '../helpers/records.js';

/** A screen captured from claude 2.1.328 in a 200x50 tmux pane (see test/fixtures/screens). */
const screen = (name: string) =>
  readFileSync(new URL(`../fixtures/screens/${name}.txt`, import.meta.url), 'utf8');

const dialogOf = (name: string): ScreenDialog => {
  const dialog = turnDialog(screen(name));
  if (!dialog) throw new Error(`no dialog on ${name}`);
  return dialog;
};

describe('turnDialog on captured screens', () => {
  it("finds auto mode's dialog, whose only answers are keys, with its whole text", () => {
    const dialog = dialogOf('auto-mode-dialog');
    expect(dialog.text.split('\n')[0]).toBe("Auto mode can't check actions in this session");
    expect(dialog.text).toContain('You can stay in auto mode and approve each action');
    expect(dialog.text.split('\n').at(-1)).toBe(
      'Enter to stay in auto mode · shift+Tab to leave for accept edits mode and stop · Esc to cancel',
    );
    expect(dialog.text).not.toContain('❯ run:');
    expect(dialog.text).not.toMatch(/─{20}/);
    expect(dialog.choices).toEqual([]);
  });

  it('reads a list without numbers by place, the cursor on the first', () => {
    const dialog = dialogOf('auto-mode-permission');
    expect(dialog.text).toMatch(/^Bash command\nRun: ls -la \/tmp \| head -5\n/);
    expect(dialog.text).toContain('Do you want to proceed?');
    expect(dialog.choices).toEqual([
      { number: 1, label: 'No', selected: true },
      { number: 2, label: 'Yes', selected: false },
    ]);
  });

  it('reads numbered choices and where the cursor is', () => {
    const asked = dialogOf('ask-user-question');
    expect(asked.text).toMatch(/^☐ Colour\n\nWhich colour\?\n\n❯ 1\. Red\n {5}warm\n/);
    expect(asked.text.split('\n').at(-1)).toBe('Enter to select · ↑/↓ to navigate · Esc to cancel');
    expect(asked.choices).toEqual([
      { number: 1, label: 'Red', selected: true },
      { number: 2, label: 'Blue', selected: false },
      { number: 3, label: 'Type something.', selected: false },
      { number: 4, label: 'Chat about this', selected: false },
    ]);
    expect(dialogOf('ask-user-question-moved').choices.map((c) => c.selected)).toEqual([
      false,
      true,
      false,
      false,
    ]);
    expect(dialogOf('permission-dialog').choices.map((c) => [c.number, c.label])).toEqual([
      [1, 'Yes'],
      [2, 'Yes, and always allow access to /var/tmp from this project'],
      [3, 'Yes, and switch to auto mode · auto mode handles these prompts for you'],
      [4, 'No'],
    ]);
  });

  it.each(['turn-waiting-for-model', 'tool-running', 'idle', 'turn-over', 'dialog-cancelled'])(
    'sees no dialog on %s',
    (name) => {
      expect(turnDialog(screen(name))).toBeNull();
    },
  );

  it('takes choices typed into the input box, or shown in the conversation, for no dialog', () => {
    const idle = screen('idle');
    const typed = idle.replace(/^❯\u00a0$/m, '❯\u00a01. Yes, Enter to confirm');
    expect(typed).not.toBe(idle);
    expect(turnDialog(typed)).toBeNull();
    const rule = '─'.repeat(40);
    expect(
      turnDialog(`❯ 1. Yes\nEsc to cancel\n${rule}\n❯ \n${rule}\n  ? for shortcuts`),
    ).toBeNull();
    expect(turnDialog(`${rule}\n ❯ 1. Yes\n   2. No\n\n  ⏸ esc to interrupt`)).toBeNull();
  });

  it('finds a dialog it has never seen by its hint alone', () => {
    const rule = '─'.repeat(40);
    const dialog = turnDialog(
      `● Something happened\n\n${rule}\n  A brand new question?\n\n  Space to pick · Esc to go back\n`,
    );
    expect(dialog).toEqual({
      text: 'A brand new question?\n\nSpace to pick · Esc to go back',
      choices: [],
    });
  });
});

describe('answerKeys', () => {
  const keys = (name: string, answer: DialogAnswer) => answerKeys(dialogOf(name), answer);

  it('moves the cursor to the option, then presses Enter', () => {
    expect(keys('ask-user-question', { option: 2 })).toEqual(['Down', 'Enter']);
    expect(keys('ask-user-question', { option: 4 })).toEqual(['Down', 'Down', 'Down', 'Enter']);
    expect(keys('ask-user-question-moved', { option: 1 })).toEqual(['Up', 'Enter']);
    expect(keys('auto-mode-permission', { option: 1 })).toEqual(['Enter']);
    expect(keys('auto-mode-permission', { option: 2 })).toEqual(['Down', 'Enter']);
  });

  it('presses a key as it is', () => {
    expect(keys('auto-mode-dialog', { key: 'Enter' })).toEqual(['Enter']);
    expect(keys('auto-mode-dialog', { key: 'ShiftTab' })).toEqual(['ShiftTab']);
  });

  it('refuses an option the dialog does not offer, saying which it does', () => {
    expect(() => keys('auto-mode-permission', { option: 3 })).toThrow(
      'option must be one of 1 (No), 2 (Yes), got 3 (number)',
    );
    expect(() => keys('auto-mode-dialog', { option: 1 })).toThrow(
      'the dialog offers no list to choose from, only keys: Enter to stay in auto mode',
    );
    expect(() => keys('auto-mode-dialog', { key: 'C-c' } as unknown as DialogAnswer)).toThrow(
      /key must be one of Enter, Escape, .* got "C-c" \(string\)/,
    );
  });
});

/** A runtime that shows the screen the test sets, and records the keys pressed. */
function watchOf(options: { pending?: boolean; shows?: (keys: string[][]) => string } = {}) {
  const clock = new FakeClock();
  const pressed: string[][] = [];
  const state = {
    screen: screen('turn-waiting-for-model'),
    reads: 0,
    commits: 0,
    interrupted: 0,
    /** When each key was pressed. */
    pressedAt: [] as number[],
  };
  const watch = new DialogWatch({
    runtime: {
      screen: async () => {
        state.reads += 1;
        return options.shows?.(pressed) ?? state.screen;
      },
      keys: async (_record, names) => {
        pressed.push([...names]);
        state.pressedAt.push(clock.now());
      },
    },
    awaitingPermission: () => options.pending ?? false,
    commit: () => void (state.commits += 1),
    turnInterrupted: async () => void (state.interrupted += 1),
    clock,
    log: createLogger('silent'),
  });
  const record = session('s1', 'BUSY', clock.now());
  record.lastEventAt = clock.now();
  return { clock, pressed, state, watch, record };
}

const event = (eventName: string, receivedAt: number): StoredEvent =>
  ({ sessionId: 's1', seq: 9, eventName, receivedAt, raw: '{}', payload: {} }) as StoredEvent;

/** Answers each sleep of the watch at once, so a test need not move the clock by hand. */
async function settled<T>(clock: FakeClock, work: Promise<T>): Promise<T> {
  let done = false;
  const result = work.finally(() => (done = true));
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(50);
  }
  return result;
}

describe('DialogWatch', () => {
  it('blocks a BUSY turn on a dialog once no hook event came for a while, and not before', async () => {
    const { clock, state, watch, record } = watchOf();
    state.screen = screen('auto-mode-dialog');
    clock.advance(dialogQuietMs - 1);
    await watch.check(record);
    expect(state.reads).toBe(0);
    clock.advance(1);
    await watch.check(record);
    expect(record).toMatchObject({ status: 'BLOCKED', blockedReason: 'DIALOG' });
    expect(record.error).toBe(turnDialog(state.screen)!.text);
    expect(record.statusSince).toBe(clock.now());
    expect(state.commits).toBe(1);
    // Reads are spaced; the same dialog changes nothing.
    await watch.check(record);
    expect(state.reads).toBe(1);
    clock.advance(1000);
    await watch.check(record);
    expect([state.reads, state.commits]).toEqual([2, 1]);
  });

  it('leaves a running turn, an idle session, a headless one and a pending permission alone', async () => {
    const running = watchOf();
    running.clock.advance(60_000);
    await running.watch.check(running.record);
    expect([running.state.reads, running.record.status]).toEqual([1, 'BUSY']);

    const idle = watchOf();
    idle.record.status = 'IDLE';
    idle.state.screen = screen('auto-mode-dialog');
    idle.clock.advance(60_000);
    await idle.watch.check(idle.record);
    expect(idle.state.reads).toBe(0);

    const headless = watchOf();
    (headless.record as { runtime: string }).runtime = 'HEADLESS';
    headless.clock.advance(60_000);
    await headless.watch.check(headless.record);
    expect(headless.state.reads).toBe(0);

    const asking = watchOf({ pending: true });
    asking.state.screen = screen('permission-dialog');
    asking.clock.advance(60_000);
    await asking.watch.check(asking.record);
    expect([asking.state.reads, asking.record.status]).toEqual([0, 'BUSY']);
  });

  it('does not block on a screen read before a hook event that came meanwhile', async () => {
    const { clock, watch, record } = watchOf({
      shows: () => {
        record.lastEventAt = clock.now() + 1;
        return screen('auto-mode-dialog');
      },
    });
    clock.advance(dialogQuietMs);
    await watch.check(record);
    expect(record.status).toBe('BUSY');
  });

  it('lets the turn go on at a hook event, but not at a Notification or an event of the hub', async () => {
    const { clock, state, watch, record } = watchOf();
    state.screen = screen('auto-mode-dialog');
    clock.advance(dialogQuietMs);
    await watch.check(record);
    expect(watch.eventCame(record, event('Notification', clock.now()))).toBe(false);
    expect(watch.eventCame(record, event('HubPermissionResolved', clock.now()))).toBe(false);
    expect(heldByDialog(record)).toBe(true);
    expect(watch.eventCame(record, event('PreToolUse', clock.now()))).toBe(true);
    expect(record).toMatchObject({ status: 'BUSY', blockedReason: null, error: null });
    // What the transcript showed while the hub was down counts as the turn going on.
    clock.advance(dialogQuietMs);
    await watch.check(record);
    expect(watch.eventCame(record, event('HubEventsMissed', clock.now()))).toBe(true);
    expect(record).toMatchObject({ status: 'BUSY', error: null });
  });

  it('follows the dialog: a new one replaces the text, none lets the turn go on', async () => {
    const { clock, state, watch, record } = watchOf();
    state.screen = screen('auto-mode-dialog');
    clock.advance(dialogQuietMs);
    await watch.check(record);
    const since = record.statusSince;
    state.screen = screen('auto-mode-permission');
    clock.advance(1000);
    await watch.check(record);
    expect(record.error).toMatch(/^Bash command\n/);
    expect(record.statusSince).toBe(since);
    state.screen = screen('tool-running');
    clock.advance(1000);
    await watch.check(record);
    expect(record).toMatchObject({ status: 'BUSY', error: null });
    expect(state.commits).toBe(3);
  });

  it('ends a turn whose dialog went with it (Esc) once its screen shows it over twice', async () => {
    const { clock, state, watch, record } = watchOf();
    state.screen = screen('auto-mode-dialog');
    clock.advance(dialogQuietMs);
    await watch.check(record);
    state.screen = screen('dialog-cancelled');
    clock.advance(1000);
    await watch.check(record);
    expect([record.status, state.interrupted]).toEqual(['BUSY', 0]);
    clock.advance(1000);
    await watch.check(record);
    expect(state.interrupted).toBe(1);
    // A turn that showed itself running again after its dialog is not ended.
    const other = watchOf();
    other.state.screen = screen('auto-mode-dialog');
    other.clock.advance(dialogQuietMs);
    await other.watch.check(other.record);
    for (const name of ['turn-waiting-for-model', 'turn-over', 'turn-over']) {
      other.state.screen = screen(name);
      other.clock.advance(1000);
      await other.watch.check(other.record);
    }
    expect(other.state.interrupted).toBe(0);
  });

  it('answers with the keys of the choice, then reads the screen again once Enter took', async () => {
    const { clock, pressed, state, watch, record } = watchOf({
      shows: (keys) => {
        const last = keys.at(-1)?.[0];
        if (last === 'Enter') return screen('tool-running');
        return screen(last === 'Down' ? 'ask-user-question-moved' : 'ask-user-question');
      },
    });
    clock.advance(dialogQuietMs);
    await watch.check(record);
    expect(heldByDialog(record)).toBe(true);
    const drawnAt = clock.now();
    await settled(clock, watch.answer(record, { option: 2 }));
    expect(pressed).toEqual([['Down'], ['Enter']]);
    // A dialog drops keys pressed as it appears: the first waits until it was drawn a while.
    expect(state.pressedAt[0]).toBe(drawnAt + dialogKeyDelayMs);
    expect(record).toMatchObject({ status: 'BUSY', error: null });
  });

  it('refuses to answer a screen without a dialog', async () => {
    const { watch, record, pressed } = watchOf();
    await expect(watch.answer(record, { key: 'Enter' })).rejects.toMatchObject({
      message: 'session s1 shows no dialog to answer',
      extensions: { code: 'NO_DIALOG', sessionId: 's1' },
    });
    expect(pressed).toEqual([]);
  });
});

describe('attention for a turn held by a dialog', () => {
  it("carries the dialog's text; a blocked start carries none", () => {
    const held = session('held', 'BLOCKED', 10) as SessionRecord;
    Object.assign(held, { blockedReason: 'DIALOG', error: 'Do you want to proceed?' });
    const start = session('start', 'BLOCKED', 5) as SessionRecord;
    start.blockedReason = 'WORKSPACE_TRUST';
    const items = attentionItems([held, start], () => []);
    expect(items.map((item) => [item.session.id, item.reason, item.dialog])).toEqual([
      ['start', 'BLOCKED', null],
      ['held', 'BLOCKED', 'Do you want to proceed?'],
    ]);
  });
});
