import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { wsServerKinds } from '../../src/config/index.js';
import { HubCloseCode } from '../../src/subscriptions/graphql-ws-options.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, leftovers } from '../helpers/leftovers.js';
import { subscribeToEvents } from '../helpers/event-subscription.js';
import type { LiveQueue } from '../helpers/live-queue.js';
import { openSse } from '../helpers/sse.js';
import { expectErrorLog } from '../helpers/unexpected-output.js';
import { managedSession } from '../helpers/hook-session.js';

/** The next `n` values of a subscription. */
async function take<T>(queue: LiveQueue<T>, n: number): Promise<T[]> {
  const values: T[] = [];
  while (values.length < n) values.push(await queue.next());
  return values;
}

const masked = { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };

describe.each(wsServerKinds)('graphql-ws server "%s"', (kind) => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  const serverArgs = ['--graphql-ws-server', kind];

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, ...serverArgs],
    });
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
    leftovers.add(() => client.dispose());
    return client;
  }

  /** A new session, and how to post a Notification to it with its hook secret. */
  async function notifiable() {
    const session = await managedSession(hub, world.makeCwd());
    return { session, post: (message: string) => session.post('Notification', { message }) };
  }

  it('sends every event to every subscriber, in order, shared or not, live and replayed', async () => {
    const { session, post } = await notifiable();
    // The SessionStart of claude comes first; the subscriptions start after it.
    const first = subscribeToEvents(hub.url, session.id, 0, 'seq');
    const { seq: start } = await first.next();
    first.dispose();
    const same = [1, 2].map(() => subscribeToEvents(hub.url, session.id, start, 'seq payload'));
    const other = subscribeToEvents(hub.url, session.id, start, 'seq eventName');
    for (const queue of [...same, other]) leftovers.add(() => queue.dispose());
    for (let n = 1; n <= 20; n++) expect(await post(`note ${n}`)).toBe(200);
    const seqs = Array.from({ length: 20 }, (_, i) => start + 1 + i);
    for (const queue of same) {
      const events = await take(queue, 20);
      expect(events.map((event) => event.seq)).toEqual(seqs);
      expect(events.map((event) => event.payload.message)).toEqual(
        seqs.map((_, i) => `note ${i + 1}`),
      );
    }
    const others = await take(other, 20);
    expect(others).toEqual(seqs.map((seq) => ({ seq, eventName: 'Notification' })));
    const replay = subscribeToEvents(hub.url, session.id, start, 'seq');
    leftovers.add(() => replay.dispose());
    expect((await take(replay, 20)).map((event) => event.seq)).toEqual(seqs);
  });

  it("ends a live subscription with complete after the session's last event, and a client's complete ends only its own", async () => {
    const { session, post } = await notifiable();
    // Live from now (no after): each has caught up once the first note reaches it.
    const [kept, left] = [1, 2].map(() =>
      subscribeToEvents(hub.url, session.id, null, 'seq eventName payload'),
    );
    for (const queue of [kept!, left!]) leftovers.add(() => queue.dispose());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await post('first')).toBe(200);
    const [first] = await kept!.until((event) => event.payload.message === 'first');
    expect((await left!.until((event) => event.payload.message === 'first')).at(-1)).toEqual(first);
    left!.dispose();
    expect(await post('second')).toBe(200);
    expect((await kept!.next()).payload.message).toBe('second');

    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { status } }`, { id: session.id });
    const rest = await kept!.until((event) => event.eventName === 'SessionEnd');
    await kept!.waitForComplete();
    // Every event once, in order, the SessionEnd among the last.
    const seqs = [first.seq, first.seq + 1, ...rest.map((event: { seq: number }) => event.seq)];
    expect(seqs.slice(1)).toEqual(seqs.slice(1).map((_, i) => first.seq + 1 + i));
    expect(left!.received.map((event) => event.payload.message)).not.toContain('second');
  });

  it('refuses a message only a server sends with 4400, as the protocol asks', async () => {
    const ws = new WebSocket(hub.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise((resolve) => ws.once('message', resolve));
    ws.send(JSON.stringify({ id: '1', type: 'next', payload: { data: null } }));
    expect(await closed).toBe(4400);
  });

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
    const limited = await startHub({ args: ['--max-connections', '1', ...serverArgs] });
    const holder = wsClient({ lazy: false, onNonLazyError: () => undefined }, limited);
    await new Promise((resolve) => holder.on('connected', resolve));

    const closes: { code: number; reason: string }[] = [];
    const retrying = wsClient(
      {
        lazy: false,
        onNonLazyError: () => undefined,
        retryAttempts: 50,
        shouldRetry: () => true,
        // The client's back-off between attempts, not a wait of the test's.
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
