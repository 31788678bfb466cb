/**
 * What the claude TUI's screen looks like, as seen with @anthropic-ai/claude-code 2.1.328.
 * Screen text is the last resort for facts (hook events come first): it says when the input box
 * can take typing and what it holds, whether a turn still runs, and which startup dialog holds
 * a session. A test runs these patterns against the real CLI, so a changed UI is caught.
 */
export const screenSeenWithCliVersion = '2.1.328';

/** The input box: a `❯` prompt line just below a horizontal rule. */
const inputBox = /^─{20,}\s*\n❯/m;

/** True when the input box is drawn, so pasted text reaches it rather than being lost. */
export function inputReady(screen: string): boolean {
  return inputBox.test(screen);
}

/** Startup dialogs that hold claude before its SessionStart, and how to tell them apart. */
export const startupDialogs = [
  {
    reason: 'WORKSPACE_TRUST',
    pattern: /Accessing workspace:[\s\S]*Yes, I trust this folder/,
  },
  {
    reason: 'API_KEY',
    pattern: /Detected a custom API key/,
  },
] as const;

/** Which startup dialog the screen shows, if any. */
export function startupDialog(screen: string): string | null {
  return startupDialogs.find((dialog) => dialog.pattern.test(screen))?.reason ?? null;
}

/**
 * The text in the input box, or null when no input box is drawn. Continuation lines are
 * indented by two spaces under the `❯ ` prompt.
 */
export function inputBoxText(screen: string): string | null {
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    if (!/^[❯!]/.test(lines[i]!) || !/^─{20,}/.test(lines[i - 1]!)) continue;
    const box = [lines[i]!.slice(1)];
    for (let j = i + 1; j < lines.length && !/^─{20,}/.test(lines[j]!); j++) box.push(lines[j]!);
    return box
      .map((line) => line.replace(/^ {1,2}/, ''))
      .join('\n')
      .trim();
  }
  return null;
}

/** While a turn runs, the footer offers to interrupt it. */
export function turnRunning(screen: string): boolean {
  return /esc to interrupt/.test(screen);
}

/** One choice of a dialog's list, as drawn. */
export interface DialogChoice {
  /** Its number on screen (`2. Blue`); for an unnumbered list, its place from the top (1 first). */
  readonly number: number;
  readonly label: string;
  /** The `❯` cursor is on it: Enter picks it. */
  readonly selected: boolean;
}

/** A dialog claude waits on in the middle of a turn, as its screen shows it. */
export interface ScreenDialog {
  /** Its text, from its top rule down: rules dropped, blank runs made one, common indent cut. */
  readonly text: string;
  /** Its list of choices, top to bottom; empty when it offers keys only ("Enter to ..."). */
  readonly choices: readonly DialogChoice[];
}

/**
 * The input box as claude draws it when it takes typing: a rule, then its `❯` prompt (followed
 * by a no-break space, unlike a dialog's cursor) or the `!` of bash mode.
 */
const typingBox = /^─{20,}\s*\n(?:❯\u00a0|[❯!](?!\s*\d+\.\s))/m;
/** A key hint at a line's start or after a `·`: "Enter to select · ↑/↓ to navigate · Esc to cancel". */
const keyHint = /(?:^|·)\s*(?:Enter|Esc|Tab|shift\+Tab|Space)\s+to\s+\S/i;
/** The cursor on a numbered choice: `❯ 1. Yes`. */
const numberedCursor = /^\s*❯\s*\d+\.\s+\S/;
const solidRule = /^─{20,}$/;
const anyRule = /^[─╌]{20,}$/;
/** Lines of the conversation above a dialog: a message or tool line, a prompt, a turn's summary. */
const conversationLine = /^(?:[●✻▎]|❯ (?!\s*\d+\.\s))/;
const numberedChoice = /^\s*(❯\s*)?(\d+)\.\s+(\S.*)$/;
const cursorChoice = /^(\s*)❯\s+(\S.*)$/;

/**
 * The dialog a turn waits on, or null. Generic, so a dialog the hub has never seen is found too:
 * claude hides its input box and its "esc to interrupt" footer while any dialog holds the turn,
 * and every dialog it draws ends with a key hint ("Enter to ...", "Esc to cancel") or puts its
 * cursor on a numbered choice. The dialog starts at the topmost rule below the conversation.
 * A screen without one of these marks, or with the input box or a running turn's footer, is no
 * dialog; the caller adds what the screen cannot say (no hook event for a while, see DialogWatch).
 */
export function turnDialog(screen: string): ScreenDialog | null {
  if (typingBox.test(screen) || turnRunning(screen)) return null;
  const lines = screen.split('\n').map((line) => line.trimEnd());
  let anchor = lines.length - 1;
  while (anchor >= 0 && !keyHint.test(lines[anchor]!) && !numberedCursor.test(lines[anchor]!)) {
    anchor -= 1;
  }
  if (anchor < 0) return null;
  let top = -1;
  let start = 0;
  for (let i = anchor; i >= 0; i--) {
    if (solidRule.test(lines[i]!)) top = i;
    else if (conversationLine.test(lines[i]!)) {
      start = i + 1;
      break;
    }
  }
  const body = lines.slice(top >= 0 ? top : start).filter((line) => !anyRule.test(line));
  return { text: dialogText(body), choices: dialogChoices(body) };
}

/** Lines as one text: blank runs made one, the common indent cut, blank ends dropped. */
function dialogText(lines: readonly string[]): string {
  const kept = lines.filter((line, i) => line !== '' || (i > 0 && lines[i - 1] !== ''));
  const indent = Math.min(
    ...kept.filter((line) => line !== '').map((line) => /^ */.exec(line)![0].length),
  );
  return kept
    .map((line) => line.slice(indent))
    .join('\n')
    .trim();
}

/**
 * The numbered choices when there are any; otherwise the list the cursor is on: the lines next
 * to it, without a blank between, whose text starts where the cursor line's does.
 */
function dialogChoices(lines: readonly string[]): DialogChoice[] {
  const numbered = lines.flatMap((line) => {
    const match = numberedChoice.exec(line);
    return match
      ? [{ number: Number(match[2]), label: match[3]!.trim(), selected: match[1] !== undefined }]
      : [];
  });
  if (numbered.length > 0) return numbered;
  const at = lines.findIndex((line) => cursorChoice.test(line));
  if (at < 0) return [];
  const label = cursorChoice.exec(lines[at]!)![2]!;
  const column = lines[at]!.length - label.length;
  const sibling = (line: string | undefined) =>
    line !== undefined &&
    line.length > column &&
    line.slice(0, column).trim() === '' &&
    line[column] !== ' ';
  let first = at;
  while (sibling(lines[first - 1])) first -= 1;
  let last = at;
  while (sibling(lines[last + 1])) last += 1;
  return lines.slice(first, last + 1).map((line, i) => ({
    number: i + 1,
    label: line.slice(column).trim(),
    selected: first + i === at,
  }));
}
