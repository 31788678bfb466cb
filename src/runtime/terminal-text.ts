/**
 * Text that reaches a terminal as text: what may be pasted into claude's input without becoming a
 * key, an escape sequence or the end of the paste itself.
 */

/** Names of the C0 controls, for errors a person can read. */
const c0Names = [
  'NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'BEL', 'BS', 'TAB', 'LF', 'VT', 'FF', 'CR',
  'SO', 'SI', 'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC',
  'FS', 'GS', 'RS', 'US',
]; // prettier-ignore

/** Where a refused character is: its code point, and where a person finds it in the text. */
export interface ControlCharacter {
  readonly codePoint: number;
  /** `U+001B (ESC)` */
  readonly name: string;
  /** Index in code points from the start of the text. */
  readonly index: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Tab and line breaks (LF, CR) are text; every other C0 control, DEL, the C1 controls and lone
 * surrogates are not. ESC refused refuses every escape sequence (CSI, OSC, DCS, SS3, the
 * bracketed-paste markers) at once, and the 8-bit C1 forms of the same (U+009B CSI...) with them.
 */
function isRefused(codePoint: number): boolean {
  if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d) return false;
  return (
    codePoint < 0x20 ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff)
  );
}

function nameOf(codePoint: number): string {
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  if (codePoint < 0x20) return `${hex} (${c0Names[codePoint]})`;
  if (codePoint === 0x7f) return `${hex} (DEL)`;
  if (codePoint <= 0x9f) return `${hex} (C1 control)`;
  return `${hex} (lone surrogate)`;
}

/** The first character of the text that may not reach a terminal, or null. */
export function controlCharacterIn(text: string): ControlCharacter | null {
  let index = 0;
  let line = 1;
  let column = 1;
  // A string iterator yields a lone surrogate as its own code point.
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (isRefused(codePoint)) return { codePoint, name: nameOf(codePoint), index, line, column };
    index += 1;
    if (char === '\n') {
      line += 1;
      column = 1;
    } else {
      column += 1;
    }
  }
  return null;
}

/**
 * Throws when text holds a character that a terminal would take as a key: the last check before
 * a paste, whatever the caller checked before it.
 */
export function assertPasteable(text: string): void {
  const found = controlCharacterIn(text);
  if (found) throw new Error(`refused to paste ${found.name} at character ${found.index}`);
}
