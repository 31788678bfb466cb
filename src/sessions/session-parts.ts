import { systemClock, type Clock } from '../clock.js';
import type { EventBus } from '../events/event-bus.js';
import type { EventLog } from '../events/event-log.js';
import type { Logger } from '../log.js';
import type { AuditRecord } from '../audit/audit-log.js';
import type { WorkTreeMarks } from '../changes/work-tree-marks.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import { Policy } from '../permissions/policy.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import type { RecordTable } from '../store/record-table.js';
import { DialogWatch, inTurn } from './dialog-watch.js';
import { EventIntake } from './event-intake.js';
import { HookRouting } from './hook-routing.js';
import { HookUrls } from './hook-urls.js';
import type { MessageRecord } from './message.js';
import { MessageQueue, type MessageQueueOptions, type SessionPort } from './message-queue.js';
import { PermissionOutcomes } from './permission-outcomes.js';
import { PolicyGate } from './policy-gate.js';
import { isRunning, type SessionRecord } from './session.js';
import { SessionChanges } from './session-changes.js';
import { SessionEnding } from './session-end.js';
import { SessionIndex } from './session-index.js';
import { Launcher, type LaunchOptions } from './session-launch.js';
import { enter, Move } from './session-lifecycle.js';
import { Supervision, type SupervisionOptions } from './session-supervision.js';

/** What the sessions are made of: stores, the event log and bus, the runtime, the permissions. */
export interface SessionDeps {
  readonly runtime: SessionRuntime;
  readonly log: EventLog;
  readonly bus: EventBus;
  readonly store: RecordTable<SessionRecord>;
  readonly messageStore: RecordTable<MessageRecord>;
  readonly permissions: PermissionBroker;
  /** The permission rules in force; none when absent. */
  readonly rules?: { readonly policy: Policy };
  /** Where a rule's decisions are audited; nowhere when absent. */
  readonly audit?: (entry: AuditRecord) => void;
  /** Snapshots of work trees for turns' changes; none taken when absent. */
  readonly marks?: Pick<WorkTreeMarks, 'after'>;
}

export interface SessionPartsOptions extends LaunchOptions, SupervisionOptions {
  readonly messages: Omit<MessageQueueOptions, 'changed' | 'clock'>;
  /**
   * Whether a hook call's secret, by its hex SHA-256, is one of the hub's hook tokens (the
   * installed global hooks): the secret is hashed once per call, for both look-ups.
   */
  readonly isHookToken: (secretSha256: string) => boolean;
  /** How long stopSession waits for claude's SessionEnd before giving up on it. */
  readonly stopTimeoutMs: number;
  /** When a person last typed into the session's terminal through the API (the browser). */
  readonly lastInput?: (id: string) => number | null;
  /** Whether something outside the sessions holds a session's queued messages (a budget). */
  readonly heldBack?: (id: string) => boolean;
  readonly log: Logger;
  readonly clock?: Clock;
}

export interface SessionParts {
  readonly clock: Clock;
  readonly index: SessionIndex;
  readonly changes: SessionChanges;
  readonly messages: MessageQueue;
  readonly dialogs: DialogWatch;
  readonly intake: EventIntake;
  readonly hookUrls: HookUrls;
  readonly ending: SessionEnding;
  readonly launcher: Launcher;
  readonly routing: HookRouting;
  readonly supervision: Supervision;
  readonly permissionOutcomes: PermissionOutcomes;
  /** The running turn ended without a Stop: marked interrupted, and the session is IDLE. */
  turnInterrupted(record: SessionRecord): Promise<void>;
}

/** Builds the parts of the sessions, each given only the parts it uses (no I/O). */
export function sessionParts(options: SessionPartsOptions, deps: SessionDeps): SessionParts {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const { runtime, bus, store, permissions } = deps;
  const index = new SessionIndex();
  const changes = new SessionChanges({
    store,
    bus,
    clock,
    exists: (id) => index.get(id) !== undefined,
  });
  const messages = new MessageQueue(
    { ...options.messages, changed: (message) => changes.wake(message.sessionId), clock },
    messagePort(options, deps, index, changes),
    deps.messageStore,
  );
  const turnInterrupted = async (record: SessionRecord): Promise<void> => {
    if (!inTurn(record)) return;
    await intake.endTurn(record, 'interrupted', null);
    enter(record, Move.TurnInterrupted, { at: clock.now() });
    changes.commit(record);
  };
  const dialogs = new DialogWatch({
    runtime,
    awaitingPermission: (id) => permissions.pending(id).length > 0,
    commit: (record) => changes.commit(record),
    turnInterrupted,
    clock,
    log,
  });
  const intake = new EventIntake({ log: deps.log, changes, dialogs, logger: log });
  const hookUrls = new HookUrls(() => index.values(), log);
  const ending = new SessionEnding({
    ...{ runtime, stopTimeoutMs: options.stopTimeoutMs },
    ...{ intake, changes, dialogs, permissions, hookUrls, clock, log },
  });
  const common = { runtime, index, changes, ending, hookUrls, clock, log };
  const launcher = new Launcher(options, common);
  const gate = new PolicyGate({
    rules: deps.rules ?? { policy: new Policy([]) },
    permissions,
    intake,
    audit: deps.audit ?? (() => undefined),
    log,
  });
  const routing = new HookRouting({
    ...common,
    intake,
    permissions,
    gate,
    ...(deps.marks && { marks: deps.marks }),
    isHookToken: options.isHookToken,
    env: options.env,
  });
  const supervision = new Supervision(options, { ...common, launcher, intake, dialogs });
  const permissionOutcomes = new PermissionOutcomes({ index, changes, intake, log });
  return {
    clock,
    index,
    changes,
    messages,
    dialogs,
    intake,
    hookUrls,
    ending,
    launcher,
    routing,
    supervision,
    permissionOutcomes,
    turnInterrupted,
  };
}

/** What the message queue needs of the sessions: their state, their screen, their input. */
function messagePort(
  options: SessionPartsOptions,
  { runtime, bus }: SessionDeps,
  index: SessionIndex,
  changes: SessionChanges,
): SessionPort {
  return {
    get: (id) => index.get(id),
    waitForChange: (id, done, timeoutMs) => changes.waitFor(id, done, timeoutMs),
    look: (id) => runtime.look(index.require(id)),
    lastTyped: async (id) => {
      const typed = await runtime.lastTyped(index.require(id));
      const input = options.lastInput?.(id) ?? null;
      return typed === null || input === null ? (typed ?? input) : Math.max(typed, input);
    },
    type: async (id, text, mode) => {
      const record = index.require(id);
      await runtime.waitForInput(record, options.startTimeoutMs, () => isRunning(record.status));
      await runtime.type(record, text, mode);
    },
    keys: (id, keys) => runtime.keys(index.require(id), keys),
    heldBack: (id) => options.heldBack?.(id) ?? false,
    events: (id, listener) =>
      bus.subscribe(id, (message) => {
        if (message.kind === 'event') listener(message.event);
      }),
  };
}
