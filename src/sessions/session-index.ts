import { describeValue, ErrorCode, HubError } from '../errors.js';
import { isExternal } from './external-session.js';
import { isRunning, type SessionRecord } from './session.js';

/**
 * The sessions in memory and the ways to find one: by id, by the SHA-256 of its hook secret,
 * by any Claude session id it has had (after `/clear` claude goes on under a new one).
 */
export class SessionIndex {
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #secretHashes = new Map<string, string>();
  readonly #byClaudeId = new Map<string, string>();

  /** Oldest first. */
  list(): SessionRecord[] {
    return [...this.#sessions.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  values(): IterableIterator<SessionRecord> {
    return this.#sessions.values();
  }

  get(id: string): SessionRecord | undefined {
    return this.#sessions.get(id);
  }

  require(id: string): SessionRecord {
    const record = this.#sessions.get(id);
    if (!record)
      throw new HubError(ErrorCode.SessionNotFound, `no session has id ${describeValue(id)}`);
    return record;
  }

  /** Whether `id` is a session's, or a Claude session id one of them has had. */
  taken(id: string): boolean {
    return this.#sessions.has(id) || this.#byClaudeId.has(id);
  }

  add(record: SessionRecord): void {
    this.#sessions.set(record.id, record);
    if (record.hookSecretHash) this.#secretHashes.set(record.hookSecretHash, record.id);
    this.#byClaudeId.set(record.id, record.id);
    this.#byClaudeId.set(record.claudeSessionId, record.id);
  }

  /** A new hook secret for the session (at each launch): the one before stops working. */
  setSecretHash(record: SessionRecord, secretHash: string): void {
    this.#secretHashes.delete(record.hookSecretHash);
    record.hookSecretHash = secretHash;
    this.#secretHashes.set(secretHash, record.id);
  }

  bySecretHash(secretHash: string): SessionRecord | undefined {
    const id = this.#secretHashes.get(secretHash);
    return id === undefined ? undefined : this.#sessions.get(id);
  }

  /** The hub session a Claude session id belongs to. */
  ownerOf(claudeSessionId: string): string | undefined {
    return this.#byClaudeId.get(claudeSessionId);
  }

  /** A Claude session id (a new one after `/clear`) is the session's from now on. */
  claim(claudeSessionId: string, id: string): void {
    this.#byClaudeId.set(claudeSessionId, id);
  }

  /** The running EXTERNAL session of a claude process, which goes on under a new id after /clear. */
  sameProcess(pid: number | null): SessionRecord | undefined {
    if (pid === null) return undefined;
    return this.list().find(
      (record) => isExternal(record) && record.pid === pid && isRunning(record.status),
    );
  }

  /** Sessions the hub started that run now (the --max-sessions count). */
  liveManaged(): number {
    let live = 0;
    for (const record of this.#sessions.values()) {
      if (isRunning(record.status) && !isExternal(record)) live += 1;
    }
    return live;
  }

  /** A short tmux session name for a new session; the whole id when the short one is taken. */
  tmuxName(id: string): string {
    const short = `claude-${id.slice(0, 8)}`;
    const taken = [...this.#sessions.values()].some((s) => s.tmuxSession === short);
    return taken ? `claude-${id}` : short;
  }

  /** Forgets sessions, with their secrets and Claude session ids. */
  forget(ids: ReadonlySet<string>): void {
    for (const id of ids) {
      const record = this.#sessions.get(id);
      if (record) this.#secretHashes.delete(record.hookSecretHash);
      this.#sessions.delete(id);
    }
    for (const [claudeId, owner] of this.#byClaudeId) {
      if (ids.has(owner)) this.#byClaudeId.delete(claudeId);
    }
  }
}
