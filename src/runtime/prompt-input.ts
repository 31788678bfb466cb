/**
 * How claude's input takes typed text, and how the hub keeps it from acting on a prompt: facts of
 * the CLI (2.1.328-2.1.332) read from its input box and checked against it.
 */

/**
 * What typed text is for: `prompt` reaches the model as text and nothing else; `command` is a
 * slash command line claude runs; `shell` is a line for claude's bash mode (`!`).
 */
export type InputMode = 'prompt' | 'command' | 'shell';

/**
 * True unless the text starts with a letter or a digit. claude's empty input box takes some first
 * characters as a switch rather than as text (`!` its bash mode, `?` its shortcuts), and a later
 * version may take others: only text that starts as a word goes into the box as it is.
 */
export function mayOpenAMode(text: string): boolean {
  return !/^[\p{L}\p{N}]/u.test(text);
}

/** What claude's input box does instead of sending these to the model: it exits. */
const exitWords = ['exit', 'quit', ':q', ':q!', ':wq', ':wq!'];

/**
 * True when claude would act on the text instead of sending it to the model: trimmed, it starts
 * with `/` and a word that may name a command (claude runs the command of that name, in its input
 * box and headless alike, or says it knows none), or it is one of the words that exit claude's
 * input box. A first word with another `/` in it is a path (`/usr/bin/env is where?`), which
 * claude sends to the model as it is.
 */
export function readsAsCommand(text: string): boolean {
  const trimmed = text.trim();
  if (exitWords.includes(trimmed)) return true;
  return trimmed.startsWith('/') && !/^\/[^\s/]+\//.test(trimmed);
}

/**
 * Line breaks that make claude's input box keep a paste as one `[Pasted text #N]` placeholder: it
 * checks the box's own text for a command, not the placeholder's, and hands the model the text
 * inside `<pasted_content>` tags. The breaks claude trims from the end.
 */
export const placeholderBreaks = '\n\n\n';

/** A UserPromptSubmit prompt of a placeholder paste: the text inside its tags. */
const pastedContent = /^<pasted_content id="([^"]+)">\n([\s\S]*)\n<\/pasted_content id="\1">$/;

/**
 * True when claude's UserPromptSubmit `prompt` is the typed text: as typed, inside the tags of a
 * placeholder paste, or as the text blocks of a headless prompt joined by line breaks. Blanks are
 * not compared (claude trims, turns tabs into spaces and joins blocks with a line break).
 */
export function promptCarries(prompt: string, typed: string): boolean {
  const trimmed = prompt.trim();
  const inner = pastedContent.exec(trimmed)?.[2] ?? trimmed;
  const squash = (text: string) => text.normalize('NFC').replace(/\s+/g, '');
  return squash(inner) === squash(typed);
}

/**
 * A headless prompt's content: the text as it is, or, when claude would run it as a command, as
 * two text blocks split after its leading slashes (claude looks for a command in the last block
 * only; the model reads the blocks as one text).
 */
export function headlessContent(text: string): string | { type: 'text'; text: string }[] {
  // Headless claude sends the exit words to the model; only a slash is acted on.
  if (!readsAsCommand(text) || !text.trim().startsWith('/')) return text;
  const lead = /^[\s/]*/.exec(text)![0];
  const rest = text.slice(lead.length);
  // All slashes and blanks: a last block of one invisible character (U+2060 WORD JOINER).
  return [
    { type: 'text', text: rest ? lead : text },
    { type: 'text', text: rest || '\u2060' },
  ];
}
