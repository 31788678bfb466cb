import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackHost } from '../config/index.js';
import { allows, localPrincipal, type Principal, type Scope, type Tokens } from './tokens.js';
import { ErrorCode, HubError } from '../errors.js';

/** What each request brings to yoga: the node request, and who the access gate says it is. */
export interface ServerContext {
  req: IncomingMessage;
  res?: ServerResponse;
  principal?: Principal;
}

export type Access =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly error: HubError };

/** Content types a browser may send cross-site without asking first (no CORS preflight). */
const simpleContentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
];

/** The secret of an `Authorization: Bearer <secret>` value. */
export function bearerSecret(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/**
 * Who may call the API, from where. Tokens authenticate; without tokens the hub is on loopback
 * and every caller is `local` with the admin scope, so web pages are kept out instead: a Host
 * that is not loopback (DNS rebinding), an Origin that is neither the hub's own nor allowed,
 * and a state-changing request a browser could send cross-site without a preflight are refused.
 */
export class AccessGate {
  readonly #tokens: Tokens;
  readonly #origins: ReadonlySet<string>;

  constructor(tokens: Tokens, corsOrigins: readonly string[]) {
    this.#tokens = tokens;
    this.#origins = new Set(corsOrigins.map((origin) => origin.replace(/\/$/, '')));
  }

  get tokensConfigured(): boolean {
    return this.#tokens.configured;
  }

  isAllowedOrigin(origin: string): boolean {
    return this.#origins.has(origin);
  }

  /** The browser checks, for HTTP requests and WebSocket upgrades alike. */
  browserRefusal(headers: IncomingHttpHeaders): Access | undefined {
    const host = headers.host ?? '';
    if (!this.#tokens.configured && !isLoopbackHost(host.replace(/:\d+$/, ''))) {
      return refuse(ErrorCode.HostNotAllowed, `Host ${JSON.stringify(host)} is not loopback`);
    }
    const origin = headers.origin;
    if (origin !== undefined && !this.isAllowedOrigin(origin) && !sameOrigin(origin, host)) {
      return refuse(ErrorCode.OriginNotAllowed, `origin ${origin} is not allowed (--cors-origin)`);
    }
    return undefined;
  }

  authenticate(authorization: unknown): Principal | undefined {
    if (!this.#tokens.configured) return localPrincipal;
    const secret = bearerSecret(authorization);
    return secret === undefined ? undefined : this.#tokens.authenticate(secret);
  }

  /**
   * The checks an API request over HTTP passes after browserRefusal: CSRF, then the token, then
   * its scope: the route (`what`, as `GET /metrics`) needs one its scope grants.
   */
  check(req: IncomingMessage, needed: Scope, what: string): Access {
    if (!isSafeMethod(req.method) && isSimpleContentType(req.headers['content-type'])) {
      return refuse(
        ErrorCode.CsrfRefused,
        'send requests with Content-Type: application/json (form and text bodies are refused)',
      );
    }
    const authorization = req.headers.authorization;
    const principal = this.authenticate(authorization);
    if (principal) {
      if (allows(principal, needed)) return { ok: true, principal };
      return refuse(
        ErrorCode.Forbidden,
        `token "${principal.name}" has scope ${principal.scope}; ${what} needs ${needed}`,
      );
    }
    return authorization === undefined
      ? refuse(ErrorCode.Unauthenticated, 'missing Authorization: Bearer <token>')
      : refuse(ErrorCode.Unauthenticated, 'unknown token');
  }
}

function refuse(code: ErrorCode, message: string): Access {
  return { ok: false, error: new HubError(code, message) };
}

function isSafeMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

function isSimpleContentType(value: string | undefined): boolean {
  const type = (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' || simpleContentTypes.includes(type);
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** Open WebSocket connections and event streams per token name, up to a limit. */
export class ConnectionCounter {
  readonly #open = new Map<string, number>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** A release function, or undefined when the token holds the limit already. */
  acquire(name: string): (() => void) | undefined {
    const open = this.#open.get(name) ?? 0;
    if (open >= this.#limit) return undefined;
    this.#open.set(name, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(name) ?? 1) - 1;
      if (left === 0) this.#open.delete(name);
      else this.#open.set(name, left);
    };
  }
}
