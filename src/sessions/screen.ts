/**
 * What the claude TUI's screen looks like, as seen with @anthropic-ai/claude-code 2.1.328.
 * Screen text is the last resort for facts (hook events come first): it is used only to know
 * when the input box can take typing, and to show a person what a stuck session shows.
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
