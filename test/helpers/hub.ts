import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Clock } from '../../src/clock.js';
import { buildApp, type App } from '../../src/server/app.js';
import { parseConfig, type HubConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log.js';
import { leftovers, tempDir } from './leftovers.js';
import { LiveQueue } from './live-queue.js';
import { checkHubLogLine } from './unexpected-output.js';

export interface TestHub {
  readonly app: App;
  readonly url: string;
  readonly baseUrl: string;
  readonly config: HubConfig;
  readonly dataDir: string;
  /** What the hub logged; a line at error level fails the test unless it `expectErrorLog`s it. */
  readonly logs: string[];
  /** POSTs a GraphQL operation; returns the whole response body. */
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
  /** Like gql, but throws on errors and returns data. */
  data<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** A graphql-ws client on this hub, disposed with the hub. */
  wsClient(): Client;
  /** Subscribes over graphql-ws; every result is queued so none is missed. */
  subscribe<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
  ): LiveQueue<T>;
  /**
   * Stops the hub, its clients first, and removes the data dir it made. The leftovers do it
   * after the test (or the describe block) that started it; a test calls it to stop the hub
   * on purpose. Calling it again waits for the first stop.
   */
  stop(): Promise<void>;
}

let counter = 0;

/** A hub on port 0 with its own data dir and tmux socket, in this process, on the leftovers. */
export async function startHub(
  options: {
    env?: Record<string, string | undefined>;
    args?: string[];
    dataDir?: string;
    /** Sent by gql, data, wsClient and subscribe. */
    token?: string;
    paneCheckMs?: number;
    /** The clock the hub's usage limits reset by. */
    limitClock?: Clock;
    /** The clock the hub's scheduled prompts tick by. */
    scheduleClock?: Clock;
  } = {},
): Promise<TestHub> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'cch-data-'));
  const socket = `cch-test-${process.pid}-${++counter}-${Date.now() % 100000}`;
  const parsed = parseConfig(
    [
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--tmux-socket',
      socket,
      '--stop-sessions-on-exit',
      ...(options.args ?? []),
    ],
    {},
  );
  if (!parsed.ok) throw new Error('bad test config');
  const logs: string[] = [];
  const app = buildApp(parsed.config, {
    env: options.env ?? process.env,
    logger: createLogger('info', {
      write: (line: string) => {
        logs.push(line);
        checkHubLogLine(`hub ${socket}`, line);
      },
    }),
    ...(options.paneCheckMs !== undefined && { paneCheckMs: options.paneCheckMs }),
    ...(options.limitClock && { limitClock: options.limitClock }),
    ...(options.scheduleClock && { scheduleClock: options.scheduleClock }),
  });
  const { url } = await app.start();
  const baseUrl = url.replace(/\/graphql$/, '');
  const clients: Client[] = [];
  const queues: LiveQueue<unknown>[] = [];
  const gql: TestHub['gql'] = async (query, variables) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.token && { authorization: `Bearer ${options.token}` }),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as never;
  };
  const wsClient = () => {
    const client = createClient({
      url: url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      ...(options.token && { connectionParams: { authorization: `Bearer ${options.token}` } }),
    });
    clients.push(client);
    return client;
  };
  let shared: Client | null = null;
  let stopped: Promise<void> | null = null;
  const hub: TestHub = {
    app,
    url,
    baseUrl,
    config: parsed.config,
    dataDir,
    logs,
    gql,
    async data(query, variables) {
      const result = await gql(query, variables);
      if (result.errors?.length)
        throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
      return result.data as never;
    },
    wsClient,
    subscribe(query, variables) {
      shared ??= wsClient();
      const queue = new LiveQueue<any>();
      const dispose = shared.subscribe<any>(
        { query, variables: variables ?? {} },
        {
          next: (result) =>
            result.errors
              ? queue.fail(new Error(JSON.stringify(result.errors)))
              : queue.push(result.data),
          error: (error) =>
            queue.fail(error instanceof Error ? error : new Error(JSON.stringify(error))),
          complete: () => queue.complete(),
        },
      );
      queue.onDispose(dispose);
      queues.push(queue);
      return queue;
    },
    stop() {
      stopped ??= (async () => {
        for (const queue of queues) queue.dispose();
        for (const client of clients) await client.dispose();
        await app.stop();
        if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
  leftovers.add(() => hub.stop());
  return hub;
}
