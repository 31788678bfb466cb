import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ChannelInfo, ChannelMessage } from '../channels/channel.js';
import { HubError } from '../errors.js';
import {
  orchestrationToolNames,
  registerOrchestrationTools,
  type OrchestrationPort,
} from './orchestration-tools.js';

/** The MCP server's name in every session's --mcp-config: its tools are `mcp__hub__<tool>`. */
export const mcpServerName = 'hub';

/**
 * The hub's tools, which sessions are started allowing (no permission prompt): the channel tools,
 * and the orchestration tools of a session offered them (a permission rule is tried first).
 */
export const hubToolNames = [
  'send_to_channel',
  'list_channels',
  ...orchestrationToolNames,
] as const;

/** The hub's own tool a call names (`mcp__hub__<tool>`), or null for any other. */
function hubToolOf(toolName: unknown): string | null {
  const prefix = `mcp__${mcpServerName}__`;
  if (typeof toolName !== 'string' || !toolName.startsWith(prefix)) return null;
  const tool = toolName.slice(prefix.length);
  return (hubToolNames as readonly string[]).includes(tool) ? tool : null;
}

/** Whether a tool call is one of the orchestration tools, which permission rules may refuse. */
export function isOrchestrationTool(toolName: unknown): boolean {
  return (orchestrationToolNames as readonly string[]).includes(hubToolOf(toolName) ?? '');
}

/**
 * The hook answer that lets one of the hub's tools run: to its PreToolUse, and where the mode
 * still asks (plan mode asks for MCP tools whatever PreToolUse or an allow rule say), to its
 * PermissionRequest. Null for any other event or tool.
 */
export function hubToolAllowance(
  eventName: string,
  toolName: unknown,
): Record<string, unknown> | null {
  if (hubToolOf(toolName) === null) return null;
  if (eventName === 'PreToolUse') {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: "claude-code-hub's own tool",
      },
    };
  }
  if (eventName === 'PermissionRequest') {
    return {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    };
  }
  return null;
}

/** What the tools do for the session that calls them. */
export interface ToolPort {
  channels(): ChannelInfo[];
  /** Stores and delivers a message of `sessionId`; throws a HubError the model is shown. */
  send(sessionId: string, channel: string, text: string): Promise<ChannelMessage>;
  /** The orchestration tools, for the sessions offered them. */
  readonly orchestration?: OrchestrationPort;
}

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError && { isError }) };
}

function channelLines(channels: readonly ChannelInfo[]): string {
  if (channels.length === 0) return 'No channel is open.';
  return channels
    .map((channel) => `${channel.name}${channel.description ? ` - ${channel.description}` : ''}`)
    .join('\n');
}

/**
 * The hub's MCP server as one session sees it: the tools act for `sessionId`, which the
 * caller's secret named. A refusal the model can act on (a closed channel) is a tool error
 * result, not a protocol error.
 */
export function hubTools(sessionId: string, port: ToolPort, version: string): McpServer {
  const server = new McpServer({ name: 'claude-code-hub', version });
  server.registerTool(
    'send_to_channel',
    {
      description:
        'Send a message to a named channel of the claude-code-hub (a chat bot, a phone bridge, a person\'s pager, ...). Answer a message that came "from channel X" by sending to X. list_channels names the open channels.',
      inputSchema: {
        channel: z.string().describe('The channel name, as list_channels gives it.'),
        message: z.string().describe('The text to send.'),
      },
    },
    async ({ channel, message }) => {
      try {
        const sent = await port.send(sessionId, channel, message);
        return text(`sent to ${sent.channel} (message ${sent.seq})`);
      } catch (error) {
        if (error instanceof HubError) return text(error.message, true);
        throw error;
      }
    },
  );
  server.registerTool(
    'list_channels',
    {
      description:
        'List the open channels of the claude-code-hub, one per line with what it is, to choose where send_to_channel goes.',
    },
    () => text(channelLines(port.channels())),
  );
  if (port.orchestration) registerOrchestrationTools(server, sessionId, port.orchestration);
  return server;
}
