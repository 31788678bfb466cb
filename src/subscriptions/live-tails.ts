import type { ExecutionArgs } from 'graphql';
import { ErrorCode, HubError } from '../errors.js';
import type { BusMessage, EventBus } from '../events/event-bus.js';
import type { StoredEvent } from '../events/hook-event.js';
import type { Logger } from '../log.js';
import type { Part } from './frames.js';
import { executeShared } from './shared-results.js';

/** A connection's side of a process that writes subscribers' messages itself (the writer). */
export interface TailSink {
  /**
   * From now on the writer sends subscription `sub` a message for each event of `session` past
   * seq `after`: `start`, then the result of operation `key` (TailFeed.keyId). `cut` is called
   * if the writer drops it, its client more than the subscriber buffer behind. Returns what
   * stops it.
   */
  follow(
    sub: string,
    start: Buffer,
    session: string,
    key: number,
    after: number,
    cut: () => void,
  ): () => void;
}

/** Where the live events of followed sessions go, each operation's result once. */
export interface TailFeed {
  /** A number for an operation (its text and variables), the same each time. */
  keyId(key: string): number;
  /** One event of a followed session: the result of each operation its followers run. */
  event(session: string, seq: number, receivedAt: number, keys: number[], parts: Part[]): void;
}

/** A subscription whose live events the writer sends, as LiveTails.follow takes it. */
export interface Tail {
  readonly session: string;
  /** The bus its stream left (SessionEventStream.handOver). */
  readonly bus: EventBus;
  /** The seq of the last event it was sent. */
  readonly after: number;
  /** Its operation and variables, and how to run its selection. */
  readonly key: string;
  readonly args: ExecutionArgs;
  readonly sink: TailSink;
  /** Its id on its connection, and the start of each of its messages. */
  readonly sub: string;
  readonly start: Buffer;
  /** The session ended, after its last event. */
  end(): void;
  /** The writer dropped it (behind), or an event's result could not be made. */
  fail(error: unknown): void;
}

export interface TailOptions {
  readonly log: Logger;
  /** Events a follower may fall behind by (the writer drops it past them): for its error. */
  readonly subscriberBuffer: number;
}

/** A tail as a session's feed holds it. */
interface Followed {
  readonly tail: Tail;
  /** Tells the writer to stop following it. */
  readonly unfollow: () => void;
}

/** An event, with the part of each operation its followers run, or the session's end. */
type Step =
  | {
      readonly event: StoredEvent;
      readonly keys: number[];
      readonly parts: (Part | Promise<Part>)[];
    }
  | { readonly end: true };

/**
 * The followers of one session on one bus: joins the bus once, runs each operation once per
 * event and hands the results to the writer in seq order (a result made asynchronously holds
 * back the events after it).
 */
class SessionFeed {
  readonly #tails = new Set<Followed>();
  /** Each operation run, with its selection and how many followers run it. */
  readonly #operations = new Map<string, { id: number; args: ExecutionArgs; count: number }>();
  readonly #feed: TailFeed;
  readonly #log: Logger;
  readonly #session: string;
  readonly #leave: () => void;
  readonly #closed: () => void;
  /** Events a follower may fall behind by, for its error. */
  readonly #limit: number;
  #steps: Step[] = [];

  constructor(tail: Tail, feed: TailFeed, options: TailOptions, closed: () => void) {
    this.#feed = feed;
    this.#log = options.log;
    this.#limit = options.subscriberBuffer;
    this.#session = tail.session;
    this.#closed = closed;
    this.#leave = tail.bus.subscribe(tail.session, (message) => this.#heard(message));
  }

