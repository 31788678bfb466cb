import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { PermissionRecord } from '../permissions/permission-request.js';
import type { MessageRecord } from '../sessions/message.js';
import { withStoredDefaults, type SessionRecord } from '../sessions/session.js';
import type { RecordKind, RedisKeys } from './redis-keys.js';

/** A record as its owner publishes it: what any node needs to answer for it. */
export interface RecordView {
  readonly id: string;
  /** The node that owns the record. */
  readonly node: string;
}

/** A session as its owner shares it: the record, with what only the owner can work out. */
export interface SessionView extends SessionRecord, RecordView {
  readonly attachCommand: string | null;
  /** The seq of its last stored event when the view was made. */
  readonly lastSeq: number;
  /** What its kept turns cost on its node (Session.costUsd); null before any. */
  readonly costUsd: number | null;
}
export type PermissionView = PermissionRecord & RecordView;
export type MessageView = MessageRecord & RecordView;

export interface RecordChange {
  readonly kind: RecordKind;
  readonly view: RecordView;
}

const kinds: readonly RecordKind[] = ['sessions', 'permissions', 'messages'];

/** A view as another node wrote it: a session's, written by an earlier version, gets the fields added since. */
function arrived(kind: RecordKind, view: RecordView): RecordView {
  return kind === 'sessions' ? withStoredDefaults(view as SessionView) : view;
}

/**
 * Shares records (sessions, permission requests, messages) between nodes. The owner writes its
 * view of a record to a Redis hash and announces it on a channel; every node keeps the other
 * nodes' views in memory, so queries need no round trip. Changes of one turn of the event loop
 * go in one pipeline. When Redis comes back, each node writes all of its views again (Redis may
 * have lost them) and reads everyone else's afresh.
 */
export class RecordMirror {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #keys: RedisKeys;
  readonly #self: string;
  readonly #log: Logger;
  readonly #remote = new Map<RecordKind, Map<string, RecordView>>(
    kinds.map((kind) => [kind, new Map()]),
  );
  /** Local records changed since the last write, by kind and id: their views are made at write time. */
  readonly #pending = new Map<string, { kind: RecordKind; view: () => RecordView }>();
  readonly #writes = new Set<Promise<void>>();
  #scheduled = false;
  readonly #changed: (change: RecordChange) => void;
  #localViews: () => Iterable<RecordChange> = () => [];

  constructor(
    deps: { redis: Redis; subscriber: Redis; keys: RedisKeys; self: string; log: Logger },
    changed: (change: RecordChange) => void,
  ) {
    this.#redis = deps.redis;
    this.#subscriber = deps.subscriber;
    this.#keys = deps.keys;
    this.#self = deps.self;
    this.#log = deps.log;
    this.#changed = changed;
  }

  /** Starts following other nodes' changes and publishes every local record. */
  async start(localViews: () => Iterable<RecordChange>): Promise<void> {
    this.#localViews = localViews;
    // The subscriber carries other channels too (the rules').
    this.#subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.#keys.changes) this.#received(text);
    });
    await this.#subscriber.subscribe(this.#keys.changes);
    await this.#resync();
    this.#redis.on('ready', () => {
      this.#resync().catch((error: unknown) =>
        this.#log.warn({ err: error }, 'records not shared again yet'),
      );
    });
  }

  /** The other nodes' views of one kind. */
  remote<T extends RecordView>(kind: RecordKind): ReadonlyMap<string, T> {
    return this.#remote.get(kind) as Map<string, T>;
  }

  /** A view another node returned (a session it just created), until its announcement arrives. */
  learn(kind: RecordKind, view: RecordView): void {
    const views = this.#remote.get(kind)!;
    if (!views.has(view.id)) views.set(view.id, arrived(kind, view));
  }

  /** A local record changed; its view is made when it is written. */
  changed(kind: RecordKind, id: string, view: () => RecordView): void {
    this.#pending.set(`${kind}:${id}`, { kind, view });
    this.#schedule();
  }

  /** Resolves once every change so far is written (or failed to be). */
  async written(): Promise<void> {
    this.flush();
    await Promise.all(this.#writes);
  }

  /**
   * Sends the changes made so far now. Commands on one connection run in the order sent, so an
   * event copied to its stream after this call comes after these changes in Redis.
   */
  flush(): void {
    if (this.#pending.size === 0 || this.#redis.status !== 'ready') return;
    const write = this.#write();
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
  }

  /**
   * Resolves once every change announced before the call has been applied here: a reply on the
   * subscriber connection comes after the messages published before it.
   */
  async caughtUp(): Promise<void> {
    await this.#subscriber.ping().catch(() => undefined);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.flush();
    });
  }

  async #write(): Promise<void> {
    const batch = [...this.#pending];
    this.#pending.clear();
    const pipeline = this.#redis.pipeline();
    for (const [, { kind, view }] of batch) {
      const change: RecordChange = { kind, view: view() };
      pipeline.hset(this.#keys.records(kind), change.view.id, JSON.stringify(change.view));
      pipeline.publish(this.#keys.changes, JSON.stringify(change));
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([error]) => error);
      if (failed) throw failed[0];
    } catch (error) {
      // Kept for the resync that follows Redis' return, unless changed again meanwhile.
      for (const [key, item] of batch) if (!this.#pending.has(key)) this.#pending.set(key, item);
      this.#log.warn({ err: error }, 'record changes not shared yet');
    }
  }

  async #resync(): Promise<void> {
    for (const change of this.#localViews()) {
      const { kind, view } = change;
      this.#pending.set(`${kind}:${view.id}`, { kind, view: () => view });
    }
    this.#schedule();
    for (const kind of kinds) {
      const all = await this.#redis.hgetall(this.#keys.records(kind));
      const views = this.#remote.get(kind)!;
      // Merged, not replaced: an owner that has not written its views again yet keeps its old ones.
      for (const text of Object.values(all)) {
        const view = arrived(kind, JSON.parse(text) as RecordView);
        if (view.node === this.#self) continue;
        views.set(view.id, view);
        this.#changed({ kind, view });
      }
    }
  }

  #received(text: string): void {
    let change: RecordChange;
    try {
      change = JSON.parse(text) as RecordChange;
    } catch {
      return;
    }
    if (change.view.node === this.#self || !this.#remote.has(change.kind)) return;
    const view = arrived(change.kind, change.view);
    this.#remote.get(change.kind)!.set(view.id, view);
    this.#changed({ kind: change.kind, view });
  }
}
