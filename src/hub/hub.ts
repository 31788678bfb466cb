import type { ChangeScope, FileChangeRecord } from '../changes/session-file-changes.js';
import type { EventLog } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import type {
  Decision,
  DecisionResult,
  PermissionRecord,
  PermissionStatus,
} from '../permissions/permission-request.js';
import type { MessageRecord } from '../sessions/message.js';
import type { DialogAnswer } from '../sessions/dialog-watch.js';
import type { EnqueueOptions } from '../sessions/message-queue.js';
import type { SessionStatus, SessionRecord } from '../sessions/session.js';
import type { AskOutcome, CreateSessionInput, StopOptions } from '../sessions/session-manager.js';
import type { TerminalChunk } from '../terminal/terminal-viewer.js';

/** A hub process in a cluster, as the API lists it. */
export interface NodeInfo {
  readonly name: string;
  /** Where the other nodes reach it. */
  readonly url: string;
  /** Its lease is current: it runs and reaches Redis. */
  readonly alive: boolean;
  /** The node that answers this request. */
  readonly self: boolean;
  readonly startedAt: number;
  /** Its sessions that are not STOPPED or CRASHED. */
  readonly liveSessions: number;
}

export interface CreateInput extends CreateSessionInput {
  /** The node to run it on; the answering one when absent. */
  readonly node?: string | null | undefined;
}

/**
 * Everything the GraphQL schema asks of the hub: one process (LocalHub) or a node of a cluster
 * (ClusterHub), which answers for every node's sessions and routes commands to their owners.
 */
export interface Hub {
  /** Every session, oldest first. */
  list(): SessionRecord[];
  get(id: string): SessionRecord | undefined;
  /** The session, or SESSION_NOT_FOUND. */
  require(id: string): SessionRecord;
  /** What clients see as its status (AWAITING_PERMISSION, UNREACHABLE are derived). */
  statusOf(record: SessionRecord): SessionStatus;
  /** The node it runs on; null on a hub that is not in a cluster. */
  nodeOf(record: SessionRecord): string | null;
  screen(record: SessionRecord): Promise<string>;
  /** Its change as a unified diff against `base` (see SessionWorktrees.diff). */
  diff(record: SessionRecord, base: string | null): Promise<string>;
  /** Its changed files, of one turn or since a time (see SessionFileChanges). */
  changes(record: SessionRecord, scope: ChangeScope): Promise<FileChangeRecord[]>;
  /** Null for a session without a terminal. */
  attachCommand(record: SessionRecord): string | null;
  pendingPermissions(sessionId: string): PermissionRecord[];
  permissionRequests(status?: PermissionStatus | null): PermissionRecord[];
  messages(sessionId: string, last: number): MessageRecord[];
  nodes(): NodeInfo[];

  /** Stored events of any session. */
  readonly log: Pick<EventLog, 'read'>;
  sessionEvents(sessionId: string, after: number | null): AsyncGenerator<StoredEvent>;
  /** Every session's changes, or with `only`, that session's. */
  sessionUpdates(only?: string): AsyncGenerator<SessionRecord>;
  /** Every session's changes in batches, at most one every `everyMs` (see LatestBatches). */
  sessionUpdateBatches(everyMs: number): AsyncGenerator<readonly SessionRecord[]>;
  permissionChanges(): AsyncGenerator<PermissionRecord>;

  create(input: CreateInput): Promise<SessionRecord>;
  resume(id: string): Promise<SessionRecord>;
  /** Ends the session; with `removeWorktree`, removes its worktree too (see SessionManager.stop). */
  stop(id: string, options?: StopOptions): Promise<SessionRecord>;
  interrupt(id: string): Promise<SessionRecord>;
  /** Commits the changes in its worktree on its branch; the commit id (see SessionWorktrees.commit). */
  commitWorktree(id: string, message: string): Promise<string>;
  sendKeys(id: string, keys: readonly string[]): Promise<SessionRecord>;
  /** Answers the dialog on the session's screen; NO_DIALOG when it shows none. */
  answerDialog(id: string, answer: DialogAnswer): Promise<SessionRecord>;
  /** Takes a person's tmux client (by name or tty; the one active last when null) to its pane. */
  focus(id: string, client: string | null): Promise<SessionRecord>;
  /** Replaces the session's labels; BAD_USER_INPUT for a label checkLabels refuses. */
  setLabels(id: string, labels: readonly string[]): Promise<SessionRecord>;
  /** The session's terminal: a snapshot, then every change (see Terminals.view). */
  terminal(id: string): AsyncIterableIterator<TerminalChunk>;
  /** Types a person's input into the session's terminal, byte for byte. */
  terminalInput(id: string, data: string, paste: boolean): Promise<void>;
  /** Sizes the session's window for its viewers; false when a person's tmux client decides. */
  resizeTerminal(id: string, cols: number, rows: number): Promise<boolean>;
  /** Queues text; from a channel, it is typed below a header naming the channel. */
  enqueue(
    id: string,
    text: string,
    channel?: string | null,
    options?: EnqueueOptions,
  ): Promise<MessageRecord>;
  ask(id: string, text: string, timeoutMs: number, channel?: string | null): Promise<AskOutcome>;
  decide(decision: Decision): Promise<DecisionResult>;
}
