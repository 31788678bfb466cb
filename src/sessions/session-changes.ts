import type { Clock } from '../clock.js';
import type { EventBus } from '../events/event-bus.js';
import type { StoredEvent } from '../events/hook-event.js';
import { byId, Topic } from '../events/topic.js';
import type { RecordTable } from '../store/record-table.js';
import type { SessionRecord } from './session.js';

export interface CommitOptions {
  /** An event that entered the session's log: published to its stream after the record is saved. */
  readonly event?: StoredEvent;
  /** Whether the record changed (saved and published); false wakes the waiters only. */
  readonly changed?: boolean;
  /** The session ended for good: its stream ends after the record is published. */
  readonly ended?: boolean;
}

/**
 * The one place a change of a session is committed: the record saved, the event and the record
 * published, and whoever waits on the session woken to check again, always in that order.
 */
export class SessionChanges {
  /** Fires with a session whenever its status, pending permissions, last message or labels change. */
  readonly updates = new Topic<SessionRecord>(byId);
  readonly #store: RecordTable<SessionRecord>;
  readonly #bus: EventBus;
  readonly #clock: Clock;
  readonly #exists: (id: string) => boolean;
  /** Per session: checks run whenever it changes, for those waiting on it. */
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(deps: {
    store: RecordTable<SessionRecord>;
    bus: EventBus;
    clock: Clock;
    /** Whether a session is kept: waiting on one that is not resolves at once. */
    exists: (id: string) => boolean;
  }) {
    this.#store = deps.store;
    this.#bus = deps.bus;
    this.#clock = deps.clock;
    this.#exists = deps.exists;
  }

  /** Saves and publishes a changed session (and the event that changed it), then wakes. */
  commit(
    record: SessionRecord,
    { event, changed = true, ended = false }: CommitOptions = {},
  ): void {
    if (changed) this.#store.save(record);
    if (event) this.#bus.publish(record.id, { kind: 'event', event });
    if (changed) this.updates.publish(record);
    if (ended) this.#bus.publish(record.id, { kind: 'end' });
    this.wake(record.id);
  }

  /** Runs the checks of those waiting on a session (a message it queued changed, say). */
  wake(id: string): void {
    for (const check of [...(this.#waiters.get(id) ?? [])]) check();
  }

  /**
   * Resolves when `done()` holds, checked on every change of the session, or after `timeoutMs`;
   * at once for a session that is not kept.
   */
  waitFor(id: string, done: () => boolean, timeoutMs: number): Promise<void> {
    if (!this.#exists(id) || done()) return Promise.resolve();
    return new Promise((resolve) => {
      let waiters = this.#waiters.get(id);
      if (!waiters) this.#waiters.set(id, (waiters = new Set()));
      const set = waiters;
      const finish = () => {
        cancel();
        set.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const cancel = this.#clock.after(timeoutMs, finish);
      set.add(check);
    });
  }

  /** Forgets the waiters of sessions no longer kept. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.#waiters.delete(id);
  }
}
