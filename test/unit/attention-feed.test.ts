import { describe, expect, it } from 'vitest';
import { AttentionFeed, type AttentionSource } from '../../src/hub/attention-feed.js';
import { Topic } from '../../src/events/topic.js';
import type { PermissionRecord } from '../../src/permissions/permission-request.js';
import { attentionItems, attentionKey, type AttentionItem } from '../../src/sessions/attention.js';
import type { SessionRecord, SessionStatus } from '../../src/sessions/session.js';
import { session } from '../helpers/records.js';

/** A hub's sessions and their feed, as the attention feed reads them. */
class Sessions implements AttentionSource {
  readonly records = new Map<string, SessionRecord>();
  readonly updates = new Topic<SessionRecord>();
  readonly permissions = new Topic<PermissionRecord>();
  #clock = 1_000;

  set(id: string, status: SessionStatus, publish = true): void {
    const record = session(id, status, (this.#clock += 10));
    this.records.set(id, record);
    if (publish) this.updates.publish(record);
  }
  get = (id: string) => this.records.get(id);
  list = () => [...this.records.values()];
  pendingPermissions = () => [];
  sessionUpdates = () => this.updates.stream(1000, () => new Error('behind'));
  permissionChanges = () => this.permissions.stream(1000, () => new Error('behind'));
}

const keys = (items: readonly AttentionItem[]) => items.map(attentionKey);
const queueOf = (sessions: Sessions) => keys(attentionItems(sessions.list(), () => []));

/** A subscriber's queue kept as a client keeps it: the first update's items, then the changes. */
function kept(first: readonly AttentionItem[]) {
  const queue = new Set(keys(first));
  return {
    queue,
    apply(update: { raised: readonly AttentionItem[]; cleared: readonly AttentionItem[] }) {
      for (const key of keys(update.cleared)) expect(queue.delete(key)).toBe(true);
      for (const key of keys(update.raised)) {
        expect(queue.has(key)).toBe(false);
        queue.add(key);
      }
    },
  };
}

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

describe('AttentionFeed', () => {
  it('starts from the queue, then sends each change as what it raised and cleared', async () => {
    const sessions = new Sessions();
    for (let i = 0; i < 20; i++) sessions.set(`s${i}`, i % 2 ? 'IDLE' : 'BUSY');
    const feed = new AttentionFeed(sessions, 5);
    const subscription = feed.subscribe();
    const first = (await subscription.next()).value!;
    expect(first.first).toBe(true);
    expect(keys(first.items)).toEqual(queueOf(sessions));
    const client = kept(first.items);

    for (let round = 0; round < 30; round++) {
      const id = `s${(round * 7) % 20}`;
      sessions.set(id, round % 3 ? 'IDLE' : round % 5 ? 'BUSY' : 'CRASHED');
      // A new session each round, so every round changes the queue.
      sessions.set(`new${round}`, round % 4 ? 'IDLE' : 'BLOCKED');
      const update = (await subscription.next()).value!;
      expect(update.first).toBe(false);
      client.apply(update);
      // The whole queue is the hub's, in its order, and what the changes made of the first.
      expect(keys(update.items)).toEqual(queueOf(sessions));
      expect(client.queue).toEqual(new Set(queueOf(sessions)));
    }
    await subscription.return!();
  });

  it('hands every subscriber the same update, made once', async () => {
    const sessions = new Sessions();
    sessions.set('a', 'BUSY');
    const feed = new AttentionFeed(sessions, 5);
    const [one, two] = [feed.subscribe(), feed.subscribe()];
    await Promise.all([one.next(), two.next()]);
    sessions.set('a', 'IDLE');
    const [a, b] = await Promise.all([one.next(), two.next()]);
    expect(a.value).toBe(b.value);
    expect(keys(a.value!.raised)).toEqual(queueOf(sessions));
    await Promise.all([one.return!(), two.return!()]);
  });

  it('sends the first change after a quiet period at once, and those right after it later, as one', async () => {
    const sessions = new Sessions();
    for (const id of ['a', 'b', 'c']) sessions.set(id, 'BUSY');
    const feed = new AttentionFeed(sessions, 60_000);
    const subscription = feed.subscribe();
    await subscription.next();
    // Quiet so far: the change goes out now, not a minute later (the test would time out).
    sessions.set('a', 'IDLE');
    expect(keys((await subscription.next()).value!.raised)).toEqual([
      attentionKey(itemOf(sessions, 'a')),
    ]);
    // Within the minute after it, the next changes wait.
    sessions.set('b', 'IDLE');
    sessions.set('c', 'IDLE');
    const next = subscription.next();
    const early = await Promise.race([next.then(() => 'sent'), settle(300).then(() => 'waits')]);
    expect(early).toBe('waits');
    await subscription.return!();
  });

  it('merges the updates a slow subscriber left, so what it applies still makes the queue', async () => {
    const sessions = new Sessions();
    for (let i = 0; i < 10; i++) sessions.set(`s${i}`, 'BUSY');
    const feed = new AttentionFeed(sessions, 1);
    const [fast, slow] = [feed.subscribe(), feed.subscribe()];
    await fast.next();
    const client = kept((await slow.next()).value!.items);
    for (let round = 0; round < 40; round++) {
      const id = `s${round % 10}`;
      sessions.set(id, sessions.get(id)!.status === 'IDLE' ? 'BUSY' : 'IDLE');
      await fast.next();
    }
    const merged = (await slow.next()).value!;
    client.apply(merged);
    expect(client.queue).toEqual(new Set(queueOf(sessions)));
    await Promise.all([fast.return!(), slow.return!()]);
  });

  it('makes one merge for slow subscribers at the same place; a first update left untaken stays whole', async () => {
    const sessions = new Sessions();
    for (let i = 0; i < 10; i++) sessions.set(`s${i}`, 'BUSY');
    const feed = new AttentionFeed(sessions, 1);
    const [fast, slowA, slowB] = [feed.subscribe(), feed.subscribe(), feed.subscribe()];
    await fast.next();
    await Promise.all([slowA.next(), slowB.next()]);
    const flip = async (round: number) => {
      const id = `s${round % 10}`;
      sessions.set(id, sessions.get(id)!.status === 'IDLE' ? 'BUSY' : 'IDLE');
      await fast.next();
    };
    await flip(0);
    const lateOne = feed.subscribe();
    for (let round = 1; round < 20; round++) await flip(round);
    const [a, b] = [(await slowA.next()).value!, (await slowB.next()).value!];
    expect(a).toBe(b);
    expect(a.first).toBe(false);
    // Subscribed after the first change and never read since: its first update is the queue now.
    const first = (await lateOne.next()).value!;
    expect(first).toMatchObject({ first: true, raised: [], cleared: [] });
    expect(new Set(keys(first.items))).toEqual(new Set(queueOf(sessions)));
    await Promise.all([fast, slowA, slowB, lateOne].map((it) => it.return!()));
  });

  it('reads the queue whole again now and then: a session forgotten unannounced leaves it', async () => {
    const sessions = new Sessions();
    sessions.set('kept', 'IDLE');
    sessions.set('gone', 'CRASHED');
    const feed = new AttentionFeed(sessions, 1, 50);
    const subscription = feed.subscribe();
    const client = kept((await subscription.next()).value!.items);
    const gone = attentionKey(itemOf(sessions, 'gone'));
    sessions.records.delete('gone');
    const update = (await subscription.next()).value!;
    client.apply(update);
    expect(keys(update.cleared)).toEqual([gone]);
    expect(client.queue).toEqual(new Set(queueOf(sessions)));
    await subscription.return!();
  });
});

function itemOf(sessions: Sessions, id: string): AttentionItem {
  return attentionItems([sessions.get(id)!], () => [])[0]!;
}
