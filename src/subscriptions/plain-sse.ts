import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import { sendError } from '../http/http-io.js';
import { masked } from './masked-error.js';
import type { Turn } from '../runs/run-fold.js';

export interface PlainSseDeps {
  readonly exists: (sessionId: string) => boolean;
  /** The session has ended for good: its stream ends once it has sent what is stored. */
  readonly isEnded: (sessionId: string) => boolean;
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
 * With `noContentWhenEmpty` (the stream is of a session that has ended, so it ends by itself),
 * a stream that ends before its first item is answered 204 instead: an EventSource reconnects
 * after every 200, however it ended, and stops only on 204.
 */
async function writeStream<T>(
  req: IncomingMessage,
  res: ServerResponse,
  stream: AsyncIterator<T>,
  message: (item: T) => string | Promise<string>,
  options: { readonly log: Logger; readonly noContentWhenEmpty: boolean },
): Promise<void> {
  req.on('close', () => void stream.return?.(undefined));
  let keepAlive: NodeJS.Timeout | undefined;
  const open = () => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  };
  try {
    let step = options.noContentWhenEmpty ? await stream.next() : null;
    if (step?.done) {
      res.writeHead(204);
      return;
    }
    open();
    for (step ??= await stream.next(); !step.done; step = await stream.next()) {
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
    if (keepAlive === undefined) open();
    res.write(`event: error\ndata: ${JSON.stringify(failure(error, options.log))}\n\n`);
  } finally {
    clearInterval(keepAlive);
    res.end();
  }
}

/** The id of the last message an EventSource got, which it sends when it reconnects. */
function lastEventId(req: IncomingMessage): string | undefined {
  const header = req.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value === '' ? undefined : value;
}

const badRequest = (message: string) => new HubError(ErrorCode.BadRequest, message);

const notFound = (sessionId: string) =>
  new HubError(ErrorCode.SessionNotFound, `no session has id ${sessionId}`);

/**
 * GET /sessions/:id/events[?after=N]: the session's events as plain SSE for consumers without
 * GraphQL (curl, a shell, a small bot). One `event: hook` message per event, raw payload as data.
 * An EventSource reconnects to the same URL with `Last-Event-ID`, which wins over `after`: it
 * says where the client is now. A session that has ended, read to its end, answers 204.
 */
export function plainSse(deps: PlainSseDeps) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string,
    query: URLSearchParams,
  ) => {
    if (!deps.exists(sessionId)) return sendError(res, notFound(sessionId));
    const resumed = lastEventId(req);
    const afterText = resumed ?? query.get('after');
    const after = afterText === null ? null : Number(afterText);
    if (after !== null && !(Number.isInteger(after) && after >= 0)) {
      const name = resumed === undefined ? 'after' : 'Last-Event-ID';
      return sendError(
        res,
        badRequest(`${name} must be a whole number >= 0, got ${JSON.stringify(afterText)}`),
      );
    }
    const stream = deps.events(sessionId, after);
    const noContentWhenEmpty = deps.isEnded(sessionId);
    await writeStream(req, res, stream, sseMessage, { log: deps.log, noContentWhenEmpty });
  };
}

export interface TurnsSseDeps {
  readonly exists: (sessionId: string) => boolean;
  /** The session has ended for good: no turn of it completes any more. */
  readonly isEnded: (sessionId: string) => boolean;
  /** Turns as they complete (of every session when null), those completed after `afterMs` first. */
  readonly turns: (sessionId: string | null, afterMs: number) => AsyncIterator<Turn>;
  /** When the session's turn of that id completed; null when the hub keeps no such turn. */
  readonly completedAt: (sessionId: string, turnId: string) => Promise<number | null>;
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

/** A turn's id, `<session id>:<seq of the event that started it>`, taken apart. */
function parseTurnId(id: string): { readonly sessionId: string; readonly seq: number } | null {
  const match = /^(.+):(\d+)$/.exec(id);
  return match ? { sessionId: match[1]!, seq: Number(match[2]) } : null;
}

/** The items of a stream that `skip` does not drop; its return() ends the stream at once. */
function skipping<T>(items: AsyncIterator<T>, skip: (item: T) => boolean): AsyncIterator<T> {
  return {
    async next() {
      for (;;) {
        const step = await items.next();
        if (step.done || !skip(step.value)) return step;
      }
    },
    return: async () => (await items.return?.()) ?? { value: undefined, done: true },
  };
}

/** Where a turns stream starts: the turns completed after `afterMs`, less those `skip` drops. */
type TurnsFrom =
  | { readonly ok: true; readonly afterMs: number; readonly skip: (turn: Turn) => boolean }
  | { readonly ok: false; readonly error: HubError };

/**
 * Where a reconnect with the id of the last turn it got goes on from. A session's turns complete
 * in the order they start, so one session's stream goes on with the turns started after that
 * one. Every session's goes on from the time that turn completed, less its session's turns up
 * to it: a turn of another session completed in the same millisecond may come again (its id
 * tells it), none is missed.
 */
async function resumeFrom(
  deps: TurnsSseDeps,
  sessionId: string | null,
  lastId: string,
): Promise<TurnsFrom> {
  const last = parseTurnId(lastId);
  if (!last || (sessionId !== null && last.sessionId !== sessionId)) {
    const error = badRequest(
      `Last-Event-ID must be the id of a turn this stream sent, got ${JSON.stringify(lastId)}`,
    );
    return { ok: false, error };
  }
  const upToLast = (turn: Turn) =>
    turn.sessionId === last.sessionId && (parseTurnId(turn.id)?.seq ?? 0) <= last.seq;
  if (sessionId !== null) return { ok: true, afterMs: -Infinity, skip: upToLast };
  const completedAt = await deps.completedAt(last.sessionId, lastId);
  if (completedAt === null) {
    const error = badRequest(
      `Last-Event-ID ${JSON.stringify(lastId)} is no completed turn the hub keeps; open the stream again with after`,
    );
    return { ok: false, error };
  }
  return { ok: true, afterMs: completedAt - 1, skip: upToLast };
}

/**
 * GET /turns and GET /sessions/:id/turns[?after=<ISO 8601>]: each turn as it completes, as plain
 * SSE: one `event: turn` message per turn, `id:` the turn's id, the turn as JSON (with its usage)
 * as data. A reconnect's `Last-Event-ID` wins over `after` (see resumeFrom). A session that has
 * ended, with no turn left to send, answers 204.
 */
export function turnsSse(deps: TurnsSseDeps) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string | null,
    query: URLSearchParams,
  ) => {
    if (sessionId !== null && !deps.exists(sessionId)) return sendError(res, notFound(sessionId));
    const lastId = lastEventId(req);
    let from: TurnsFrom;
    if (lastId !== undefined) {
      from = await resumeFrom(deps, sessionId, lastId);
    } else {
      const afterText = query.get('after');
      const afterMs = afterText === null ? Date.now() : Date.parse(afterText);
      from = Number.isNaN(afterMs)
        ? {
            ok: false,
            error: badRequest(`after must be an ISO 8601 time, got ${JSON.stringify(afterText)}`),
          }
        : { ok: true, afterMs, skip: () => false };
    }
    if (!from.ok) return sendError(res, from.error);
    const message = async (turn: Turn) =>
      `id: ${turn.id}\nevent: turn\ndata: ${turnJson(turn, await deps.usage(turn))}\n\n`;
    const turns = skipping(deps.turns(sessionId, from.afterMs), from.skip);
    const noContentWhenEmpty = sessionId !== null && deps.isEnded(sessionId);
    await writeStream(req, res, turns, message, { log: deps.log, noContentWhenEmpty });
  };
}
