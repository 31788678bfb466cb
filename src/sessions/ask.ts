import type { Clock } from '../clock.js';
import type { EventBus } from '../events/event-bus.js';
import { stringField, type StoredEvent } from '../events/hook-event.js';
import { MessageStatus, type MessageRecord } from './message.js';
import type { MessageQueue } from './message-queue.js';
import type { SessionChanges } from './session-changes.js';

/** How an ask ended: the reply, or why there is none yet. */
export type AskOutcome =
  | {
      readonly kind: 'reply';
      readonly message: MessageRecord;
      readonly reply: string | null;
      readonly events: StoredEvent[];
      readonly durationMs: number;
    }
  | { readonly kind: 'timeout'; readonly message: MessageRecord; readonly waitedMs: number }
  | { readonly kind: 'failed'; readonly message: MessageRecord };

export interface AskDeps {
  readonly bus: EventBus;
  readonly messages: Pick<MessageQueue, 'settled'>;
  readonly changes: Pick<SessionChanges, 'waitFor'>;
  readonly clock: Clock;
}

/**
 * Where the turn of the prompt at `promptSeq` ends in `events` (in stream order): its first Stop
 * or StopFailure, but not a Stop right after HubStopRefused (a rule sent claude back to work).
 */
function turnEndIndex(events: readonly StoredEvent[], promptSeq: number): number {
  return events.findIndex(
    (event, i) =>
      event.seq > promptSeq &&
      (event.eventName === 'StopFailure' ||
        (event.eventName === 'Stop' && events[i - 1]?.eventName !== 'HubStopRefused')),
  );
}

/**
 * Sends a message (`enqueue` queues it, with the session's checks) and waits for the end of its
 * turn: the reply, the turn's events and how long it took; or why not, as a value, when it
 * failed or took longer than `timeoutMs`.
 */
export async function ask(
  deps: AskDeps,
  id: string,
  enqueue: () => MessageRecord,
  timeoutMs: number,
): Promise<AskOutcome> {
  const { bus, messages, changes, clock } = deps;
  const events: StoredEvent[] = [];
  const stop = bus.subscribe(id, (message) => {
    if (message.kind === 'event') events.push(message.event);
  });
  try {
    const message = enqueue();
    const deadline = message.queuedAt + timeoutMs;
    await messages.settled(message, timeoutMs);
    const turnEnd = () =>
      message.promptSeq !== null && turnEndIndex(events, message.promptSeq) >= 0;
    if (message.status === MessageStatus.Delivered) {
      await changes.waitFor(id, turnEnd, Math.max(0, deadline - clock.now()));
    }
    if (message.status === MessageStatus.Failed) return { kind: 'failed', message };
    if (!turnEnd()) return { kind: 'timeout', message, waitedMs: clock.now() - message.queuedAt };
    const turn = events.filter((e) => e.seq >= message.promptSeq!);
    const end = turnEndIndex(turn, message.promptSeq!);
    const stopEvent = turn[end]!;
    return {
      kind: 'reply',
      message,
      reply: stringField(stopEvent.payload, 'last_assistant_message') ?? null,
      events: turn.slice(0, end + 1),
      durationMs: stopEvent.receivedAt - message.queuedAt,
    };
  } finally {
    stop();
  }
}
