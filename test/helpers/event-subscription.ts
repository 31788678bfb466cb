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
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const queue = new LiveQueue<any>();
  const dispose = client.subscribe<any>(
    {
      query: `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { ${fields} } }`,
      variables: { id, after },
    },
    {
      next: (result) =>
        result.errors
          ? queue.fail(new Error(JSON.stringify(result.errors)))
          : queue.push(result.data!.sessionEvents),
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
