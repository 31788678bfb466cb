import { ErrorCode, HubError } from '../errors.js';
import type { BusMessage, EventBus } from './event-bus.js';
import type { EventLog } from './event-log.js';
import type { StoredEvent } from './hook-event.js';
import { SubscriberQueue } from './subscriber-queue.js';

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
  /** Counts open streams, for the subscribers gauge. */
  readonly streams?: { open(): void; close(): void };
}

/**
 * One session's events: with `after`, the stored events with a greater seq, then the live ones.
 * The bus is joined before the log is read and live events are filtered by seq, so the seam has
 * no gap and no duplicate even while events keep arriving. Ends after the session's end.
 */
export async function* sessionEvents(
  deps: SessionEventsDeps,
  sessionId: string,
  after: number | null,
): AsyncGenerator<StoredEvent> {
  const queue = new SubscriberQueue<BusMessage>(
    deps.bufferLimit,
    () =>
      new HubError(
        ErrorCode.SubscriberTooSlow,
        `subscriber fell more than ${deps.bufferLimit} events behind; resubscribe with "after"`,
      ),
  );
  const unsubscribe = deps.bus.subscribe(sessionId, (message) => queue.push(message));
  deps.streams?.open();
  try {
    const liveFrom = deps.liveFrom(sessionId);
    let last = after ?? (typeof liveFrom === 'number' ? liveFrom : await liveFrom);
    if (after !== null) {
      for (;;) {
        const page = await deps.log.read(sessionId, { after: last, limit: deps.replayPageSize });
        for (const event of page) {
          yield event;
          last = event.seq;
        }
        if (page.length < deps.replayPageSize) break;
      }
    }
    if (deps.isEnded(sessionId, last) && queue.size === 0) return;
    for await (const message of queue) {
      if (message.kind === 'end') return;
      if (message.event.seq <= last) continue;
      yield message.event;
      last = message.event.seq;
    }
  } finally {
    deps.streams?.close();
    unsubscribe();
    queue.close();
  }
}
