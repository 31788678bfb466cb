import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock.js';
import { ErrorCode, HubError } from '../errors.js';
import { gitEnvironment, gitRunner } from '../git/git.js';
import { WorktreeChanges } from '../git/worktree-changes.js';
import { Worktrees, type BranchDeletion, type WorktreeRequest } from '../git/worktrees.js';
import type { Logger } from '../log.js';
import { sessionEnvironment } from '../runtime/session-env.js';
import type { SessionRecord } from './session.js';
import type { SessionChanges } from './session-changes.js';

export interface SessionWorktreesOptions {
  /** Where worktrees are made (--worktree-root). */
  readonly root: string;
  /** The hub's environment and secrets: git gets the environment less both (and less GIT_*). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly secrets: readonly string[];
}

/**
 * The worktrees of sessions, as the session manager uses them: one made before a session's
 * claude starts (and removed again when the start fails), removed on stopSession's request or
 * when retention forgets the session, each removal kept in the session's record.
 */
export class SessionWorktrees {
  readonly #worktrees: Worktrees;
  readonly #diffs: WorktreeChanges;
  readonly #changes: Pick<SessionChanges, 'commit'>;
  readonly #clock: Clock;
  readonly #log: Logger;

  constructor(
    options: SessionWorktreesOptions,
    deps: { changes: Pick<SessionChanges, 'commit'>; clock: Clock; log: Logger },
  ) {
    const env = sessionEnvironment(options.env, options.secrets);
    const git = gitRunner(gitEnvironment(env));
    this.#worktrees = new Worktrees({ root: options.root, env, git });
    this.#diffs = new WorktreeChanges(git);
    this.#changes = deps.changes;
    this.#clock = deps.clock;
    this.#log = deps.log;
  }

  /** The record of a new session with its worktree made, and its cwd in it. */
  async make(record: SessionRecord, request: WorktreeRequest): Promise<SessionRecord> {
    const { worktree, cwd } = await this.#worktrees.create(record.cwd, request, record);
    this.#log.info(
      { sessionId: record.id, worktree: worktree.path, branch: worktree.branch },
      'worktree made',
    );
    return { ...record, cwd, worktree };
  }

  /**
   * Removes the session's worktree, if it has one still, and keeps what became of its branch in
   * its record. `ALWAYS` deletes the branch too: for a session whose claude never started.
   */
  async remove(record: SessionRecord, deletion: BranchDeletion = 'IF_MERGED'): Promise<void> {
    const worktree = record.worktree;
    if (worktree === null || worktree.removal !== null) return;
    worktree.removal = await this.#worktrees.remove(worktree, this.#clock.now(), deletion);
    this.#log.info(
      { sessionId: record.id, worktree: worktree.path, note: worktree.removal.note },
      'worktree removed',
    );
    this.#changes.commit(record);
  }

  /** Removes a worktree just made, with its branch, for a record the hub does not keep. */
  async undo(record: SessionRecord): Promise<void> {
    if (record.worktree === null) return;
    await this.#worktrees.remove(record.worktree, this.#clock.now(), 'ALWAYS');
  }

  /** Removes the worktrees of sessions retention forgets; a failure is logged. */
  forgotten(records: readonly SessionRecord[]): void {
    for (const record of records) {
      const worktree = record.worktree;
      if (worktree === null || worktree.removal !== null) continue;
      this.#worktrees.remove(worktree, this.#clock.now()).then(
        (removal) =>
          this.#log.info(
            { sessionId: record.id, worktree: worktree.path, note: removal.note },
            'worktree of a session past retention removed',
          ),
        (error: unknown) =>
          this.#log.warn(
            { sessionId: record.id, worktree: worktree.path, err: error },
            'worktree of a session past retention could not be removed',
          ),
      );
    }
  }

  /**
   * The session's whole change as a unified diff (see WorktreeChanges.diff): its worktree
   * against `base`, by default the commit the worktree started at; without a worktree, the
   * checkout its cwd is in against `base` or HEAD (NOT_A_REPOSITORY when in none).
   */
  async diff(record: SessionRecord, base: string | null): Promise<string> {
    const worktree = record.worktree;
    if (worktree === null) return this.#diffs.diff(record.cwd, base);
    this.checkRunnable(record);
    return this.#diffs.diff(worktree.path, base ?? worktree.base);
  }

  /** Commits everything changed in the session's worktree on its branch; returns the commit id. */
  async commit(record: SessionRecord, message: string): Promise<string> {
    const worktree = record.worktree;
    if (worktree === null) {
      throw new HubError(
        ErrorCode.NoWorktree,
        `session ${record.id} has no worktree of the hub's to commit in (createSession with worktree makes one)`,
        { sessionId: record.id },
      );
    }
    this.checkRunnable(record);
    const commit = await this.#diffs.commit(worktree.path, worktree.branch, message);
    this.#log.info({ sessionId: record.id, branch: worktree.branch, commit }, 'worktree committed');
    return commit;
  }

  /** WORKTREE_REMOVED when the session's worktree is gone: it cannot run there again. */
  checkRunnable(record: SessionRecord): void {
    const worktree = record.worktree;
    if (worktree === null) return;
    if (worktree.removal === null && existsSync(record.cwd)) return;
    const { removal } = worktree;
    const next = removal?.branchDeleted
      ? 'start a new session to go on'
      : `start a new session with worktree: { base: "${worktree.branch}" } to go on from its branch`;
    throw new HubError(
      ErrorCode.WorktreeRemoved,
      `session ${record.id} ran in the worktree ${worktree.path}, which was removed${
        removal ? ` (${removal.note})` : ''
      }; ${next}`,
      { sessionId: record.id },
    );
  }
}

/** The folder a client asked a worktree session for (in the main checkout), for --allowed-root. */
export function askedCwd(record: SessionRecord): string {
  const worktree = record.worktree;
  if (worktree === null) return record.cwd;
  const asked = path.join(worktree.repository, worktree.subfolder);
  return existsSync(asked) ? asked : worktree.repository;
}
