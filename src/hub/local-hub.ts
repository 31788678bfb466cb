import { checkLabels } from '../sessions/session-labels.js';
import type {
  ChangeScope,
  FileChangeRecord,
  SessionFileChanges,
} from '../changes/session-file-changes.js';
import { ErrorCode, HubError } from '../errors.js';
import type { EventLog } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Topic } from '../events/topic.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type {
  Decision,
  DecisionResult,
  PermissionRecord,
  PermissionStatus,
} from '../permissions/permission-request.js';
import type { DialogAnswer } from '../sessions/dialog-watch.js';
import type { MessageRecord } from '../sessions/message.js';
import type { EnqueueOptions } from '../sessions/message-queue.js';
import type { SessionRecord, SessionStatus } from '../sessions/session.js';
import type { AskOutcome, SessionManager, StopOptions } from '../sessions/session-manager.js';
import type { TerminalChunk } from '../terminal/terminal-viewer.js';
import type { Terminals } from '../terminal/terminals.js';
import type { CreateInput, Hub, NodeInfo } from './hub.js';

export interface LocalHubDeps {
  readonly sessions: SessionManager;
  readonly permissions: PermissionBroker;
  readonly changes: Pick<SessionFileChanges, 'changes'>;
  readonly log: EventLog;
  readonly events: (sessionId: string, after: number | null) => AsyncGenerator<StoredEvent>;
  readonly permissionChanges: Topic<PermissionRecord>;
  readonly terminals: Terminals;
  /** Updates a subscriber may fall behind by before it is dropped. */
  readonly subscriberBuffer: number;
}

/** The hub of one process: every session runs here. */
export class LocalHub implements Hub {
  readonly #deps: LocalHubDeps;
  readonly log: EventLog;

  constructor(deps: LocalHubDeps) {
    this.#deps = deps;
    this.log = deps.log;
  }

  get #sessions(): SessionManager {
    return this.#deps.sessions;
  }

  list(): SessionRecord[] {
    return this.#sessions.list();
  }
  get(id: string): SessionRecord | undefined {
    return this.#sessions.get(id);
  }
  require(id: string): SessionRecord {
    return this.#sessions.require(id);
  }
  statusOf(record: SessionRecord): SessionStatus {
    return this.#sessions.statusOf(record);
  }
  nodeOf(): string | null {
    return null;
  }
  screen(record: SessionRecord): Promise<string> {
    return this.#sessions.screen(record);
  }
  diff(record: SessionRecord, base: string | null): Promise<string> {
    return this.#sessions.worktrees.diff(record, base);
  }
  changes(record: SessionRecord, scope: ChangeScope): Promise<FileChangeRecord[]> {
    return this.#deps.changes.changes(record, scope);
  }
  attachCommand(record: SessionRecord): string | null {
    return this.#sessions.attachCommand(record);
  }
  pendingPermissions(sessionId: string): PermissionRecord[] {
    return this.#deps.permissions.pending(sessionId);
  }
  permissionRequests(status?: PermissionStatus | null): PermissionRecord[] {
    return this.#deps.permissions.list(status);
  }
  messages(sessionId: string, last: number): MessageRecord[] {
    return this.#sessions.messages.list(sessionId, last);
  }
  nodes(): NodeInfo[] {
    return [];
  }

  sessionEvents(sessionId: string, after: number | null): AsyncGenerator<StoredEvent> {
    return this.#deps.events(sessionId, after);
  }
  sessionUpdates(only?: string): AsyncGenerator<SessionRecord> {
    const limit = this.#deps.subscriberBuffer;
    return this.#sessions.updates.stream(limit, this.#overflow, { conflate: true, only });
  }
  sessionUpdateBatches(everyMs: number): AsyncGenerator<readonly SessionRecord[]> {
    return this.#sessions.updates.batches(everyMs);
  }
  permissionChanges(): AsyncGenerator<PermissionRecord> {
    return this.#deps.permissionChanges.stream(this.#deps.subscriberBuffer, this.#overflow, {
      conflate: true,
    });
  }
  readonly #overflow = () =>
    new HubError(
      ErrorCode.SubscriberTooSlow,
      `subscriber fell more than ${this.#deps.subscriberBuffer} updates behind; subscribe again`,
    );

  create(input: CreateInput): Promise<SessionRecord> {
    if (input.node != null) {
      throw new HubError(
        ErrorCode.BadInput,
        'node names a cluster node, and this hub is not in a cluster (start it with --redis-url)',
      );
    }
    return this.#sessions.create(input);
  }
  resume(id: string): Promise<SessionRecord> {
    return this.#sessions.resume(id);
  }
  stop(id: string, options: StopOptions = {}): Promise<SessionRecord> {
    return this.#sessions.stop(id, options);
  }
  commitWorktree(id: string, message: string): Promise<string> {
    return this.#sessions.worktrees.commit(this.#sessions.require(id), message);
  }
  interrupt(id: string): Promise<SessionRecord> {
    return this.#sessions.interrupt(id);
  }
  sendKeys(id: string, keys: readonly string[]): Promise<SessionRecord> {
    return this.#sessions.sendKeys(id, keys);
  }
  answerDialog(id: string, answer: DialogAnswer): Promise<SessionRecord> {
    return this.#sessions.answerDialog(id, answer);
  }
  async focus(id: string, client: string | null): Promise<SessionRecord> {
    await this.#sessions.focus(id, client);
    return this.#sessions.require(id);
  }
  async setLabels(id: string, labels: readonly string[]): Promise<SessionRecord> {
    return this.#sessions.amend(id, (record) => (record.labels = checkLabels(labels)));
  }
  terminal(id: string): AsyncIterableIterator<TerminalChunk> {
    return this.#deps.terminals.view(id, this.#sessions.pane(id));
  }
  terminalInput(id: string, data: string, paste: boolean): Promise<void> {
    return this.#deps.terminals.input(id, this.#sessions.pane(id), data, paste);
  }
  resizeTerminal(id: string, cols: number, rows: number): Promise<boolean> {
    this.#sessions.pane(id);
    return this.#deps.terminals.resize(id, cols, rows);
  }
  async enqueue(
    id: string,
    text: string,
    channel: string | null = null,
    options: EnqueueOptions = {},
  ): Promise<MessageRecord> {
    return this.#sessions.enqueue(id, text, channel, options);
  }
  ask(
    id: string,
    text: string,
    timeoutMs: number,
    channel: string | null = null,
  ): Promise<AskOutcome> {
    return this.#sessions.ask(id, text, timeoutMs, channel);
  }
  async decide(decision: Decision): Promise<DecisionResult> {
    return this.#deps.permissions.decide(decision);
  }
}
