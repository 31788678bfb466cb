import type { ChannelMessage } from '../channels/channel.js';
import type { Channels } from '../channels/channels.js';
import type { ToolPort } from '../mcp/hub-tools.js';
import type { SessionManager } from '../sessions/session-manager.js';

/**
 * What the hub's MCP tools do for the session that calls them. A message a session sends to a
 * channel enters that session's own stream too (ChannelMessage, with its seq in the channel), so
 * the session's events show what it said and where, beside the turn that said it.
 */
export function sessionTools(
  channels: Pick<Channels, 'list' | 'send'>,
  sessions: Pick<SessionManager, 'appendHubEvent'>,
): ToolPort {
  return {
    channels: () => channels.list(),
    async send(sessionId: string, channel: string, text: string): Promise<ChannelMessage> {
      const message = channels.send(sessionId, channel, text);
      await sessions.appendHubEvent(sessionId, 'ChannelMessage', {
        channel,
        text,
        channel_seq: message.seq,
      });
      return message;
    },
  };
}
