/**
 * Browsers watching sessions' terminals while the other sections run (`--watch-terminals N`):
 * one graphql-ws subscription to sessionTerminal per session, reading everything, so the rows
 * measured meanwhile show what watching costs the event path.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { BenchHub } from './hook-load.js';
import type { Row } from './row.js';

export interface WatchedTerminals {
  /** Ends the subscriptions; the row says what they received. */
  stop(): Promise<Row>;
}

export async function watchTerminals(
  hub: Pick<BenchHub, 'url'>,
  sessionIds: readonly string[],
): Promise<WatchedTerminals> {
  const client = createClient({
    url: hub.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  let chunks = 0;
  let characters = 0;
  let failure: unknown = null;
  const query = 'subscription($id: ID!) { sessionTerminal(id: $id) { kind data cols rows } }';
  const first: Promise<void>[] = [];
  const stops = sessionIds.map((id) => {
    let started: () => void = () => {};
    first.push(new Promise<void>((resolve) => (started = resolve)));
    return client.subscribe<{ sessionTerminal: { data: string } }>(
      { query, variables: { id } },
      {
        next: ({ data }) => {
          chunks += 1;
          characters += data?.sessionTerminal.data.length ?? 0;
          started();
        },
        error: (error) => {
          failure ??= error;
          started();
        },
        complete: () => {},
      },
    );
  });
  await Promise.all(first);
  if (failure) throw new Error(`sessionTerminal failed: ${JSON.stringify(failure)}`);
  return {
    async stop() {
      for (const stop of stops) stop();
      await client.dispose();
      if (failure) throw new Error(`sessionTerminal failed: ${JSON.stringify(failure)}`);
      return {
        section: 'terminals',
        metric: `${sessionIds.length} terminals watched meanwhile`,
        value: `${chunks} chunks, ${characters.toLocaleString('en-US')} characters`,
      };
    },
  };
}
