import { hash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * What a token may do. `read`: queries and subscriptions. `control`: also create, message,
 * stop, resume, interrupt and keys. `approve`: also decide permission requests (a bot that
 * approves need not start sessions). `admin`: all of it, and the audit trail. `hook`: posts hook
 * events of sessions started by hand (the installed global hooks), and nothing else.
 */
export const scopes = ['read', 'control', 'approve', 'admin', 'hook'] as const;
export type Scope = (typeof scopes)[number];

const grants: Record<Scope, readonly Scope[]> = {
  read: ['read'],
  control: ['read', 'control'],
  approve: ['read', 'approve'],
  admin: ['read', 'control', 'approve', 'admin'],
  hook: ['hook'],
};

/** Who is calling: the token's name and scope (or `local` when the hub has no tokens). */
export interface Principal {
  readonly name: string;
  readonly scope: Scope;
}

export const localPrincipal: Principal = { name: 'local', scope: 'admin' };

export function allows(principal: Principal, needed: Scope): boolean {
  return grants[principal.scope].includes(needed);
}

/** One configured token; only the SHA-256 of its secret is kept. */
export interface TokenEntry extends Principal {
  readonly sha256: string;
}

function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** The entry of a token whose secret the hub holds itself (only its hash is kept). */
export function secretEntry(name: string, scope: Scope, secret: string): TokenEntry {
  return { name, scope, sha256: sha256(secret).toString('hex') };
}

/** The configured tokens; without any, the hub serves loopback only and every caller is local. */
export class Tokens {
  readonly #entries: readonly { principal: Principal; hash: Buffer }[];

  constructor(entries: readonly TokenEntry[]) {
    this.#entries = entries.map((entry) => ({
      principal: { name: entry.name, scope: entry.scope },
      hash: Buffer.from(entry.sha256, 'hex'),
    }));
  }

  get configured(): boolean {
    return this.#entries.length > 0;
  }

  /** Compares the secret's hash with every token's, in constant time, with no early exit. */
  authenticate(secret: string): Principal | undefined {
    return this.authenticateHash(sha256(secret));
  }

  /** authenticate() for a secret hashed already (SHA-256), so a caller that has it hashes once. */
  authenticateHash(hash: Buffer): Principal | undefined {
    let found: Principal | undefined;
    for (const entry of this.#entries) {
      if (timingSafeEqual(hash, entry.hash) && !found) found = entry.principal;
    }
    return found;
  }
}

/**
 * The tokens of `--token` (named `admin`) and `--tokens-file`, a JSON array of
 * `{"name", "scope", "sha256"}` where sha256 is the hex SHA-256 of the secret.
 * Throws a one-line error naming the file and the entry that is wrong.
 */
export function loadTokens(options: { token: string; tokensFile: string }): TokenEntry[] {
  const entries: TokenEntry[] = [];
  if (options.token) {
    entries.push(secretEntry('admin', 'admin', options.token));
  }
  if (options.tokensFile) entries.push(...readTokensFile(options.tokensFile));
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new Error(`token name "${entry.name}" is used twice`);
    names.add(entry.name);
  }
  return entries;
}

function readTokensFile(file: string): TokenEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`tokens file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`tokens file ${file}: must be a JSON array`);
  return parsed.map((item: unknown, index) => {
    const entry = (item ?? {}) as Record<string, unknown>;
    const where = `tokens file ${file}, entry ${index}`;
    if (typeof entry.name !== 'string' || !/^[\w.@-]{1,64}$/.test(entry.name)) {
      throw new Error(`${where}: name must be 1-64 letters, digits, "_", ".", "@" or "-"`);
    }
    if (!scopes.includes(entry.scope as Scope)) {
      throw new Error(`${where}: scope must be one of ${scopes.join(', ')}`);
    }
    if (typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(entry.sha256)) {
      throw new Error(`${where}: sha256 must be 64 hex digits (sha256sum of the secret)`);
    }
    return { name: entry.name, scope: entry.scope as Scope, sha256: entry.sha256.toLowerCase() };
  });
}
