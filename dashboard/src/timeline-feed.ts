/**
 * What feeds a session's timeline: its events, the phases of its actions and its completed
 * turns, three subscriptions each with its own cursor. graphql-ws resubscribes with the same
 * variables after a reconnect, so each cursor is kept current in place and a restarted hub
 * resumes every stream where the page left it, with nothing repeated or missed.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { HubClient } from './hub-client.js';
import {
  SessionActionsSubscription,
  SessionEventsSubscription,
  TurnsSubscription,
} from './operations.js';
import type { Timeline } from './timeline.js';
import type { Turn } from './turn-row.js';

/** Turns completed after this: all of them. */
const firstTurns = new Date(0).toISOString();

/**
 * Starts the three streams; `ended` runs once all three completed (the session ended), `turned`
 * hears each turn delivered (again after a reconnect, as the timeline does).
 * Returns the function that ends them.
 */
export function followTimeline(
  hub: HubClient,
  id: string,
  timeline: Timeline,
  ended: () => void,
  turned: (turn: Turn) => void = () => {},
): () => void {
  const stops: (() => void)[] = [];
  let open = 3;
  const follow = <Result, Variables extends Record<string, unknown>>(
    what: string,
    document: TypedDocumentNode<Result, Variables>,
    variables: Variables,
    next: (data: Result) => void,
  ) => {
    stops.push(
      hub.subscribe(document, variables, {
        next,
        error: (error) => {
          if (error.code === 'SUBSCRIBER_TOO_SLOW') follow(what, document, variables, next);
          else timeline.note(`The ${what} stream failed: ${error.message}`);
        },
        complete: () => {
          open -= 1;
          if (open > 0) return;
          timeline.note('The session ended: no more events.');
          ended();
        },
      }),
    );
  };

  const events = { id, after: timeline.lastSeq };
  follow('event', SessionEventsSubscription, events, ({ sessionEvents }) => {
    if (timeline.add(sessionEvents)) events.after = timeline.lastSeq;
  });
  // From the seq before the last: phases that share a seq (a denial's completion and its
  // warning) may have been cut apart by the reconnect. Those seen are not shown again.
  const cursor = () => Math.max(0, timeline.lastActionSeq - 1);
  const actions = { id, after: cursor() };
  follow('action', SessionActionsSubscription, actions, ({ sessionActions }) => {
    if (timeline.putAction(sessionActions)) actions.after = cursor();
  });
  const turns = { sessionId: id, after: timeline.lastTurnAt ?? firstTurns };
  follow('turn', TurnsSubscription, turns, ({ turns: turn }) => {
    timeline.putTurn(turn);
    turned(turn);
    turns.after = timeline.lastTurnAt ?? firstTurns;
  });

  return () => stops.forEach((stop) => stop());
}
