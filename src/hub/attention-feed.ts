import type { ReadySource } from '../events/ready-source.js';
import type { Hub } from './hub.js';
import type { SessionRecord } from '../sessions/session.js';
import {
  attentionItemOf,
  attentionKey,
  byUrgency,
  type AttentionItem,
} from '../sessions/attention.js';

/** The attention queue after a change, and how it changed since the subscriber's last update. */
export interface AttentionUpdate {
  /** The whole queue, most urgent first. */
  readonly items: readonly AttentionItem[];
  /** The items new since the subscriber's previous update; none in the first. */
  readonly raised: readonly AttentionItem[];
  /** The items gone since the subscriber's previous update; none in the first. */
  readonly cleared: readonly AttentionItem[];
  /** The subscriber's first update: `items` is the queue its changes apply to. */
  readonly first: boolean;
}

/** What the feed reads of a hub. */
export type AttentionSource = Pick<
  Hub,
  'get' | 'list' | 'pendingPermissions' | 'sessionUpdates' | 'permissionChanges'
>;

/** One subscriber's updates not yet taken, and how to wake it (once). */
interface Subscriber {
  pending: AttentionUpdate[];
  wake: (() => void) | null;
}

function wakeUp(subscriber: Subscriber): void {
  const wake = subscriber.wake;
  subscriber.wake = null;
  wake?.();
}

/** Updates a subscriber may leave untaken before they are merged into one. */
const maxPending = 8;

/**
 * The attention queue, kept once for all of a hub's subscribers while it has any. A change of a
 * session or of a permission request recomputes that session's item only; when the queue
 * changed, one update (the queue, and the items raised and cleared) is made and handed to every
 * subscriber, so a hundred dashboards cost one computation and, their selections being the
 * same, one serialisation. The first change after a quiet period goes out at once; the changes
 * within `settleMs` after an update make the next one. Every `reconcileMs` the queue is read
 * again whole, for sessions forgotten (retention) and changes no feed tells of.
 */
export class AttentionFeed {
  readonly #hub: AttentionSource;
  readonly #settleMs: number;
  readonly #reconcileMs: number;
  readonly #subscribers = new Set<Subscriber>();
  /** Each waiting session's item, by session id. */
  readonly #items = new Map<string, AttentionItem>();
  /** What changed since the last update, by item key. */
  readonly #raised = new Map<string, AttentionItem>();
  readonly #cleared = new Map<string, AttentionItem>();
  /** The queue as the last update sent it: a new subscriber starts from it. */
  #sent: readonly AttentionItem[] = [];
  /** The first update of those who subscribe before the next one. */
  #first: AttentionUpdate | null = null;
  /** The merge of a run of updates, by the run's first update. */
  readonly #merges = new WeakMap<
    AttentionUpdate,
    { readonly last: AttentionUpdate; readonly update: AttentionUpdate }
  >();
  #lastSentAt = -Infinity;
  #sendTimer: NodeJS.Timeout | null = null;
  #reconcileTimer: NodeJS.Timeout | null = null;
  /** Ends the change feeds; set while the feed runs. */
  #stopSources: (() => void) | null = null;

  constructor(hub: AttentionSource, settleMs: number, reconcileMs = 10_000) {
    this.#hub = hub;
    this.#settleMs = settleMs;
    this.#reconcileMs = reconcileMs;
  }

