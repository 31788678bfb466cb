import { ErrorCode, HubError } from '../errors.js';
import type { BusMessage, EventBus } from '../events/event-bus.js';
import type { EventLog } from '../events/event-log.js';
import type { StoredEvent } from '../events/hook-event.js';
import { done, EndingStream, type ReadySource } from '../events/ready-source.js';
import { SubscriberQueue } from '../events/subscriber-queue.js';

export interface SessionEventsDeps {
  readonly log: Pick<EventLog, 'read'>;
  readonly bus: EventBus;
  /** Events a subscriber may fall behind by before it is dropped. */
  readonly bufferLimit: number;
  /** Events read from the log per page while replaying. */
  readonly replayPageSize: number;
  /**
   * The seq after which every event reaches the bus listeners that subscribed before the call:
   * the log's last seq on one node; where a cluster node started reading another node's stream.
   */
  readonly liveFrom: (sessionId: string) => number | Promise<number>;
  /** True once the session has ended for good and its last event, by `delivered`, is out. */
  readonly isEnded: (sessionId: string, delivered: number) => boolean;
  /** Counts open streams, for the subscribers gauge, and those cut for falling behind. */
  readonly streams?: { open(): void; close(): void; cut(): void };
}

/**
 * One session's events: with `after`, the stored events with a greater seq, then the live ones.
 * The bus is joined before the log is read and live events are filtered by seq, so the seam has
 * no gap and no duplicate even while events keep arriving. Ends after the session's end.
 *
 * An async iterator like a generator, and besides, takeReady() hands over the events that are
 * already here without a promise each: a replay page, or the live events of one turn, cost the
 * consumer one wake-up rather than one per event.
 */
export class SessionEventStream
  extends EndingStream<StoredEvent>
  implements ReadySource<StoredEvent>
{
  readonly #deps: SessionEventsDeps;
  readonly #sessionId: string;
  readonly #after: number | null;
  /** `opening` while it waits to learn where live events start (liveFrom). */
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  #queue: SubscriberQueue<BusMessage> | null = null;
  #unsubscribe: (() => void) | null = null;
  /** The seq of the last event handed over. */
  #last = 0;
  #replaying = false;
  /** The replay page being handed over, and the index of its next event. */
  #page: StoredEvent[] | null = null;
  #pageAt = 0;

  constructor(deps: SessionEventsDeps, sessionId: string, after: number | null) {
    super();
    this.#deps = deps;
    this.#sessionId = sessionId;
    this.#after = after;
  }

  /** Joins the bus on the first read, as a generator would start then. */
  async #open(): Promise<void> {
    const deps = this.#deps;
    const queue = new SubscriberQueue<BusMessage>(deps.bufferLimit, () => {
      deps.streams?.cut();
      return new HubError(
        ErrorCode.SubscriberTooSlow,
        `subscriber fell more than ${deps.bufferLimit} events behind; resubscribe with "after"`,
      );
    });
    this.#state = 'opening';
    this.#queue = queue;
    this.#unsubscribe = deps.bus.subscribe(this.#sessionId, (message) => queue.push(message));
    deps.streams?.open();
    const liveFrom = deps.liveFrom(this.#sessionId);
    const tail = typeof liveFrom === 'number' ? liveFrom : await liveFrom;
    if (this.#state !== 'opening') return;
    this.#state = 'open';
    this.#last = this.#after ?? tail;
    this.#replaying = this.#after !== null;
    if (!this.#replaying) this.#endIfEnded();
  }

  /** A session that has ended for good, with nothing left to deliver, ends the stream. */
  #endIfEnded(): void {
    if (this.#deps.isEnded(this.#sessionId, this.#last) && this.#queue!.size === 0) this.end();
  }

  protected end(): void {
    const wasOpen = this.#state !== 'new' && this.#state !== 'closed';
    this.#state = 'closed';
    this.#page = null;
    if (!wasOpen) return;
    this.#deps.streams?.close();
    this.#unsubscribe!();
    this.#queue!.close();
  }

  get replaying(): boolean {
    return this.#replaying;
  }

  receivedAt(event: StoredEvent): number | undefined {
    return this.#replaying ? undefined : event.receivedAt;
  }

  takeReady(): StoredEvent | undefined {
    if (this.#state !== 'open') return undefined;
    if (this.#replaying) {
      const event = this.#page?.[this.#pageAt];
      if (event === undefined) return undefined;
      this.#pageAt += 1;
      this.#last = event.seq;
      return event;
    }
    const queue = this.#queue!;
    while (queue.size > 0) {
      const message = queue.shift()!;
      if (message.kind === 'end') {
        this.end();
        return undefined;
      }
      if (message.event.seq <= this.#last) continue;
      this.#last = message.event.seq;
      return message.event;
    }
    return undefined;
  }

  /** Only live events wake: a replay is read through next(). */
  wakeWhenReady(wake: () => void): boolean {
    return this.#state === 'open' && !this.#replaying && this.#queue!.wakeOnNext(wake);
  }

  async next(): Promise<IteratorResult<StoredEvent, undefined>> {
    try {
      if (this.#state === 'new') await this.#open();
      for (;;) {
        const ready = this.takeReady();
        if (ready !== undefined) return { value: ready, done: false };
        if (this.#state === 'closed') return done;
        if (this.#replaying) {
          const page = this.#page;
          if (page !== null && page.length < this.#deps.replayPageSize) {
            this.#replaying = false;
            this.#page = null;
            this.#endIfEnded();
            continue;
          }
          const next = await this.#deps.log.read(this.#sessionId, {
            after: this.#last,
            limit: this.#deps.replayPageSize,
          });
          if (this.#state === 'open') [this.#page, this.#pageAt] = [next, 0];
          continue;
        }
        const step = await this.#queue!.next();
        if (step.done) {
          this.end();
          return done;
        }
        const message = step.value;
        if (message.kind === 'end') {
          this.end();
          return done;
        }
        if (message.event.seq <= this.#last) continue;
        this.#last = message.event.seq;
        return { value: message.event, done: false };
      }
    } catch (error) {
      this.end();
      throw error;
    }
  }
}

export function sessionEvents(
  deps: SessionEventsDeps,
  sessionId: string,
  after: number | null,
): SessionEventStream {
  return new SessionEventStream(deps, sessionId, after);
}
