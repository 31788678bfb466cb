/** Where a message is on its way into a session. */
export const MessageStatus = {
  /** Waiting for the session to be ready (IDLE, input box empty). */
  Queued: 'QUEUED',
  /** Typed and submitted; its UserPromptSubmit has not arrived yet. */
  Sent: 'SENT',
  /** The session's UserPromptSubmit carried this text (for a slash command: the box took it). */
  Delivered: 'DELIVERED',
  /** It could not be delivered; `error` says why. */
  Failed: 'FAILED',
} as const;
export type MessageStatus = (typeof MessageStatus)[keyof typeof MessageStatus];

export interface MessageRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly text: string;
  status: MessageStatus;
  readonly queuedAt: number;
  sentAt: number | null;
  deliveredAt: number | null;
  /** seq of the UserPromptSubmit that confirmed it. */
  promptSeq: number | null;
  error: string | null;
}

/**
 * The prompt claude reports for a typed text: line breaks as LF, tabs as spaces (its input box
 * does that), and Unicode in NFC. Used to recognise a message's UserPromptSubmit.
 */
export function asSubmitted(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').normalize('NFC');
}

/** Text starting with `/` may be a slash command for claude, exactly as when a person types it. */
export function isSlashCommand(text: string): boolean {
  return text.startsWith('/');
}
