import type { IncomingMessage, ServerResponse } from 'node:http';

export type BodyResult =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      readonly status: 400 | 413;
      readonly code: string;
      readonly error: string;
    };

/** Reads a UTF-8 request body, refusing it as soon as it passes `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const tooLarge: BodyResult = {
    ok: false,
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    error: `body is larger than ${maxBytes} bytes`,
  };
  if (declared > maxBytes) {
    req.resume();
    return Promise.resolve(tooLarge);
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
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= maxBytes) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', () =>
      resolve({ ok: false, status: 400, code: 'BAD_REQUEST', error: 'request body was cut off' }),
    );
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
