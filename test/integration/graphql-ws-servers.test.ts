import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HubCloseCode } from '../../src/http/websocket.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import { claudeBin, startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openSse } from '../helpers/sse.js';
import { expectErrorLog } from '../helpers/unexpected-output.js';

const masked = { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };

describe('errors and closes a client sees', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  const leftovers: (() => unknown)[] = [];

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin],
    });
  });

  afterAll(async () => {
    for (const dispose of leftovers) await dispose();
    await hub?.stop();
    await world?.close();
  });

  function wsClient(
    options: Partial<Parameters<typeof createClient>[0]> = {},
    on: TestHub = hub,
  ): Client {
    const client = createClient({
      url: on.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      ...options,
    });
    leftovers.push(() => client.dispose());
    return client;
  }

  it('masks an unexpected error on every transport, as yoga does, and logs it', async () => {
    const { createSession } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id } }`,
      { cwd: world.makeCwd() },
    );
    const id = createSession.id as string;
    const read = vi.spyOn(SqliteEventLog.prototype, 'read').mockImplementation(() => {
      throw new Error('disk failure at /secret/place');
    });
    expectErrorLog(/disk failure at \/secret\/place/);
    try {
      const query = `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }`;
      const client = wsClient();
      const overWs = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query, variables: { id } },
          { next: resolve, error: resolve, complete: () => resolve('complete') },
        );
      });
      expect(overWs).toEqual([masked]);
      await client.dispose();

      const overSse = await fetch(hub.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query, variables: { id } }),
      });
      const text = await overSse.text();
      expect(text).toContain('"message":"Unexpected error."');
      expect(text).not.toContain('/secret/place');

      const plain = openSse(`${hub.baseUrl}/sessions/${id}/events?after=0`);
      const ended = await plain.waitForComplete().then(
        () => plain.received,
        (error: Error) => error.message,
      );
      expect(ended).toEqual([
        {
          event: 'error',
          data: JSON.stringify({ error: 'Unexpected error.', code: 'INTERNAL_SERVER_ERROR' }),
          id: undefined,
        },
      ]);
      plain.abort();
    } finally {
      read.mockRestore();
    }
  });

  it('closes a connection over --max-connections with a code of its own, which clients retry', async () => {
    const limited = await startHub({ args: ['--max-connections', '1'] });
    leftovers.push(() => limited.stop());
    const holder = wsClient({ lazy: false, onNonLazyError: () => undefined }, limited);
    await new Promise((resolve) => holder.on('connected', resolve));

    const closes: { code: number; reason: string }[] = [];
    const retrying = wsClient(
      {
        lazy: false,
        onNonLazyError: () => undefined,
        retryAttempts: 50,
        shouldRetry: () => true,
        retryWait: () => new Promise((resolve) => setTimeout(resolve, 50)),
      },
      limited,
    );
    retrying.on('closed', (event) => closes.push(event as { code: number; reason: string }));
    const connected = new Promise((resolve) => retrying.on('connected', resolve));
    await vi.waitFor(() => expect(closes.length).toBeGreaterThan(0));
    expect(closes[0]).toMatchObject({
      code: HubCloseCode.TooManyConnections,
      reason: 'token "local" has too many connections',
    });
    await holder.dispose();
    await connected;
  });
});
