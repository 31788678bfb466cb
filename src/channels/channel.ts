import { ErrorCode, HubError } from '../errors.js';

/** One message a session sent to a channel; `seq` counts 1, 2, 3, ... per channel. */
export interface ChannelMessage {
  readonly seq: number;
  readonly channel: string;
  readonly sessionId: string;
  readonly text: string;
  readonly at: number;
}

/** A channel as the API lists it: open while it is declared or has a listener. */
export interface ChannelInfo {
  readonly name: string;
  readonly description: string | null;
  readonly listeners: number;
  readonly lastMessageAt: number | null;
}

/** Letters, digits and `.`, `_`, `-`, up to 64: a name that reads the same in a header and a URL. */
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The name, or BAD_INPUT quoting it. */
export function checkChannelName(name: string): string {
  if (namePattern.test(name)) return name;
  throw new HubError(
    ErrorCode.BadInput,
    `channel name ${JSON.stringify(name.slice(0, 80))} is not 1-64 letters, digits, ".", "_" or "-" starting with a letter or digit`,
  );
}

/** `--channel NAME[:description]`. */
export function parseChannelSpec(spec: string): { name: string; description: string | null } {
  const colon = spec.indexOf(':');
  const name = checkChannelName(colon < 0 ? spec : spec.slice(0, colon));
  const description = colon < 0 ? '' : spec.slice(colon + 1).trim();
  return { name, description: description || null };
}

/**
 * The line put above a message that came from a channel, so Claude knows where it came from
 * and where to answer.
 */
export function channelHeader(channel: string): string {
  return `[message from channel "${channel}"; answer there with the send_to_channel tool]`;
}
