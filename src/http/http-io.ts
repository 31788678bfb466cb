import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, HubError } from '../errors.js';

export type BodyResult =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: HubError };

/** Reads a UTF-8 request body, refusing it as soon as it passes `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? 0);
  // Made only when refused: an error's stack trace costs more than reading a small body.
  const tooLarge = (): BodyResult => ({
    ok: false,
    error: new HubError(ErrorCode.PayloadTooLarge, `body is larger than ${maxBytes} bytes`),
  });
  if (declared > maxBytes) {
    req.resume();
    return Promise.resolve(tooLarge());
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        resolve(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= maxBytes) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', () =>
      resolve({
        ok: false,
        error: new HubError(ErrorCode.BadRequest, 'request body was cut off'),
      }),
    );
  });
}

/**
 * Answers a refusal: the error's HTTP status, and `{error, code}`. A 401 names the scheme that
 * authenticates (RFC 9110 requires a challenge on every 401).
 */
export function sendError(res: ServerResponse, error: HubError): void {
  const status = error.httpStatus;
  sendJson(res, status, error.body, status === 401 ? { 'www-authenticate': 'Bearer' } : {});
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
