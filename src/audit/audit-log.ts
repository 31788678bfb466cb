import type Database from 'better-sqlite3';
import { GraphQLError } from 'graphql';

/** One thing a caller did through the API. */
export interface AuditEntry {
  readonly id: number;
  readonly at: number;
  /** The token's name, or `local` when the hub has no tokens. */
  readonly actor: string;
  /** The caller's IP address. */
  readonly address: string;
  /** The mutation: createSession, enqueueMessage, decidePermission... */
  readonly action: string;
  readonly sessionId: string | null;
  /** What else it acted on: a message or permission request id. */
  readonly target: string | null;
  /** `ok`, or the error code it failed with. */
  readonly outcome: string;
  readonly detail: Record<string, unknown>;
}

export type AuditRecord = Omit<AuditEntry, 'id' | 'at'>;

interface Row {
  id: number;
  at: number;
  actor: string;
  address: string;
  action: string;
  session_id: string | null;
  target: string | null;
  outcome: string;
  detail: string;
}

/** The code of an error as the client saw it. */
export function outcomeOf(error: unknown): string {
  const code = error instanceof GraphQLError ? error.extensions.code : undefined;
  return typeof code === 'string' ? code : 'INTERNAL';
}

/** The audit trail, in the durable store next to the events; entries are never rewritten. */
export class AuditLog {
  readonly #insert: Database.Statement;
  readonly #last: Database.Statement;
  readonly #lastOfSession: Database.Statement;
  readonly #now: () => number;

  constructor(db: Database.Database, now: () => number = Date.now) {
    this.#insert = db.prepare(
      'INSERT INTO audit (at, actor, address, action, session_id, target, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#last = db.prepare('SELECT * FROM audit ORDER BY id DESC LIMIT ?');
    this.#lastOfSession = db.prepare(
      'SELECT * FROM audit WHERE session_id = ? ORDER BY id DESC LIMIT ?',
    );
    this.#now = now;
  }

  record(entry: AuditRecord): void {
    this.#insert.run(
      this.#now(),
      entry.actor,
      entry.address,
      entry.action,
      entry.sessionId,
      entry.target,
      entry.outcome,
      JSON.stringify(entry.detail),
    );
  }

  /** The last `count` entries, of one session or of all, oldest first. */
  last(count: number, sessionId?: string | null): AuditEntry[] {
    const rows = (
      sessionId ? this.#lastOfSession.all(sessionId, count) : this.#last.all(count)
    ) as Row[];
    return rows.reverse().map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor,
      address: row.address,
      action: row.action,
      sessionId: row.session_id,
      target: row.target,
      outcome: row.outcome,
      detail: JSON.parse(row.detail) as Record<string, unknown>,
    }));
  }
}
