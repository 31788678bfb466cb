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