  add(tail: Tail): () => void {
    let operation = this.#operations.get(tail.key);
    if (!operation) {
      operation = { id: this.#feed.keyId(tail.key), args: tail.args, count: 0 };
      this.#operations.set(tail.key, operation);
    }
    operation.count += 1;
    const { id } = operation;
    const followed: Followed = {
      tail,
      unfollow: tail.sink.follow(tail.sub, tail.start, tail.session, id, tail.after, () => {
        this.#remove(followed);
        tail.fail(
          new HubError(
            ErrorCode.SubscriberTooSlow,
            `subscriber fell more than ${this.#limit} events behind; resubscribe with "after"`,
          ),
        );
      }),
    };
    this.#tails.add(followed);
    return () => {
      if (!this.#remove(followed)) return;
      followed.unfollow();
    };
  }

  /** Forgets a follower (and leaves the bus with the last); false when it had gone already. */
  #remove(followed: Followed): boolean {
    if (!this.#tails.delete(followed)) return false;
    const operation = this.#operations.get(followed.tail.key)!;
    operation.count -= 1;
    if (operation.count === 0) this.#operations.delete(followed.tail.key);
    if (this.#tails.size === 0) this.#close();
    return true;
  }

  #close(): void {
    this.#leave();
    this.#steps = [];
    this.#closed();
  }

  #heard(message: BusMessage): void {
    if (message.kind === 'end') this.#steps.push({ end: true });
    else {
      const { event } = message;
      const keys: number[] = [];
      const parts: (Part | Promise<Part>)[] = [];
      for (const [key, { id, args }] of this.#operations) {
        keys.push(id);
        parts.push(executeShared(key, args, event, true, this.#log));
      }
      this.#steps.push({ event, keys, parts });
    }
    if (this.#steps.length === 1) this.#drain();
  }

  /** Hands over the steps in order, until one waits for a result. */
  #drain(): void {
    const steps = this.#steps;
    while (steps.length > 0 && steps === this.#steps) {
      const step = steps[0]!;
      if ('end' in step) return this.#stopAll((tail) => tail.end());
      const waiting = step.parts.findIndex((part) => typeof part === 'object' && 'then' in part);
      if (waiting >= 0) {
        (step.parts[waiting] as Promise<Part>).then(
          (made) => {
            step.parts[waiting] = made;
            if (steps === this.#steps) this.#drain();
          },
          (error: unknown) => {
            if (steps === this.#steps) this.#stopAll((tail) => tail.fail(error));
          },
        );
        return;
      }
      steps.shift();
      const { event } = step;
      this.#feed.event(this.#session, event.seq, event.receivedAt, step.keys, step.parts as Part[]);
    }
  }

  /** Stops every follower, the writer's part first, then `finish`es each. */
  #stopAll(finish: (tail: Tail) => void): void {
    for (const followed of [...this.#tails]) {
      this.#remove(followed);
      followed.unfollow();
      finish(followed.tail);
    }
  }
}

/**
 * The live tails of the subscriptions handed to the writer process: once a subscription to a
 * session's events has caught up (replay done, nothing queued), its stream leaves the bus and
 * the writer sends its live events itself. This process then runs each operation once per
 * event and sends the result once to the writer, which writes every follower's message: the
 * hub's own loop does the same work for one subscriber as for a hundred, and the hook answers
 * it gives stay as fast whatever the subscribers do. Ordering is that of the bus; a follower
 * the writer drops (behind by more than the subscriber buffer) fails with SUBSCRIBER_TOO_SLOW
 * and resumes with `after`, as on the hub's own server.
 */
export class LiveTails {
  readonly #feed: () => TailFeed;
  readonly #options: TailOptions;
  readonly #feeds = new Map<EventBus, Map<string, SessionFeed>>();

  /** `feed` is called when the first tail is followed (the writer may be made after). */
  constructor(feed: () => TailFeed, options: TailOptions) {
    this.#feed = feed;
    this.#options = options;
  }

  /** The writer sends `tail` its events from now on; returns what stops it (no-op once ended). */
  follow(tail: Tail): () => void {
    let sessions = this.#feeds.get(tail.bus);
    if (!sessions) this.#feeds.set(tail.bus, (sessions = new Map()));
    let feed = sessions.get(tail.session);
    if (!feed) {
      const bySession = sessions;
      feed = new SessionFeed(tail, this.#feed(), this.#options, () => {
        bySession.delete(tail.session);
        if (bySession.size === 0) this.#feeds.delete(tail.bus);
      });
      sessions.set(tail.session, feed);
    }
    return feed.add(tail);
  }
}
