import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, HubError } from '../errors.js';
import { inputBoxText, inputReady, startupDialog, turnRunning } from './screen.js';
import type { ScreenState } from './session-runtime.js';
import type { Pane } from './tmux-pane.js';

/** Keys sendKeys may press, by the names clients use, as tmux names them. */
export const allowedKeys = new Map<string, string>([
  ['Enter', 'Enter'],
  ['Escape', 'Escape'],
  ['Up', 'Up'],
  ['Down', 'Down'],
  ['Left', 'Left'],
  ['Right', 'Right'],
  ['Tab', 'Tab'],
  ['ShiftTab', 'BTab'],
  ['Space', 'Space'],
  ['Backspace', 'BSpace'],
  ['y', 'y'],
  ['n', 'n'],
  ...[...'0123456789'].map((digit): [string, string] => [digit, digit]),
]);

/**
 * claude's interactive screen in a tmux pane, read and typed into the same way wherever the pane
 * is: in the hub's own tmux server or in a person's.
 */
export const claudePane = {
  async look(pane: Pane): Promise<ScreenState> {
    const screen = await pane.capture();
    return {
      dialog: startupDialog(screen),
      inputText: inputBoxText(screen),
      turnRunning: turnRunning(screen),
    };
  },

  /** SessionStart fires before the TUI draws its input box; keys sent earlier are lost. */
  async waitForInput(
    pane: Pane,
    id: string,
    timeoutMs: number,
    running: () => boolean,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!inputReady(await pane.capture())) {
      if (Date.now() > deadline || !running()) {
        throw new HubError(
          ErrorCode.SessionNotRunning,
          `session ${id} never showed its input box`,
          {
            sessionId: id,
          },
        );
      }
      await sleep(100);
    }
  },

  /**
   * Pastes, then waits until claude shows the paste in its input box (or settleMs): an Enter
   * that claude reads together with the paste is taken as part of it.
   */
  async type(pane: Pane, text: string, settleMs: number): Promise<void> {
    await pane.paste(text);
    const deadline = Date.now() + settleMs;
    while (Date.now() < deadline) {
      if (inputBoxText(await pane.capture())) return;
      await sleep(10);
    }
  },

  keys(pane: Pane, names: readonly string[]): Promise<void> {
    return pane.sendKeys(names.map((name) => allowedKeys.get(name) ?? name));
  },

  /**
   * Escape, as a person would. The turn is over when the screen stops offering "esc to
   * interrupt"; claude then puts the prompt back in the input box a moment later, and one
   * Ctrl-C clears it (a second, on an empty box, would exit claude).
   */
  async interrupt(pane: Pane, timeoutMs: number): Promise<boolean> {
    await pane.sendKeys(['Escape']);
    const deadline = Date.now() + timeoutMs;
    let screen = await pane.capture();
    while (turnRunning(screen) && Date.now() < deadline) {
      await sleep(100);
      screen = await pane.capture();
    }
    if (turnRunning(screen)) return false;
    for (let i = 0; i < 10; i++) {
      if (inputBoxText(await pane.capture())) {
        await pane.sendKeys(['C-c']);
        break;
      }
      await sleep(100);
    }
    return true;
  },
};
