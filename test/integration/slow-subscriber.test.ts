import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { hookSecret } from '../../harness/session-secret.js';

/** A hook answer never waits on a subscriber; this ceiling only catches a stall. */
const hookAnswerBoundMs = 1000;

describe('a subscriber that never reads', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let session: { id: string; tmuxSession: string };
  let secret: string;

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--subscriber-buffer', '50'],
    });
    ({ createSession: session } = await hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
      { cwd: world.makeCwd() },
    ));
    secret = await hookSecret(hub.config.tmuxSocket, session.tmuxSession);
  });

  afterAll(async () => {
    await hub?.stop();
    await world?.close();
  });

  it('delays neither the hook endpoint nor another subscriber, and is dropped with SUBSCRIBER_TOO_SLOW', async () => {
    const { session: before } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { seq } } }`,
      { id: session.id },
    );
    const from: number = before.events.at(-1).seq;
    const query = `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq payload } }`;

    // Both replay the last stored event first: once it is here, the hub streams to them.
    const replayFrom = from - 1;

    // The slow one speaks graphql-ws by hand, then stops reading its socket.
    const slow = new WebSocket(hub.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
    const received: string[] = [];
    slow.on('message', (data) => received.push(String(data)));
    await new Promise((resolve) => slow.once('open', resolve));
    slow.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise((resolve) => slow.once('message', resolve));
    const slowStarted = new Promise((resolve) => slow.once('message', resolve));
    slow.send(
      JSON.stringify({
        id: 'slow',
        type: 'subscribe',
        payload: { query, variables: { id: session.id, after: replayFrom } },
      }),
    );
    const fast = hub.subscribe(query, { id: session.id, after: replayFrom });
    expect((await fast.next()).sessionEvents.seq).toBe(from);
    await slowStarted;
    (slow as unknown as { _socket: { pause(): void } })._socket.pause();

    const count = 300;
    const filler = 'x'.repeat(50_000);
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(`${hub.baseUrl}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({
          session_id: session.id,
          hook_event_name: 'Notification',
          message: `n${i}`,
          filler,
        }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
    }
    expect(Math.max(...latencies)).toBeLessThan(hookAnswerBoundMs);

    const events = await fast.until((value) => value.sessionEvents.seq === from + count);
    expect(events.map((value) => value.sessionEvents.payload.message)).toEqual(
      Array.from({ length: count }, (_, i) => `n${i}`),
    );

    // The hub cut it while it still read nothing, and says so to whoever watches its metrics.
    const cuts = async () => {
      const text = await (await fetch(`${hub.baseUrl}/metrics`)).text();
      return Number(/^claude_hub_subscribers_cut_total (\d+)$/m.exec(text)?.[1]);
    };
    await vi.waitFor(async () => expect(await cuts()).toBe(1), { timeout: 10_000, interval: 50 });

    (slow as unknown as { _socket: { resume(): void } })._socket.resume();
    await vi.waitFor(
      () => expect(received.some((text) => text.includes('SUBSCRIBER_TOO_SLOW'))).toBe(true),
      { timeout: 10_000, interval: 50 },
    );
    const error = received
      .map((text) => JSON.parse(text))
      .find((message) => message.type === 'error');
    expect(error).toMatchObject({
      id: 'slow',
      payload: [{ extensions: { code: 'SUBSCRIBER_TOO_SLOW' } }],
    });
    // What it did get before falling behind came in order, without a gap.
    const seqs = received
      .map((text) => JSON.parse(text))
      .filter((message) => message.type === 'next')
      .map((message) => message.payload.data.sessionEvents.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => from + i));
    expect(seqs.length).toBeLessThan(count);
    slow.terminate();
    fast.dispose();
  });
});
