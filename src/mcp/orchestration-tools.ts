import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HubError } from '../errors.js';

/** The tools a session started with `orchestrate` is offered, and no other. */
export const orchestrationToolNames = [
  'list_sessions',
  'start_session',
  'ask_session',
  'send_to_session',
  'session_status',
  'stop_session',
] as const;

/** What list_sessions takes: filters, and a page's size and place. */
export interface ListArgs {
  readonly label?: string | undefined;
  readonly status?: string | undefined;
  readonly limit?: number | undefined;
  readonly after?: string | undefined;
}

/** How much of each session's last answer list_sessions gives. */
export const lastAnswerChars = 300;

/** How many sessions a page of list_sessions has when the model does not say, and at most. */
export const listPage = { default: 50, max: 200 } as const;

export interface StartArgs {
  readonly cwd: string;
  readonly prompt?: string | undefined;
  readonly name?: string | undefined;
  readonly labels?: readonly string[] | undefined;
  readonly worktree?: { readonly branch?: string | undefined; readonly base?: string | undefined };
  readonly orchestrate?: boolean | undefined;
}

/**
 * What the orchestration tools do for the session that calls them. Each answer is the text the
 * model reads; a refusal it can act on is a HubError, which the model is shown as a tool error
 * beginning with its code (OUT_OF_REACH, DEPTH_LIMIT, CHILD_LIMIT, SESSION_NOT_FOUND, ...).
 */
export interface OrchestrationPort {
  /** Whether the session is offered the tools (started with `orchestrate`). */
  offered(sessionId: string): boolean;
  list(caller: string, args: ListArgs): Promise<string>;
  start(caller: string, args: StartArgs): Promise<string>;
  ask(caller: string, session: string, text: string, timeoutSeconds: number): Promise<string>;
  send(caller: string, session: string, text: string): Promise<string>;
  status(caller: string, session: string): Promise<string>;
  stop(caller: string, session: string): Promise<string>;
}

/** How long ask_session waits when the model does not say, and at most. */
export const askSeconds = { default: 300, max: 3600 } as const;

function result(work: () => Promise<string>): Promise<CallToolResult> {
  return work().then(
    (text) => ({ content: [{ type: 'text', text }] }),
    (error: unknown) => {
      if (!(error instanceof HubError)) throw error;
      return {
        content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
        isError: true,
      };
    },
  );
}

const sessionArg = z
  .string()
  .describe('The session id, as list_sessions or start_session gave it.');

/** Registers the orchestration tools on a session's MCP server, when the session has them. */
export function registerOrchestrationTools(
  server: McpServer,
  caller: string,
  port: OrchestrationPort,
): void {
  if (!port.offered(caller)) return;
  server.registerTool(
    'list_sessions',
    {
      description: `List the claude-code-hub sessions you may act on (your children, unless you were given a wider reach), oldest first, a page at a time, as JSON: {"sessions": [{id, name, status, labels, cwd, parent, lastAnswer}], "total": how many match, "next": what to pass as after for the next page, or null}. lastAnswer is cut at ${lastAnswerChars} characters; session_status has it whole.`,
      inputSchema: {
        label: z.string().optional().describe('Only sessions with this label.'),
        status: z
          .string()
          .optional()
          .describe('Only sessions in this status, as session_status gives it (IDLE, BUSY, ...).'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(listPage.max)
          .optional()
          .describe(`Sessions a page (${listPage.default} unless said, at most ${listPage.max}).`),
        after: z.string().optional().describe("The page after this one: the last page's next."),
      },
    },
    (args) => result(() => port.list(caller, args)),
  );
  server.registerTool(
    'start_session',
    {
      description:
        'Start a new Claude Code session (your child) in a folder, optionally with a first prompt; it runs with your permission mode and model. Answers its id. Use ask_session to ask it and wait for its answer.',
      inputSchema: {
        cwd: z.string().describe('The folder it works in (absolute path).'),
        prompt: z.string().optional().describe('Its first prompt.'),
        name: z.string().optional(),
        labels: z.array(z.string()).optional(),
        worktree: z
          .object({ branch: z.string().optional(), base: z.string().optional() })
          .optional()
          .describe('Run it in a new git worktree of cwd, on a branch of its own.'),
        orchestrate: z
          .boolean()
          .optional()
          .describe('Let it start sessions of its own (within the depth limit).'),
      },
    },
    (args) => result(() => port.start(caller, args)),
  );
  server.registerTool(
    'ask_session',
    {
      description:
        "Send a prompt to a session and wait for the end of the turn it starts: answers the session's reply.",
      inputSchema: {
        session: sessionArg,
        text: z.string(),
        timeoutSeconds: z
          .number()
          .int()
          .min(1)
          .max(askSeconds.max)
          .optional()
          .describe(`How long to wait (default ${askSeconds.default}).`),
      },
    },
    ({ session, text, timeoutSeconds }) =>
      result(() => port.ask(caller, session, text, timeoutSeconds ?? askSeconds.default)),
  );
  server.registerTool(
    'send_to_session',
    {
      description:
        'Queue a prompt for a session without waiting: it is typed once the session is idle.',
      inputSchema: { session: sessionArg, text: z.string() },
    },
    ({ session, text }) => result(() => port.send(caller, session, text)),
  );
  server.registerTool(
    'session_status',
    {
      description: "A session's status, its current turn and its last answer, as JSON.",
      inputSchema: { session: sessionArg },
    },
    ({ session }) => result(() => port.status(caller, session)),
  );
  server.registerTool(
    'stop_session',
    {
      description: 'Stop a session (its conversation is kept and can be resumed).',
      inputSchema: { session: sessionArg },
    },
    ({ session }) => result(() => port.stop(caller, session)),
  );
}
