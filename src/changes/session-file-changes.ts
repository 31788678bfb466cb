import { ErrorCode, HubError } from '../errors.js';
import { stringField } from '../events/hook-event.js';
import type { DiffBounds, TreeSnapshots } from '../git/tree-snapshots.js';
import type { Logger } from '../log.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { Action } from '../runs/action.js';
import type { ReadEvents, TurnIndex } from '../runs/turn-index.js';
import { approvalOf, type PermissionDecisionSource } from './approvals.js';
import type { ChangeMark, ChangeMarks } from './change-marks.js';
import { editChanges, type ChangedFile } from './edit-changes.js';
import { gitChanges } from './git-changes.js';
import type { MarkedSession, WorkTreeMarks } from './work-tree-marks.js';

/** A changed file: its diff, the calls that changed it, and how each of those was allowed. */
export interface FileChangeRecord extends ChangedFile {
  /** One per action, in the same order. */
  readonly approvedBy: readonly PermissionDecisionSource[];
}

/** Which changes: one turn's, or a session's since a time (null: since it began). */
export type ChangeScope = { readonly turnId: string } | { readonly since: number | null };

export interface SessionFileChangesDeps {
  readonly marks: Pick<WorkTreeMarks, 'top' | 'now'>;
  readonly store: Pick<ChangeMarks, 'atOrBefore' | 'atOrBeforeTime' | 'between' | 'first'>;
  readonly snapshots: Pick<TreeSnapshots, 'changes' | 'changed'>;
  readonly turns: Pick<TurnIndex, 'turns' | 'actionsOf'>;
  readonly read: ReadEvents;
  /** The session's permission requests, decided or not. */
  readonly permissions: (sessionId: string) => readonly PermissionRecord[];
  readonly bounds: DiffBounds;
  readonly log: Logger;
}

/** The most of one file's diff a FileChange holds, in characters. */
export const maxFileDiffChars = 100_000;

const page = 1000;
const lastSeq = Number.MAX_SAFE_INTEGER;

/**
 * A session's file changes, by turn or since a time. In a git checkout they come from the
 * session's marks (WorkTreeMarks): every change, a shell command's too; elsewhere, or where
 * the marks are missing (a session older than them) or git has pruned their trees, from its
 * file tools' inputs.
 */
export class SessionFileChanges {
  readonly #deps: SessionFileChangesDeps;

  constructor(deps: SessionFileChangesDeps) {
    this.#deps = deps;
  }

  async changes(session: MarkedSession, scope: ChangeScope): Promise<FileChangeRecord[]> {
    if ('turnId' in scope) return this.#ofTurn(session, scope.turnId);
    return this.#since(session, scope.since);
  }

  async #ofTurn(session: MarkedSession, turnId: string): Promise<FileChangeRecord[]> {
    const turn = (await this.#deps.turns.turns(session.id)).find(({ id }) => id === turnId);
    if (!turn) {
      throw new HubError(ErrorCode.NotFound, `session ${session.id} has no turn ${turnId}`, {
        sessionId: session.id,
      });
    }
    const startSeq = Number(turnId.slice(turnId.lastIndexOf(':') + 1));
    const actions = [...(await this.#deps.turns.actionsOf(session.id, turnId)).values()];
    const from = this.#deps.store.atOrBefore(session.id, startSeq);
    return this.#changes(session, { from, endSeq: turn.completedSeq, startSeq }, actions);
  }

  async #since(session: MarkedSession, since: number | null): Promise<FileChangeRecord[]> {
    const { store, turns } = this.#deps;
    const from =
      (since === null ? null : store.atOrBeforeTime(session.id, since)) ?? store.first(session.id);
    const start = from?.at ?? since ?? 0;
    const actions: Action[] = [];
    for (const turn of await turns.turns(session.id)) {
      if (turn.completedAt !== null && turn.completedAt < start) continue;
      actions.push(...(await turns.actionsOf(session.id, turn.id)).values());
    }
    const sinceThen = actions.filter((action) => action.startedAt >= start);
    return this.#changes(session, { from, endSeq: null, startSeq: from?.seq ?? 0 }, sinceThen);
  }

  /**
   * From the mark `from` to the mark at `endSeq` (null: to the work tree now); the calls'
   * PreToolUse events come after `startSeq`.
   */
  async #changes(
    session: MarkedSession,
    span: { from: ChangeMark | null; endSeq: number | null; startSeq: number },
    actions: readonly Action[],
  ): Promise<FileChangeRecord[]> {
    const files =
      (await this.#gitFiles(session, span.from, span.endSeq, actions)) ??
      editChanges(actions, session.cwd, this.#deps.bounds.perFile);
    if (files.length === 0) return [];
    const modes = await this.#modes(session.id, span.startSeq, actions);
    const records = this.#deps.permissions(session.id);
    return files.map((file) => ({
      ...file,
      approvedBy: file.actions.map((action) =>
        approvalOf(action, modes.get(action.id) ?? null, records),
      ),
    }));
  }

  async #gitFiles(
    session: MarkedSession,
    from: ChangeMark | null,
    endSeq: number | null,
    actions: readonly Action[],
  ): Promise<ChangedFile[] | null> {
    if (from === null) return null;
    const { marks, store, snapshots, bounds } = this.#deps;
    const top = await marks.top(session);
    if (top === null) return null;
    const between = store.between(session.id, from.seq, endSeq ?? lastSeq);
    if (endSeq === null) {
      const now = await marks.now(session).catch(() => null);
      if (now !== null) between.push({ seq: lastSeq, tree: now.tree, at: Date.now() });
    }
    try {
      return await gitChanges(snapshots, { top, from, marks: between }, actions, bounds);
    } catch (error) {
      // Its trees are gone (git pruned them, or the checkout was replaced).
      this.#deps.log.warn(
        { sessionId: session.id, err: error },
        "the session's work tree snapshots could not be read: its changes come from its file tools' inputs",
      );
      return null;
    }
  }

  /** The permission mode claude was in at each call, from its PreToolUse. */
  async #modes(
    sessionId: string,
    startSeq: number,
    actions: readonly Action[],
  ): Promise<Map<string, string>> {
    const modes = new Map<string, string>();
    const wanted = new Set(actions.map((action) => action.id));
    const end = Math.max(...actions.map((action) => action.seq));
    let after = Math.max(0, startSeq - 1);
    for (;;) {
      const events = await this.#deps.read(sessionId, {
        after,
        names: ['PreToolUse'],
        limit: page,
      });
      for (const event of events) {
        const id = stringField(event.payload, 'tool_use_id');
        const mode = stringField(event.payload, 'permission_mode');
        if (id !== undefined && mode !== undefined && wanted.has(id)) modes.set(id, mode);
        after = event.seq;
      }
      if (events.length < page || after >= end || modes.size === wanted.size) return modes;
    }
  }
}
