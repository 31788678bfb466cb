import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, HubError } from '../errors.js';
import { inputBoxText, inputReady, startupDialog, turnRunning } from './screen.js';
import { mayOpenAMode, placeholderBreaks, readsAsCommand, type InputMode } from './prompt-input.js';
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
   * Types the text for `mode`, then waits until claude shows it in its input box (or settleMs):
   * an Enter that claude reads together with the paste is taken as part of it.
   *
   * A prompt that does not start with a letter or digit never reaches the box first: a space is
   * pasted and the cursor put before it, so the box is not empty when the text arrives (an `!`
   * typed into an empty box switches it to bash mode), then the space is deleted. A prompt claude would still act on when submitted (a
   * leading `/`, an exit word) goes in as one placeholder paste instead, whose text claude hands
   * the model inside `<pasted_content>` tags. A shell line is typed after the `!` of bash mode.
   */
  async type(pane: Pane, text: string, mode: InputMode, settleMs: number): Promise<void> {
    if (mode === 'prompt' && readsAsCommand(text)) {
      await pane.paste(`${text}${placeholderBreaks}`, true);
    } else if (mode === 'prompt' && mayOpenAMode(text)) {
      await pane.pastePrompt(text);
    } else {
      if (mode === 'shell') await pane.sendKeys(['-l', '!']);
      await pane.paste(text);
    }
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
