import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ErrorCode, HubError } from '../errors.js';
import { sendError } from './http-io.js';
import { dashboardPageHeaders } from './page-headers.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * The built dashboard: `/` is its index.html, `/assets/<file>` its hashed assets (cached for
 * good). Paths are matched, never joined from the URL, so nothing outside the folder is served.
 * The page goes with its frame and content policy (page-headers.ts).
 */
export function staticFiles(root: string) {
  return async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const asset = /^\/assets\/([\w-]+\.[a-z0-9]+)$/.exec(pathname)?.[1];
    if (pathname !== '/' && !asset) return false;
    const file = asset ? path.join(root, 'assets', asset) : path.join(root, 'index.html');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      sendError(
        res,
        new HubError(
          ErrorCode.NotFound,
          asset ? `no asset ${asset}` : 'the dashboard is not built: run npm run build',
        ),
      );
      return true;
    }
    res.writeHead(200, {
      'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': asset ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(!asset && dashboardPageHeaders),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
