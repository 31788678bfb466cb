import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, HubError } from '../errors.js';
import { bearerSecret } from '../auth/access-gate.js';
import { readBody, sendError } from '../http/http-io.js';
import { maxEnvelopeNesting, nestingRefusal } from '../http/json-nesting.js';
import type { Logger } from '../log.js';
import { hubTools, type ToolPort } from './hub-tools.js';

/** Where sessions reach the hub's MCP server, beside the hook endpoint. */
export const mcpPath = '/mcp';

export interface McpEndpointOptions {
  /** The running session a secret belongs to; null for any other secret. */
  readonly sessionOf: (secret: string) => string | null;
  readonly tools: ToolPort;
  /** Larger bodies are refused with 413. */
  readonly maxBodyBytes: number;
  readonly version: string;
  readonly log: Logger;
}

/**
 * The hub's MCP server over Streamable HTTP, stateless: each POST is answered on its own by a
 * server made for the session whose secret it carries, so a hub that restarted, on any port,
 * answers a session's next call with nothing to recover. There is no server-sent stream to
 * open (GET and DELETE answer 405, which MCP clients take as "none").
 */
export function mcpEndpoint(options: McpEndpointOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const secret = bearerSecret(req.headers.authorization);
    const sessionId = secret ? options.sessionOf(secret) : null;
    if (!sessionId) {
      req.resume();
      return sendError(
        res,
        new HubError(
          ErrorCode.Unauthenticated,
          secret
            ? "the secret is no running session's"
            : "missing Authorization: Bearer <the session's hook secret>",
        ),
      );
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (!body.ok) return sendError(res, body.error);
    const tooDeep = nestingRefusal(body.text, maxEnvelopeNesting);
    if (tooDeep) return sendError(res, tooDeep);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return sendError(res, new HubError(ErrorCode.BadRequest, 'the body is not JSON'));
    }
    const server = hubTools(sessionId, options.tools, options.version);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  };
}
