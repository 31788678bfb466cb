import { systemClock, type Clock } from '../clock.js';
import type { EventBus } from '../events/event-bus.js';
import type { EventLog } from '../events/event-log.js';
import type { Logger } from '../log.js';
import type { PermissionBroker } from '../permissions/permission-broker.js';
import type { SessionRuntime } from '../runtime/session-runtime.js';
import type { RecordTable } from '../store/record-table.js';
import { DialogWatch, inTurn } from './dialog-watch.js';
import { EventIntake } from './event-intake.js';
import { HookRouting } from './hook-routing.js';
import { HookUrls } from './hook-urls.js';
import type { MessageRecord } from './message.js';
import { MessageQueue, type MessageQueueOptions, type SessionPort } from './message-queue.js';
import { PermissionOutcomes } from './permission-outcomes.js';
import type { SessionRecord } from './session.js';
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
}

export interface SessionPartsOptions extends LaunchOptions, SupervisionOptions {
  readonly messages: Omit<MessageQueueOptions, 'changed' | 'clock'>;
  /**
   * Whether a hook call's secret, by its hex SHA-256, is one of the hub's hook tokens (the
   * installed global hooks): the secret is hashed once per call, for both look-ups.
   */
  readonly isHookToken: (secretSha256: string) => boolean;
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

/**
 * Builds the parts of the sessions, each given only the parts it uses (construction only: no
 * I/O). `stopping` holds the sessions being stopped; `port` is what the message queue needs.
 */
export function sessionParts(
  options: SessionPartsOptions,
  deps: SessionDeps,
  stopping: ReadonlySet<string>,
  port: SessionPort,
): SessionParts {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const { runtime, bus, store, permissions } = deps;
  const index = new SessionIndex();
  const changes = new SessionChanges({ store, bus, clock });
  const messages = new MessageQueue(
    { ...options.messages, changed: (message) => changes.wake(message.sessionId), clock },
    port,
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
  const ending = new SessionEnding({ intake, changes, dialogs, permissions, hookUrls, clock, log });
  const common = { runtime, index, changes, ending, hookUrls, clock, log };
  const launcher = new Launcher(options, common);
  const routing = new HookRouting({
    ...common,
    intake,
    permissions,
    isHookToken: options.isHookToken,
    env: options.env,
  });
  const supervision = new Supervision(options, { ...common, launcher, intake, dialogs, stopping });
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
