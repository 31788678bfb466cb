import type { IncomingMessage, ServerResponse } from 'node:http';
import { maxNesting, parseHookBody, type HookPayload } from '../events/hook-event.js';
import { isHubEvent } from '../events/registry.js';
import type { Logger } from '../log.js';
import type { HubMetrics } from '../metrics.js';
import { bearerSecret } from '../auth/access-gate.js';
import { ErrorCode, HubError } from '../errors.js';
import { readBody, sendError, sendJson } from '../http/http-io.js';
import { nestingRefusal } from '../http/json-nesting.js';
import { hookOriginHeaders, type HookOrigin, type IngestResult } from '../sessions/hook-origin.js';

/** For every event but PermissionRequest, whose answer is immediate. */
const neverClosed = new AbortController().signal;

/** Aborts when the client goes away before the answer: claude drops a held PermissionRequest
 * when the person at the terminal answers first. */
function closedSignal(res: ServerResponse): AbortSignal {
  const closed = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) closed.abort();
  });
  return closed.signal;
}

/** The origin headers of a hook call; an absent or empty header is null. */
export function hookOrigin(headers: IncomingMessage['headers']): HookOrigin {
  const header = (name: string): string | null => {
    const value = headers[name.toLowerCase()];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  const pid = Number(header(hookOriginHeaders.pid));
  return {
    tmux: header(hookOriginHeaders.tmux),
    tmuxPane: header(hookOriginHeaders.tmuxPane),
    pid: Number.isSafeInteger(pid) && pid > 0 ? pid : null,
    hubSession: header(hookOriginHeaders.hubSession),
  };
}

/**
 * Where posted events go: the session lifecycle, which knows each session's hook secret and the
 * hub's hook tokens.
 */
export interface HookSink {
  /**
   * Stores and publishes one event of the session the secret names, or with a hook token, of
   * the session a person started; `closed` aborts when the poster gives up waiting for the answer.
   */
  ingest(
    secret: string,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
    origin: HookOrigin,
  ): Promise<IngestResult>;
}

export interface HookEndpointOptions {
  /** Larger bodies are refused with 413 (tool responses can be megabytes). */
  readonly maxBodyBytes: number;
  readonly log: Logger;
  readonly metrics: HubMetrics;
}

/**
 * POST /hooks: authenticates the per-session secret (or a hook token), stores the event durably, publishes it,
 * then answers `{}`, or for a PermissionRequest the decision once there is one. Every refusal
 * is a JSON `{error, code}` with a 4xx status; a body nested deeper than `maxNesting` is refused
 * before it is parsed, so it costs no more than an ordinary body of its size.
 */
export function hookEndpoint(sessions: HookSink, options: HookEndpointOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const secret = bearerSecret(req.headers.authorization);
    if (!secret) {
      req.resume();
      return sendError(
        res,
        new HubError(ErrorCode.Unauthorized, 'missing Authorization: Bearer <hook secret>'),
      );
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (!body.ok) return sendError(res, body.error);
    // Counted before JSON.parse, which would build every level of a `[[[[…` body first.
    const tooDeep = nestingRefusal(body.text, maxNesting);
    if (tooDeep) return sendError(res, tooDeep);
    const parsed = parseHookBody(body.text);
    if (!parsed.ok) return sendError(res, new HubError(ErrorCode.BadHookPayload, parsed.error));
    if (isHubEvent(parsed.payload.hook_event_name)) {
      const error = `"${parsed.payload.hook_event_name}" is an event only the hub makes`;
      return sendError(res, new HubError(ErrorCode.BadHookPayload, error));
    }
    try {
      const name = parsed.payload.hook_event_name;
      const held = name === 'PermissionRequest';
      const result = await sessions.ingest(
        secret,
        body.text,
        parsed.payload,
        held ? closedSignal(res) : neverClosed,
        hookOrigin(req.headers),
      );
      if (!result.ok) return sendError(res, result.error);
      options.metrics.countHookEvent(name);
      sendJson(res, 200, await result.answer);
      if (!held) options.metrics.ingestSeconds.observe((performance.now() - started) / 1000);
    } catch (error) {
      options.log.error(
        { sessionId: parsed.payload.session_id, err: error },
        'hook event could not be stored',
      );
      sendError(res, new HubError(ErrorCode.StoreUnavailable, 'event could not be stored'));
    }
  };
}