  /**
   * The queue now, then an update after each change to it. return() ends it at once, also while
   * it waits for a change. A ReadySource too: a dashboard costs one wake-up per update, no promise.
   */
  subscribe(): AsyncIterableIterator<AttentionUpdate> & ReadySource<AttentionUpdate> {
    if (this.#subscribers.size === 0) this.#start();
    // Those who subscribe between two updates share their first one, and so their merges.
    this.#first ??= { items: this.#sent, raised: [], cleared: [], first: true };
    const me: Subscriber = { pending: [this.#first], wake: null };
    this.#subscribers.add(me);
    const leave = () => {
      if (!this.#subscribers.delete(me)) return;
      wakeUp(me);
      if (this.#subscribers.size === 0) this.#stop();
    };
    const done = { value: undefined, done: true } as const;
    const subscribed = () => this.#subscribers.has(me);
    const take = () =>
      me.pending.length > 0 && subscribed() ? this.#merged(me.pending.splice(0)) : undefined;
    return {
      takeReady: take,
      wakeWhenReady: (wake) => {
        if (me.pending.length > 0 || !subscribed()) return false;
        me.wake = wake;
        return true;
      },
      next: async () => {
        if (me.pending.length === 0 && subscribed())
          await new Promise<void>((resolve) => (me.wake = resolve));
        const update = take();
        return update ? { value: update, done: false } : done;
      },
      return: () => {
        leave();
        return Promise.resolve(done);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  #start(): void {
    let running = true;
    const sources: AsyncGenerator<unknown>[] = [];
    // Each feed is subscribed before the queue is read, in the same tick: no change falls between.
    const follow = <T>(open: () => AsyncGenerator<T>, idOf: (change: T) => string) => {
      const source = open();
      sources.push(source);
      void (async () => {
        try {
          for await (const change of source) this.#touch(idOf(change));
        } catch {
          // Fell behind (it cannot, short of a stalled loop): read everything again and go on.
          if (!running) return;
          follow(open, idOf);
          this.#reconcile();
        }
      })();
    };
    follow(
      () => this.#hub.sessionUpdates(),
      (record) => record.id,
    );
    follow(
      () => this.#hub.permissionChanges(),
      (request) => request.sessionId,
    );
    this.#reconcile();
    this.#raised.clear();
    this.#cleared.clear();
    this.#sent = this.#queue();
    this.#reconcileTimer = setInterval(() => this.#reconcile(), this.#reconcileMs);
    this.#reconcileTimer.unref();
    this.#stopSources = () => {
      running = false;
      // Not awaited: a feed waiting for its next change ends when that change comes.
      for (const source of sources) void source.return(undefined);
    };
  }

  #stop(): void {
    this.#stopSources?.();
    this.#stopSources = null;
    if (this.#sendTimer) clearTimeout(this.#sendTimer);
    if (this.#reconcileTimer) clearInterval(this.#reconcileTimer);
    this.#sendTimer = this.#reconcileTimer = null;
    this.#items.clear();
    this.#raised.clear();
    this.#cleared.clear();
    this.#sent = [];
    this.#first = null;
  }

  #itemOf(session: SessionRecord): AttentionItem | null {
    return attentionItemOf(session, (id) => this.#hub.pendingPermissions(id));
  }

  /** Reads one session again. */
  #touch(id: string): void {
    const session = this.#hub.get(id);
    this.#apply(id, session ? this.#itemOf(session) : null);
  }

  /** Reads every session again; those no longer listed leave the queue. */
  #reconcile(): void {
    const listed = new Set<string>();
    for (const session of this.#hub.list()) {
      listed.add(session.id);
      this.#apply(session.id, this.#itemOf(session));
    }
    for (const id of this.#items.keys()) if (!listed.has(id)) this.#apply(id, null);
  }

  /** A session's item now (null: it needs nobody); an update follows when the queue changed. */
  #apply(id: string, item: AttentionItem | null): void {
    const before = this.#items.get(id);
    if (item) this.#items.set(id, item);
    else this.#items.delete(id);
    const [was, is] = [before && attentionKey(before), item && attentionKey(item)];
    if (was === is) return;
    if (before) cancelOrNote(this.#raised, this.#cleared, was!, before);
    if (item) cancelOrNote(this.#cleared, this.#raised, is!, item);
    if (this.#raised.size + this.#cleared.size > 0) this.#schedule();
  }

  /** The next update: now after a quiet period, else `settleMs` after the last. */
  #schedule(): void {
    if (this.#sendTimer || this.#subscribers.size === 0) return;
    const wait = Math.max(0, this.#lastSentAt + this.#settleMs - performance.now());
    this.#sendTimer = setTimeout(() => this.#send(), wait);
  }

  #send(): void {
    this.#sendTimer = null;
    if (this.#raised.size + this.#cleared.size === 0) return;
    const update: AttentionUpdate = {
      items: (this.#sent = this.#queue()),
      raised: [...this.#raised.values()].sort(byUrgency),
      cleared: [...this.#cleared.values()],
      first: false,
    };
    this.#raised.clear();
    this.#cleared.clear();
    this.#lastSentAt = performance.now();
    this.#first = null;
    for (const subscriber of this.#subscribers) {
      subscriber.pending.push(update);
      if (subscriber.pending.length > maxPending)
        subscriber.pending = [this.#merged(subscriber.pending)];
      wakeUp(subscriber);
    }
  }

  /**
   * A subscriber's untaken updates as one. Each subscriber's are a run of the feed's own update
   * objects (its first one, or the merge it took last, then every update since), so subscribers
   * that keep pace with each other hold the same runs: the run's merge is made once for them
   * all, and shared-results serialises it once.
   */
  #merged(updates: readonly AttentionUpdate[]): AttentionUpdate {
    if (updates.length === 1) return updates[0]!;
    const [start, last] = [updates[0]!, updates.at(-1)!];
    const made = this.#merges.get(start);
    if (made?.last === last) return made.update;
    const update = merged(updates);
    this.#merges.set(start, { last, update });
    return update;
  }

  #queue(): AttentionItem[] {
    return [...this.#items.values()].sort(byUrgency);
  }
}

/**
 * An item raised or cleared (`notes`) since the last update: it cancels the opposite change of
 * the same item (`opposite`) if one is noted, so an item raised and cleared again is neither.
 */
function cancelOrNote(
  opposite: Map<string, AttentionItem>,
  notes: Map<string, AttentionItem>,
  key: string,
  item: AttentionItem,
): void {
  if (!opposite.delete(key)) notes.set(key, item);
}

/**
 * Several updates as one: the last queue, and what was raised or cleared across them all; a
 * subscriber's first update still untaken makes the merge its first, the queue as it is now.
 */
function merged(updates: readonly AttentionUpdate[]): AttentionUpdate {
  const last = updates.at(-1)!;
  if (updates[0]!.first) return { items: last.items, raised: [], cleared: [], first: true };
  const raised = new Map<string, AttentionItem>();
  const cleared = new Map<string, AttentionItem>();
  for (const update of updates) {
    for (const item of update.cleared) cancelOrNote(raised, cleared, attentionKey(item), item);
    for (const item of update.raised) cancelOrNote(cleared, raised, attentionKey(item), item);
  }
  return {
    items: last.items,
    raised: [...raised.values()].sort(byUrgency),
    cleared: [...cleared.values()],
    first: false,
  };
}

/** Each hub's one feed, shared by all its attention subscribers. */
const feeds = new WeakMap<AttentionSource, AttentionFeed>();

/** The attention updates of `hub`'s one feed (see AttentionFeed). */
export function attentionUpdates(
  hub: AttentionSource,
  settleMs: number,
): AsyncIterableIterator<AttentionUpdate> & ReadySource<AttentionUpdate> {
  let feed = feeds.get(hub);
  if (!feed) feeds.set(hub, (feed = new AttentionFeed(hub, settleMs)));
  return feed.subscribe();
}
