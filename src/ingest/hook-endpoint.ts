import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseHookBody, type HookPayload, type StoredEvent } from '../events/hook-event.js';
import { isHubEvent } from '../events/registry.js';
import type { Logger } from '../log.js';
import type { HubMetrics } from '../metrics.js';
import { bearerSecret } from '../http/access-gate.js';
import { ErrorCode, HubError } from '../errors.js';
import { readBody, sendError, sendJson } from '../http/http-io.js';

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

export type IngestResult =
  | {
      readonly ok: true;
      readonly event: StoredEvent;
      /** The hook answer: `{}` at once, or a PermissionRequest's decision when it comes. */
      readonly answer: Promise<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly error: HubError };

/** Where posted events go: the session lifecycle, which knows each session's hook secret. */
export interface HookSink {
  /**
   * Stores and publishes one event of the session the secret names; `closed` aborts when the
   * poster gives up waiting for the answer.
   */
  ingest(
    secret: string,
    raw: string,
    payload: HookPayload,
    closed: AbortSignal,
  ): Promise<IngestResult>;
}

export interface HookEndpointOptions {
  /** Larger bodies are refused with 413 (tool responses can be megabytes). */
  readonly maxBodyBytes: number;
  readonly log: Logger;
  readonly metrics: HubMetrics;
}

/**
 * POST /hooks: authenticates the per-session secret, stores the event durably, publishes it,
 * then answers `{}`, or for a PermissionRequest the decision once there is one. Every refusal
 * is a JSON `{error, code}` with a 4xx status.
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
