import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import { sendError } from '../http/http-io.js';
import { masked } from './masked-error.js';

export interface PlainSseDeps {
  readonly exists: (sessionId: string) => boolean;
  readonly events: (sessionId: string, after: number | null) => AsyncGenerator<StoredEvent>;
  readonly log: Logger;
}

/** What a stream's failure tells the client: the hub's own errors, and nothing else. */
function failure(error: unknown, log: Logger): { error: string; code: string } {
  const shown = masked(error, log);
  return { error: shown.message, code: String(shown.extensions.code) };
}

/** Formats one event: `id` is the seq, so EventSource resumes with Last-Event-ID by itself. */
export function sseMessage(event: StoredEvent): string {
  const data = event.raw.split(/\r\n|\r|\n/).join('\ndata: ');
  return `id: ${event.seq}\nevent: hook\ndata: ${data}\n\n`;
}

/**
 * GET /sessions/:id/events[?after=N]: the session's events as plain SSE for consumers without
 * GraphQL (curl, a shell, a small bot). One `event: hook` message per event, raw payload as data.
 */
export function plainSse(deps: PlainSseDeps) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string,
    query: URLSearchParams,
  ) => {
    if (!deps.exists(sessionId)) {
      return sendError(
        res,
        new HubError(ErrorCode.SessionNotFound, `no session has id ${sessionId}`),
      );
    }
    const afterText = query.get('after') ?? req.headers['last-event-id'];
    const after = afterText === undefined || afterText === null ? null : Number(afterText);
    if (after !== null && !(Number.isInteger(after) && after >= 0)) {
      return sendError(
        res,
        new HubError(
          ErrorCode.BadRequest,
          `after must be a whole number >= 0, got ${JSON.stringify(afterText)}`,
        ),
      );
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    const stream = deps.events(sessionId, after);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    req.on('close', () => void stream.return(undefined));
    try {
      for await (const event of stream) {
        if (!res.write(sseMessage(event))) {
          await new Promise((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
      res.write('event: end\ndata: {}\n\n');
    } catch (error) {
      res.write(`event: error\ndata: ${JSON.stringify(failure(error, deps.log))}\n\n`);
    } finally {
      clearInterval(keepAlive);
      res.end();
    }
  };
}
