/**
 * A terminal's whole state as one write: what a browser terminal (xterm.js) is given first, and
 * again whenever it cannot follow the output any more. Pure: the tmux commands that read the
 * pane, and the bytes that repaint it from their answers.
 */

/** What tmux says about a pane besides its text: size, cursor and the modes its program set. */
export interface PaneView {
  /** tmux's pane id, e.g. `%3`. */
  readonly pane: string;
  readonly cols: number;
  readonly rows: number;
  readonly cursorX: number;
  readonly cursorY: number;
  readonly cursorVisible: boolean;
  /** DECCKM: arrows send `ESC O A` instead of `ESC [ A`. */
  readonly cursorKeys: boolean;
  /** DECKPAM: the keypad sends application sequences. */
  readonly keypad: boolean;
  /** The program draws on the alternate screen (no scrollback). */
  readonly alternate: boolean;
  /** The mouse reporting modes the program asked for, as DECSET numbers (1000, 1002, 1003, 1006). */
  readonly mouseModes: readonly number[];
}

const viewFormat = [
  '#{pane_id}',
  '#{pane_width}',
  '#{pane_height}',
  '#{cursor_x}',
  '#{cursor_y}',
  '#{cursor_flag}',
  '#{keypad_cursor_flag}',
  '#{keypad_flag}',
  '#{alternate_on}',
  '#{mouse_standard_flag}',
  '#{mouse_button_flag}',
  '#{mouse_any_flag}',
  '#{mouse_sgr_flag}',
].join(' ');

/**
 * The two commands, on one control-mode line, that read a pane at one instant: tmux runs them
 * back to back, and orders their replies after every `%output` already drawn and before every
 * one drawn after. `scrollback` lines of history come before the screen.
 */
export function snapshotCommand(target: string, scrollback: number): string {
  return `display-message -p -t ${target} '${viewFormat}' ; capture-pane -p -e -S ${-scrollback} -t ${target}`;
}

/** The display-message line of snapshotCommand; null when it is not one. */
export function parsePaneView(line: string): PaneView | null {
  const fields = line.trim().split(' ');
  const [pane, ...numbers] = fields;
  if (!pane?.startsWith('%') || numbers.length !== 12) return null;
  const values = numbers.map(Number);
  if (values.some((value) => !Number.isInteger(value) || value < 0)) return null;
  const [cols, rows, cursorX, cursorY, cursor, cursorKeys, keypad, alternate, ...mouse] = values;
  return {
    pane,
    cols: cols!,
    rows: rows!,
    cursorX: cursorX!,
    cursorY: cursorY!,
    cursorVisible: cursor === 1,
    cursorKeys: cursorKeys === 1,
    keypad: keypad === 1,
    alternate: alternate === 1,
    mouseModes: [1000, 1002, 1003, 1006].filter((_mode, i) => mouse[i] === 1),
  };
}

const esc = '\x1b';

/**
 * Bytes that repaint a terminal of the pane's size from anything to the pane as it is: reset
 * attributes and modes, clear screen and scrollback, the history then the screen line by line
 * (colours as capture-pane -e gives them), then the cursor and the modes the program set. On
 * the alternate screen only the screen is drawn, as that screen has no history.
 */
export function snapshotData(view: PaneView, lines: readonly string[]): string {
  const shown = view.alternate ? lines.slice(-view.rows) : lines;
  const mouseOff = [1000, 1002, 1003, 1006].map((mode) => `${esc}[?${mode}l`).join('');
  return (
    `${esc}[0m${esc}[?1049l${esc}[H${esc}[2J${esc}[3J${mouseOff}` +
    (view.alternate ? `${esc}[?1049h${esc}[H${esc}[2J` : '') +
    shown.join(`${esc}[0m\r\n`) +
    `${esc}[0m${esc}[${view.cursorY + 1};${view.cursorX + 1}H` +
    `${esc}[?25${view.cursorVisible ? 'h' : 'l'}` +
    `${esc}[?1${view.cursorKeys ? 'h' : 'l'}` +
    (view.keypad ? `${esc}=` : `${esc}>`) +
    view.mouseModes.map((mode) => `${esc}[?${mode}h`).join('')
  );
}
