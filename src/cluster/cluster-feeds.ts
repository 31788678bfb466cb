import { ErrorCode, HubError } from '../errors.js';
import type { BusListener } from '../events/event-bus.js';
import type { EventLog } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import { byId, Topic } from '../events/topic.js';
import type { Logger } from '../log.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import { SessionStatus, type SessionRecord } from '../sessions/session.js';
import { sessionEvents } from '../subscriptions/session-events.js';
import type { LocalParts } from './local-parts.js';
import type { NodeState } from './node-registry.js';
import type { PermissionView, RecordChange, SessionView } from './record-mirror.js';
import type { StreamWatcher } from './stream-watcher.js';

export interface FeedDeps {
  readonly local: LocalParts;
  /** Reads a session's stored events, wherever it runs. */
  readonly log: Pick<EventLog, 'read'>;
  /** Follows the event streams of other nodes' sessions. */
  readonly watcher: StreamWatcher;
  readonly isLocal: (sessionId: string) => boolean;
  readonly remoteSessions: () => ReadonlyMap<string, SessionView>;
  /** Updates a subscriber may fall behind by before it is ended with SUBSCRIBER_TOO_SLOW. */
  readonly subscriberBuffer: number;
  readonly logger: Logger;
}

/**
 * What the subscribers of this node see of the whole cluster: a session's events from the node
 * that runs it, and the changes of every node's sessions and permission requests.
 */
export class ClusterFeeds {
  readonly #deps: FeedDeps;
  readonly #updates = new Topic<SessionRecord>(byId);
  readonly #permissionChanges = new Topic<PermissionRecord>(byId);

  constructor(deps: FeedDeps) {
    this.#deps = deps;
  }

  sessionEvents(sessionId: string, after: number | null): AsyncGenerator<StoredEvent> {
    const { local: parts, watcher, isLocal, remoteSessions } = this.#deps;
    const local = isLocal(sessionId);
    return sessionEvents(
      {
        ...parts.streamOptions,
        log: this.#deps.log,
        bus: local
          ? parts.bus
          : {
              subscribe: (id, listener: BusListener) => watcher.subscribe(id, listener),
              publish: () => undefined,
            },
        liveFrom: (id) => (local ? parts.eventLog.lastSeq(id) : watcher.liveFrom(id)),
        isEnded: (id, delivered) => {
          if (local) return parts.sessions.isEnded(id);
          const view = remoteSessions().get(id);
          return view?.status === SessionStatus.Stopped && delivered >= view.lastSeq;
        },
      },
      sessionId,
      after,
    );
  }

  sessionUpdates(only?: string): AsyncGenerator<SessionRecord> {
    const options = { conflate: true, only };
    return this.#updates.stream(this.#deps.subscriberBuffer, this.#overflow, options);
  }

  sessionUpdateBatches(everyMs: number): AsyncGenerator<readonly SessionRecord[]> {
    return this.#updates.batches(everyMs);
  }

  permissionChanges(): AsyncGenerator<PermissionRecord> {
    const options = { conflate: true };
    return this.#permissionChanges.stream(this.#deps.subscriberBuffer, this.#overflow, options);
  }

  readonly #overflow = () =>
    new HubError(
      ErrorCode.SubscriberTooSlow,
      `subscriber fell more than ${this.#deps.subscriberBuffer} updates behind; subscribe again`,
    );

  /** A session of any node changed. */
  sessionChanged(record: SessionRecord): void {
    this.#updates.publish(record);
  }

  /** A permission request of any node changed. */
  permissionChanged(request: PermissionRecord): void {
    this.#permissionChanges.publish(request);
  }

  /** A record of another node changed; a stopped session's event stream ends at its last seq. */
  remoteChanged({ kind, view }: RecordChange): void {
    if (kind === 'sessions') {
      const session = view as SessionView;
      this.#deps.watcher.sessionChanged(
        session.id,
        session.status === SessionStatus.Stopped,
        session.lastSeq,
      );
      this.sessionChanged(session);
    } else if (kind === 'permissions') {
      this.permissionChanged(view as PermissionView);
    }
  }

  /** A node came or went: its sessions' status changes with it. */
  nodeChanged(before: NodeState | undefined, after: NodeState | undefined): void {
    const name = (after ?? before)!.name;
    const alive = after?.alive ?? false;
    this.#deps.logger.info({ node: name, alive }, alive ? 'node is up' : 'node is down');
    for (const view of this.#deps.remoteSessions().values()) {
      if (view.node === name) this.sessionChanged(view);
    }
  }
}
