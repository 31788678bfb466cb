import { ErrorCode, HubError } from '../errors.js';
import { controlCharacterIn } from '../runtime/terminal-text.js';

/**
 * What a message is to claude. The text never decides: a PROMPT is always a prompt for the model,
 * whatever its first character; running a slash command or a shell line is the caller's explicit
 * choice, with its own scope.
 */
export const MessageKind = {
  /** Text for the model, typed so that claude reads it as a prompt and nothing else. */
  Prompt: 'PROMPT',
  /** A slash command line such as `/compact keep the tests`: claude runs the command. */
  SlashCommand: 'SLASH_COMMAND',
  /** A shell line run by claude's bash mode (`!`): no model call and no permission check. */
  Shell: 'SHELL',
} as const;
export type MessageKind = (typeof MessageKind)[keyof typeof MessageKind];

/** A kind named by a caller (another node of the cluster), checked. */
export function messageKind(name: string): MessageKind {
  const kinds: readonly string[] = Object.values(MessageKind);
  if (kinds.includes(name)) return name as MessageKind;
  throw new HubError(
    ErrorCode.BadInput,
    `kind must be one of ${kinds.join(', ')}, got ${JSON.stringify(name)}`,
  );
}

/**
 * Checks text a client wants typed into claude: not blank, and no character that a terminal
 * would take as a key or an escape sequence rather than as text.
 */
export function checkMessageText(text: string, field: string, kind: MessageKind): void {
  if (text.trim().length === 0) {
    throw new HubError(ErrorCode.BadInput, `${field} must not be empty or only whitespace`);
  }
  const found = controlCharacterIn(text);
  if (found) {
    throw new HubError(
      ErrorCode.ControlCharacter,
      `${field} holds ${found.name} at character ${found.index} (line ${found.line}, column ${found.column}); control characters other than tab and line breaks are refused`,
      {
        field,
        position: found.index,
        line: found.line,
        column: found.column,
        codePoint: found.codePoint,
      },
    );
  }
  if (kind !== MessageKind.Prompt && /[\r\n]/.test(text)) {
    throw new HubError(ErrorCode.BadInput, `a ${kind} ${field} is one line`);
  }
  if (kind === MessageKind.SlashCommand && !/^\/[^\s/]/.test(text)) {
    throw new HubError(
      ErrorCode.BadInput,
      `a SLASH_COMMAND ${field} starts with "/" and the command's name, e.g. "/compact"`,
    );
  }
}
