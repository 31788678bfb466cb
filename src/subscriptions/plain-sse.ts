import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import { sendError } from '../http/http-io.js';
import { masked } from './masked-error.js';
import type { Turn } from '../runs/run-fold.js';

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
 * Writes each item of a stream as an SSE message until it ends (then `event: end`), fails (then
 * `event: error` with the hub's error) or the client goes away (the stream is ended at once).
 */
async function writeStream<T>(
  req: IncomingMessage,
  res: ServerResponse,
  stream: AsyncIterator<T>,
  message: (item: T) => string | Promise<string>,
  log: Logger,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  req.on('close', () => void stream.return?.(undefined));
  try {
    for (let step = await stream.next(); !step.done; step = await stream.next()) {
      // Events format synchronously: no extra await per event on their way out.
      let text = message(step.value);
      if (typeof text !== 'string') text = await text;
      if (!res.write(text)) {
        await new Promise((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
    res.write('event: end\ndata: {}\n\n');
  } catch (error) {
    res.write(`event: error\ndata: ${JSON.stringify(failure(error, log))}\n\n`);
  } finally {
    clearInterval(keepAlive);
    res.end();
  }
}

const notFound = (sessionId: string) =>
  new HubError(ErrorCode.SessionNotFound, `no session has id ${sessionId}`);

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
    if (!deps.exists(sessionId)) return sendError(res, notFound(sessionId));
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
    const stream = deps.events(sessionId, after);
    await writeStream(req, res, stream, sseMessage, deps.log);
  };
}

export interface TurnsSseDeps {
  readonly exists: (sessionId: string) => boolean;
  /** Turns as they complete (of every session when null), those completed after `afterMs` first. */
  readonly turns: (sessionId: string | null, afterMs: number) => AsyncIterator<Turn>;
  readonly usage: (turn: Turn) => Promise<unknown>;
  readonly log: Logger;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A turn as JSON, its times in ISO 8601 like the API's DateTime. */
export function turnJson(turn: Turn, usage: unknown): string {
  const { transcriptPath: _path, completedSeq: _seq, ...fields } = turn;
  return JSON.stringify({
    ...fields,
    usage,
    startedAt: iso(turn.startedAt),
    completedAt: iso(turn.completedAt),
    actions: turn.actions.map((action) => ({
      ...action,
      startedAt: iso(action.startedAt),
      completedAt: iso(action.completedAt),
    })),
  });
}

/**
 * GET /turns and GET /sessions/:id/turns[?after=<ISO 8601>]: each turn as it completes, as plain
 * SSE: one `event: turn` message per turn, the turn as JSON (with its usage) as data.
 */
export function turnsSse(deps: TurnsSseDeps) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string | null,
    query: URLSearchParams,
  ) => {
    if (sessionId !== null && !deps.exists(sessionId)) return sendError(res, notFound(sessionId));
    const afterText = query.get('after');
    const after = afterText === null ? Date.now() : Date.parse(afterText);
    if (Number.isNaN(after)) {
      return sendError(
        res,
        new HubError(
          ErrorCode.BadRequest,
          `after must be an ISO 8601 time, got ${JSON.stringify(afterText)}`,
        ),
      );
    }
    const message = async (turn: Turn) =>
      `id: ${turn.id}\nevent: turn\ndata: ${turnJson(turn, await deps.usage(turn))}\n\n`;
    await writeStream(req, res, deps.turns(sessionId, after), message, deps.log);
  };
}
