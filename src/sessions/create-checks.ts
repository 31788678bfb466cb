import { budgetProblem } from '../costs/budgets.js';
import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { describeValue, ErrorCode, HubError } from '../errors.js';
import { checkWorktreeRequest, type WorktreeRequest } from '../git/worktrees.js';
import { RuntimeKind, SessionOrigin } from '../runtime/session-runtime.js';
import { checkMessageText, MessageKind } from './message-text.js';
import {
  freshLifecycle,
  SessionStatus,
  type Orchestration,
  type SessionRecord,
} from './session.js';
import type { SessionIndex } from './session-index.js';
import { hasConversation } from './session-launch.js';
import { checkLabels } from './session-labels.js';
import { resumeId, transcriptPathFor } from './transcript.js';

export interface CreateSessionInput {
  readonly id?: string | null | undefined;
  readonly cwd: string;
  readonly name?: string | null | undefined;
  readonly model?: string | null | undefined;
  readonly permissionMode?: string | null | undefined;
  readonly prompt?: string | null | undefined;
  /** Answer claude's workspace-trust dialog with "Yes, I trust this folder". */
  readonly trustWorkspace?: boolean | null | undefined;
  /** Continue this conversation of claude's in cwd: its id or its resume line. */
  readonly resume?: string | null | undefined;
  /** How claude runs; the hub's default runtime when absent. */
  readonly runtime?: RuntimeKind | null | undefined;
  /** Checked by checkLabels; none when absent. */
  readonly labels?: readonly string[] | null | undefined;
  /** The name of the token that asked for it (`local` without tokens). */
  readonly createdBy?: string | null | undefined;
  /** What the session may spend, in US dollars; none when absent. */
  readonly budgetUsd?: number | null | undefined;
  /** Run claude in a new git worktree of cwd's repository, on a branch of its own. */
  readonly worktree?: WorktreeRequest | null | undefined;
  /** The session that starts it with the start_session tool. */
  readonly parentId?: string | null | undefined;
  /** Offer it the hub's orchestration tools, with this grant. */
  readonly orchestration?: Orchestration | null | undefined;
}

export interface CreateLimits {
  /** Directories a cwd must lie in, symlinks resolved; empty allows any. */
  readonly allowedRoots: readonly string[];
  /** Sessions that may be live at once. */
  readonly maxSessions: number;
  /** How a session runs when createSession does not say. */
  readonly defaultRuntime: RuntimeKind;
  readonly dataDir: string;
  /** The hub's environment: where claude keeps its transcripts. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The record of a session createSession may start, or the typed error that says why not: its
 * id (new, given, or the conversation resumed), its folder, the allowed roots, the session
 * limit, the prompt's text, and the conversation to resume.
 */
export function newSession(
  input: CreateSessionInput,
  limits: CreateLimits,
  index: SessionIndex,
  now: number,
): { record: SessionRecord; resumed: boolean } {
  const resumed = input.resume == null ? null : resumeId(input.resume);
  if (input.resume != null && resumed === null) {
    throw new HubError(
      ErrorCode.BadInput,
      `resume must be a Claude session id or its resume line (claude --resume <id>), got ${describeValue(input.resume)}`,
    );
  }
  if (resumed !== null && input.id != null && input.id.toLowerCase() !== resumed) {
    throw new HubError(ErrorCode.BadInput, 'give id or resume, not two different ids');
  }
  if (resumed !== null && input.worktree != null) {
    throw new HubError(
      ErrorCode.BadInput,
      'give resume or worktree, not both: a conversation continues in the folder it had',
    );
  }
  if (input.worktree != null) checkWorktreeRequest(input.worktree);
  const id = (resumed ?? input.id ?? randomUUID()).toLowerCase();
  if (!uuidPattern.test(id)) {
    throw new HubError(ErrorCode.BadInput, `id must be a UUID, got ${describeValue(input.id)}`);
  }
  if (index.taken(id)) {
    throw new HubError(ErrorCode.SessionExists, `a session with id ${id} exists already`);
  }
  const cwd = path.resolve(input.cwd);
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new HubError(
      ErrorCode.BadInput,
      `cwd must be an existing directory, got ${describeValue(input.cwd)}`,
    );
  }
  checkAllowedRoot(cwd, limits.allowedRoots);
  checkSessionLimit(index, limits.maxSessions);
  const labels = checkLabels(input.labels ?? []);
  const budgetUsd = input.budgetUsd ?? null;
  const budget = budgetUsd === null ? null : budgetProblem(budgetUsd);
  if (budget !== null)
    throw new HubError(ErrorCode.BadInput, `budgetUsd ${budget}`, { field: 'budgetUsd' });
  if (input.prompt !== undefined && input.prompt !== null) {
    checkMessageText(input.prompt, 'prompt', MessageKind.Prompt);
  }
  const transcriptPath = resumed === null ? null : transcriptPathFor(limits.env, cwd, id);
  if (transcriptPath !== null && !hasConversation(transcriptPath)) {
    throw new HubError(
      ErrorCode.ConversationNotFound,
      `claude has no conversation ${id} in ${cwd} (no ${transcriptPath})`,
    );
  }
  const record: SessionRecord = {
    id,
    name: input.name ?? null,
    cwd,
    model: input.model ?? null,
    permissionMode: input.permissionMode ?? null,
    runtime: input.runtime ?? limits.defaultRuntime,
    origin: SessionOrigin.Managed,
    pane: null,
    pid: null,
    tmuxSession: index.tmuxName(id),
    settingsPath: path.join(limits.dataDir, 'sessions', `${id}.settings.json`),
    claudeSessionId: id,
    transcriptPath,
    status: SessionStatus.Starting,
    labels,
    createdBy: input.createdBy ?? null,
    worktree: null,
    budgetUsd,
    budgetHold: null,
    account: null,
    usageLimit: null,
    parentId: input.parentId ?? null,
    orchestration: input.orchestration ?? null,
    ...freshLifecycle(now),
  };
  return { record, resumed: resumed !== null };
}

/** The cwd, with symlinks and `..` resolved, must lie in an allowed root (when any is set). */
export function checkAllowedRoot(cwd: string, roots: readonly string[]): void {
  if (roots.length === 0) return;
  const real = realpathSync(cwd);
  const inside = roots.some((root) => {
    const realRoot = existsSync(root) ? realpathSync(root) : path.resolve(root);
    const prefix = realRoot.endsWith(path.sep) ? realRoot : `${realRoot}${path.sep}`;
    return real === realRoot || real.startsWith(prefix);
  });
  if (!inside) {
    throw new HubError(
      ErrorCode.CwdNotAllowed,
      `cwd ${real} is outside the allowed roots (${roots.join(', ')})`,
    );
  }
}

/** SESSION_LIMIT when --max-sessions sessions the hub started are live. */
export function checkSessionLimit(index: SessionIndex, maxSessions: number): void {
  const live = index.liveManaged();
  if (live >= maxSessions) {
    throw new HubError(
      ErrorCode.SessionLimit,
      `${live} sessions are live, the limit (--max-sessions); stop one first`,
    );
  }
}
