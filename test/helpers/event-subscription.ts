import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { LiveQueue } from './live-queue.js';

/**
 * Subscribes to a session's events over graphql-ws at a hub's GraphQL URL (any hub, in this
 * process or another), from `after`; every event is queued so none is missed.
 */
export function subscribeToEvents(
  url: string,
  id: string,
  after: number | null,
  fields: string,
): LiveQueue<any> {
  return subscribeAt(
    url,
    `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { ${fields} } }`,
    { id, after },
  );
}

/** Listens to a channel over graphql-ws at a hub's GraphQL URL, from `after`. */
export function subscribeToChannel(
  url: string,
  channel: string,
  after: number | null = null,
): LiveQueue<any> {
  return subscribeAt(
    url,
    `subscription($channel: String!, $after: Int) { channelMessages(channel: $channel, after: $after) { seq sessionId text } }`,
    { channel, after },
  );
}

/** One subscription's results (its root field's values), queued. */
function subscribeAt(
  url: string,
  query: string,
  variables: Record<string, unknown>,
): LiveQueue<any> {
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const queue = new LiveQueue<any>();
  const dispose = client.subscribe<any>(
    { query, variables },
    {
      next: (result) =>
        result.errors
          ? queue.fail(new Error(JSON.stringify(result.errors)))
          : queue.push(Object.values(result.data!)[0]),
      error: (error) => queue.fail(error instanceof Error ? error : new Error(String(error))),
      complete: () => queue.complete(),
    },
  );
  queue.onDispose(() => {
    dispose();
    void client.dispose();
  });
  return queue;
}
