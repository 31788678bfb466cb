import { tokensByScope, writeTokensFile } from '../helpers/tokens-file.js';
import path from 'node:path';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { wsServerKinds } from '../../src/config/index.js';
import { hookSession } from '../helpers/hook-session.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite, leftovers, tempDir } from '../helpers/leftovers.js';
import type { LiveQueue } from '../helpers/live-queue.js';

const mib = 1024 * 1024;
const secrets = { read: 'ws-read-secret-0123456789', hook: 'ws-hook-secret-0123456789' };

/** A WebSocket speaking graphql-transport-ws, with every message it got and how it closed. */
interface RawConnection {
  readonly ws: WebSocket;
  readonly messages: { type: string }[];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the next message. */
  next(): Promise<{ type: string; payload?: unknown }>;
}

/** `[[[[…]]]]` of `bytes`: what JSON.parse builds level by level, unless counted first. */
const nested = (bytes: number) => `${'['.repeat(bytes / 2)}${']'.repeat(bytes / 2)}`;

describe.each(wsServerKinds)('graphql-ws server "%s" refuses', (kind) => {
  disposeWithSuite();
  let hub: TestHub;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('cch-ws-refusals-');
    const tokensFile = writeTokensFile(
      dir,
      tokensByScope({ read: secrets.read, hook: secrets.hook }),
    );
    hub = await startHub({
      // A claude config of its own: no claude of the machine is the hub's to find.
      env: { ...process.env, CLAUDE_CONFIG_DIR: path.join(dir, 'claude') },
      token: secrets.read,
      args: [
        '--tokens-file',
        tokensFile,
        '--graphql-ws-server',
        kind,
        // Room for a 2 MiB message, so that its nesting is what refuses it.
        '--max-graphql-body',
        String(4 * mib),
      ],
    });
  });

  function connect(options: WebSocket.ClientOptions = {}): RawConnection {
    const ws = new WebSocket(hub.url.replace(/^http/, 'ws'), 'graphql-transport-ws', options);
    const messages: { type: string }[] = [];
    const waiting: ((message: { type: string }) => void)[] = [];
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string };
      messages.push(message);
      waiting.shift()?.(message);
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    ws.on('error', () => undefined);
    leftovers.add(() => ws.terminate());
    return { ws, messages, closed, next: () => new Promise((resolve) => waiting.push(resolve)) };
  }

  /** A connection the read token has opened: connection_ack received. */
  async function acknowledged(options: WebSocket.ClientOptions = {}): Promise<RawConnection> {
    const connection = connect(options);
    await new Promise((resolve) => connection.ws.once('open', resolve));
    connection.ws.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { authorization: `Bearer ${secrets.read}` },
      }),
    );
    expect(await connection.next()).toEqual({ type: 'connection_ack' });
    return connection;
  }

  it('a hook token at connection_init with 4403, however it is given, and acknowledges nothing', async () => {
    const refusal = {
      code: 4403,
      reason: 'token "hook-bot" has scope hook; graphql-ws needs read',
    };
    const ways: [WebSocket.ClientOptions, Record<string, unknown> | undefined][] = [
      [{}, { authorization: `Bearer ${secrets.hook}` }],
      [{}, { token: secrets.hook }],
      [{ headers: { authorization: `Bearer ${secrets.hook}` } }, undefined],
    ];
    for (const [options, payload] of ways) {
      const connection = connect(options);
      await new Promise((resolve) => connection.ws.once('open', resolve));
      connection.ws.send(JSON.stringify({ type: 'connection_init', payload }));
      // Closed before any answer: no connection_ack, so no operation of its could ever run.
      const answer = connection.next().then((message) => ({ message }));
      expect(await Promise.race([connection.closed, answer])).toEqual(refusal);
      expect(connection.messages).toEqual([]);
    }
    // The same connection with the read token is acknowledged.
    await acknowledged();
  });

  it('a message past --max-graphql-body (1009), plain or compressed, or nested too deep (4400), answering meanwhile, other subscriptions going on', async () => {
    // Started by hand, its hooks posting with the token of scope hook.
    const session = await hookSession(hub, { token: secrets.hook, cwd: dir });
    const query = `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { eventName payload } }`;
    const events: LiveQueue<any> = hub.subscribe(query, { id: session.id });
    expect((await events.next()).sessionEvents.eventName).toBe('SessionStart');

    const hostile = [
      { sent: Buffer.from(nested(32 * mib)), deflate: false, code: 1009, reason: '' },
      // 32 KB compressed: the hub's own server takes permessage-deflate, and counts what it inflates.
      { sent: Buffer.from(nested(32 * mib)), deflate: true, code: 1009, reason: '' },
      {
        sent: Buffer.from(nested(2 * mib)),
        deflate: true,
        code: 4400,
        reason: 'the message nests arrays or objects deeper than 512 levels',
      },
    ];
    for (const [n, { sent, deflate, code, reason }] of hostile.entries()) {
      // An all-zero mask: the client sends its bytes as they are, as a hostile one would.
      const connection = await acknowledged({
        generateMask: (mask) => mask.fill(0),
        perMessageDeflate: deflate,
      });
      expect(connection.ws.extensions).toBe(
        deflate && kind !== 'library' ? 'permessage-deflate' : '',
      );
      let closedYet = false;
      let longestHealthz = 0;
      const probes = (async () => {
        while (!closedYet) {
          const t0 = performance.now();
          expect((await fetch(`${hub.baseUrl}/healthz`)).status).toBe(200);
          longestHealthz = Math.max(longestHealthz, performance.now() - t0);
        }
      })();
      const t0 = performance.now();
      connection.ws.send(sent, { binary: false, compress: deflate });
      const closed = await connection.closed;
      const tookMs = performance.now() - t0;
      closedYet = true;
      await probes;
      expect(closed).toEqual({ code, reason });
      expect(tookMs).toBeLessThan(1000);
      expect(longestHealthz).toBeLessThan(500);
      // Nothing after the acknowledgement: the message was never taken for an operation.
      expect(connection.messages).toEqual([{ type: 'connection_ack' }]);
      // The subscription on the other connection goes on.
      const message = `after hostile message ${n}`;
      expect(await session.post('Notification', { message })).toBe(200);
      expect((await events.next()).sessionEvents).toMatchObject({ payload: { message } });
    }

    // An ordinary message of 2 MiB (a long variable) is within the bound, and served.
    const connection = await acknowledged();
    const variables = { id: session.id, note: 'x'.repeat(2 * mib) };
    connection.ws.send(
      JSON.stringify({ id: 'big', type: 'subscribe', payload: { query, variables } }),
    );
    expect(await connection.next()).toMatchObject({
      id: 'big',
      type: 'next',
      payload: { data: { sessionEvents: { eventName: 'SessionStart' } } },
    });
  });
});
