import { channelHeader } from '../channels/channel.js';
import type { MessageKind } from './message-text.js';

/** Where a message is on its way into a session. */
export const MessageStatus = {
  /** Waiting for the session to be ready (IDLE, input box empty, nobody typing there). */
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
  /** The channel it came from; it is typed below a header naming it (see promptOf). */
  readonly channel?: string | null;
  /** What the text is to claude; absent in records made before kinds (a PROMPT). */
  readonly kind?: MessageKind;
  status: MessageStatus;
  readonly queuedAt: number;
  sentAt: number | null;
  deliveredAt: number | null;
  /** seq of the UserPromptSubmit that confirmed it. */
  promptSeq: number | null;
  error: string | null;
  /** Why a QUEUED message waits though the session is IDLE: a person typing in its terminal. */
  heldBy?: string | null;
}

/**
 * The prompt claude reports for a typed text: line breaks as LF, tabs as spaces (its input box
 * does that), and Unicode in NFC. Used to recognise a message's UserPromptSubmit.
 */
export function asSubmitted(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').normalize('NFC');
}

/** What is typed for a message: its text, below a header line when it came from a channel. */
export function promptOf(message: Pick<MessageRecord, 'text' | 'channel'>): string {
  return message.channel ? `${channelHeader(message.channel)}\n${message.text}` : message.text;
}
