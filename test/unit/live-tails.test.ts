import {
  GraphQLInt,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionArgs,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.js';
import { LocalEventBus } from '../../src/events/event-bus.js';
import type { StoredEvent } from '../../src/events/hook-event.js';
import { createLogger } from '../../src/log.js';
import type { Part } from '../../src/subscriptions/frames.js';
import {
  LiveTails,
  type Tail,
  type TailFeed,
  type TailSink,
} from '../../src/subscriptions/live-tails.js';

/** Events whose `late` field resolves a turn later when the event's message says so. */
const Event = new GraphQLObjectType({
  name: 'Event',
  fields: {
    seq: { type: GraphQLInt },
    message: {
      type: GraphQLString,
      resolve: (event: StoredEvent) => event.payload.message,
    },
    late: {
      type: GraphQLString,
      resolve: (event: StoredEvent) =>
        event.payload.message === 'slow'
          ? new Promise((resolve) => setTimeout(() => resolve('slow'), 20))
          : 'now',
    },
  },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { x: { type: GraphQLInt } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: { event: { type: Event, resolve: (event: unknown) => event } },
  }),
});

const args = (selection: string): ExecutionArgs => ({
  schema,
  document: parse(`subscription { event { ${selection} } }`),
});

function event(seq: number, message: string): StoredEvent {
  const payload = { session_id: 's', hook_event_name: 'Notification', message };
  return {
    sessionId: 's',
    seq,
    eventName: 'Notification',
    receivedAt: 1_000 + seq,
    raw: JSON.stringify(payload),
    payload,
  };
}

/** The writer as LiveTails sees it: what it was sent, and each follow's cut. */
function fakeWriter() {
  const events: { seq: number; keys: number[]; parts: string[] }[] = [];
  const follows = new Map<string, { key: number; after: number; cut: () => void }>();
  const unfollowed: string[] = [];
  const keys = new Map<string, number>();
  const feed: TailFeed = {
    keyId: (key) => keys.get(key) ?? (keys.set(key, keys.size), keys.size - 1),
    event: (_session, seq, _receivedAt, ids, parts: Part[]) =>
      void events.push({ seq, keys: ids, parts: parts.map(String) }),
  };
  const sink: TailSink = {
    follow: (sub, _start, _session, key, after, cut) => {
      follows.set(sub, { key, after, cut });
      return () => void unfollowed.push(sub);
    },
  };
  return { feed, sink, events, follows, unfollowed };
}

function setup() {
  const bus = new LocalEventBus();
  const writer = fakeWriter();
  const tails = new LiveTails(() => writer.feed, {
    log: createLogger('silent'),
    subscriberBuffer: 50,
  });
  const ended: string[] = [];
  const failed: { sub: string; error: unknown }[] = [];
  const follow = (sub: string, selection: string, after = 0) =>
    tails.follow({
      session: 's',
      bus,
      after,
      key: selection,
      args: args(selection),
      sink: writer.sink,
      sub,
      start: Buffer.from(`{"id":"${sub}","type":"next","payload":`),
      end: () => void ended.push(sub),
      fail: (error) => void failed.push({ sub, error }),
    } satisfies Tail);
  const publish = (seq: number, message = `m${seq}`) =>
    bus.publish('s', { kind: 'event', event: event(seq, message) });
  return { bus, writer, follow, publish, ended, failed };
}

describe('LiveTails', () => {
  it('runs each operation once per event, whatever the number of followers, and hands the writer each result once', () => {
    const { writer, follow, publish } = setup();
    follow('a', 'seq message', 3);
    follow('b', 'seq message', 3);
    follow('c', 'seq');
    expect([...writer.follows.values()].map(({ key, after }) => ({ key, after }))).toEqual([
      { key: 0, after: 3 },
      { key: 0, after: 3 },
      { key: 1, after: 0 },
    ]);
    publish(4);
    publish(5);
    expect(writer.events).toEqual([
      {
        seq: 4,
        keys: [0, 1],
        parts: ['{"data":{"event":{"seq":4,"message":"m4"}}}}', '{"data":{"event":{"seq":4}}}}'],
      },
      {
        seq: 5,
        keys: [0, 1],
        parts: ['{"data":{"event":{"seq":5,"message":"m5"}}}}', '{"data":{"event":{"seq":5}}}}'],
      },
    ]);
  });

  it('keeps the order of events when a result is made later', async () => {
    const { writer, follow, publish } = setup();
    follow('a', 'seq late');
    publish(1, 'slow');
    publish(2);
    expect(writer.events).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writer.events.map(({ seq, parts }) => ({ seq, parts }))).toEqual([
      { seq: 1, parts: ['{"data":{"event":{"seq":1,"late":"slow"}}}}'] },
      { seq: 2, parts: ['{"data":{"event":{"seq":2,"late":"now"}}}}'] },
    ]);
  });

  it("ends every follower after the session's last event, and leaves the bus", async () => {
    const { writer, follow, publish, bus, ended } = setup();
    follow('a', 'seq late');
    follow('b', 'seq');
    publish(1, 'slow');
    bus.publish('s', { kind: 'end' });
    // The end waits for the event before it.
    expect(ended).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writer.events.map(({ seq }) => seq)).toEqual([1]);
    expect(ended).toEqual(['a', 'b']);
    expect(writer.unfollowed).toEqual(['a', 'b']);
    publish(2);
    expect(writer.events.map(({ seq }) => seq)).toEqual([1]);
  });

  it('fails a follower the writer drops with SUBSCRIBER_TOO_SLOW; the others go on', () => {
    const { writer, follow, publish, failed } = setup();
    follow('a', 'seq');
    follow('b', 'seq message');
    writer.follows.get('b')!.cut();
    expect(failed).toMatchObject([
      {
        sub: 'b',
        error: {
          code: ErrorCode.SubscriberTooSlow,
          message: 'subscriber fell more than 50 events behind; resubscribe with "after"',
        },
      },
    ]);
    // Dropped by the writer itself: nothing to tell it.
    expect(writer.unfollowed).toEqual([]);
    publish(1);
    expect(writer.events).toEqual([
      { seq: 1, keys: [0], parts: ['{"data":{"event":{"seq":1}}}}'] },
    ]);
  });

  it('stops following on unfollow, and leaves the bus with the last follower', () => {
    const { writer, follow, publish } = setup();
    const stopA = follow('a', 'seq');
    const stopB = follow('b', 'seq');
    stopA();
    stopA();
    expect(writer.unfollowed).toEqual(['a']);
    publish(1);
    stopB();
    publish(2);
    expect(writer.unfollowed).toEqual(['a', 'b']);
    expect(writer.events.map(({ seq }) => seq)).toEqual([1]);
    // A follower after that joins the bus again.
    follow('c', 'seq');
    publish(3);
    expect(writer.events.map(({ seq }) => seq)).toEqual([1, 3]);
  });
});
