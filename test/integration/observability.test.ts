import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';
import { managedSession } from '../helpers/hook-session.js';

/** The value of one sample in Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('health, readiness, metrics and logs', () => {
  const suite = claudeHubSuite();

  const metrics = async () => {
    const response = await fetch(`${suite.hub.baseUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };

  /** A histogram's observations in `text`, and how many of them took over a second. */
  const timed = (text: string, histogram: string) => {
    const count = sample(text, `${histogram}_count`);
    return { count, overASecond: count - sample(text, `${histogram}_bucket`, '{le="1"}') };
  };
  const delivered = (text: string) => timed(text, 'claude_hub_event_delivery_seconds');

  /** A new session, and how to post a hook event to it with its hook secret. */
  const newSession = () => managedSession(suite.hub, suite.world.makeCwd());

  it('answers liveness and readiness with what it checked', async () => {
    const health = await fetch(`${suite.hub.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${suite.hub.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { store: true, eventLog: true, records: true, tmux: true },
    });
  });

  it('counts events, latency, subscribers, sessions, messages and decisions as they happen', async () => {
    const before = await metrics();
    expect(sample(before, 'claude_hub_sessions', '{status="IDLE"}')).toBe(0);
    const session = await newSession();
    const { post } = session;
    const events = suite.hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }`,
      { id: session.id },
    );
    for (let i = 0; i < 3; i++) {
      expect(await post('Notification', { message: `m${i}` })).toBe(200);
    }
    await events.next();
    const held = post('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'true' } });
    const permissionRequests = await vi.waitFor(
      async () => {
        const data = await suite.hub.data(`{ permissionRequests(status: PENDING) { id } }`);
        expect(data.permissionRequests).toHaveLength(1);
        return data.permissionRequests;
      },
      { timeout: 10_000, interval: 50 },
    );
    await suite.hub.data(
      `mutation($id: ID!) { decidePermission(input: { requestId: $id, behavior: ALLOW }) { error { code } } }`,
      { id: permissionRequests[0].id },
    );
    expect(await held).toBe(200);
    await suite.hub.data(
      `mutation($id: ID!) { enqueueMessage(sessionId: $id, text: "counted") { id } }`,
      { id: session.id },
    );

    const after = await metrics();
    expect(sample(after, 'claude_hub_hook_events_total', '{event="Notification"}')).toBe(
      sample(before, 'claude_hub_hook_events_total', '{event="Notification"}') + 3,
    );
    expect(sample(after, 'claude_hub_hook_events_total', '{event="SessionStart"}')).toBeGreaterThan(
      0,
    );
    expect(sample(after, 'claude_hub_hook_ingest_seconds_count')).toBeGreaterThan(
      sample(before, 'claude_hub_hook_ingest_seconds_count') + 3,
    );
    expect(sample(after, 'claude_hub_subscribers')).toBe(1);
    expect(
      sample(after, 'claude_hub_sessions', '{status="IDLE"}') +
        sample(after, 'claude_hub_sessions', '{status="BUSY"}'),
    ).toBe(1);
    expect(
      sample(
        after,
        'claude_hub_permission_decisions_total',
        '{outcome="ALLOWED",decided_by="token"}',
      ),
    ).toBe(1);
    expect(
      ['QUEUED', 'SENT', 'DELIVERED'].reduce(
        (sum, status) => sum + sample(after, 'claude_hub_messages', `{status="${status}"}`),
        0,
      ),
    ).toBe(1);
    expect(sample(after, 'claude_hub_process_resident_memory_bytes')).toBeGreaterThan(0);
    events.dispose();
  });

  it('times live events from their receipt to their write to a subscriber, replayed ones apart', async () => {
    const session = await newSession();
    const notify = async (message: string) =>
      expect(await session.post('Notification', { message })).toBe(200);
    for (let i = 0; i < 20; i++) await notify(`stored ${i}`);
    // Two seconds old when replayed: counted, they would take more than a second.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = delivered(await metrics());
    const events = suite.hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { payload } }`,
      { id: session.id },
    );
    const until = (message: string) =>
      events.until((value) => value.sessionEvents.payload.message === message);
    await until('stored 19');
    const replayed = delivered(await metrics());
    expect(replayed.overASecond).toBe(before.overASecond);
    for (let i = 0; i < 5; i++) {
      await notify(`live ${i}`);
      await until(`live ${i}`);
    }
    const live = delivered(await metrics());
    // One write each (claude's own events, if any came, add theirs).
    expect(live.count - replayed.count).toBeGreaterThanOrEqual(5);
    expect(live.overASecond).toBe(before.overASecond);
    events.dispose();
  });

  it('times the wait of live events, and of the connection, for a client that stopped reading', async () => {
    const session = await newSession();
    // A raw graphql-ws client, so its socket can stop reading, as on a stalled network.
    const ws = new WebSocket(
      `${suite.hub.baseUrl.replace(/^http/, 'ws')}/graphql`,
      'graphql-transport-ws',
    );
    const received: number[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => ws.send('{"type":"connection_init"}'));
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(String(data));
        if (message.type === 'connection_ack') {
          const query = 'subscription($id: ID!) { sessionEvents(id: $id) { seq payload } }';
          const variables = { id: session.id };
          ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
          setTimeout(resolve, 200);
        } else if (message.type === 'next') received.push(message.payload.data.sessionEvents.seq);
      });
    });
    const behind = (text: string) => timed(text, 'claude_hub_subscriber_behind_seconds');
    const start = await metrics();
    const before = delivered(start);
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    // 16 MB of messages: more than the kernel's socket buffers hold, so the hub waits for the
    // client with the rest.
    const message = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 16; i++) {
      expect(await session.post('Notification', { message })).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    socket.resume();
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(16), {
      timeout: 10_000,
    });
    const end = await metrics();
    const after = delivered(end);
    expect(after.count - before.count).toBeGreaterThanOrEqual(1);
    // Those written once the client read again had waited the 1.5 s it did not.
    expect(after.overASecond - before.overASecond).toBeGreaterThanOrEqual(1);
    // The connection waited for it, once or more, at least once for over a second.
    const [waitsBefore, waitsAfter] = [behind(start), behind(end)];
    expect(waitsAfter.count - waitsBefore.count).toBeGreaterThanOrEqual(1);
    expect(waitsAfter.overASecond).toBeGreaterThan(waitsBefore.overASecond);
    ws.close();
  });

  it('says where a tail comes from: the loop delay since the previous scrape, GC pauses, timed periodic work, subprocess starts', async () => {
    const total = (text: string, prefix: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith(prefix))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    const before = await metrics();
    // The loop held for 400 ms, as a long synchronous task in the hub would hold it: far above
    // anything a busy two-core machine adds on its own, so the span's reset below is clear.
    const until = performance.now() + 400;
    while (performance.now() < until);
    let garbage: unknown[] = [];
    for (let i = 0; i < 500_000; i++) garbage.push({ i, text: `${i}` });
    garbage = [];
    const held = await metrics();
    const longest = sample(held, 'claude_hub_event_loop_delay_seconds', '{quantile="1"}');
    expect(longest).toBeGreaterThan(0.35);
    expect(longest).toBeLessThan(5);
    expect(
      sample(held, 'claude_hub_event_loop_delay_seconds', '{quantile="0.5"}'),
    ).toBeLessThanOrEqual(longest);
    expect(total(held, 'claude_hub_gc_pause_seconds_count')).toBeGreaterThan(
      total(before, 'claude_hub_gc_pause_seconds_count'),
    );
    expect(sample(held, 'claude_hub_gc_pause_max_seconds')).toBeGreaterThan(0);
    // Each scrape starts the span over.
    const next = await metrics();
    expect(sample(next, 'claude_hub_event_loop_delay_seconds', '{quantile="1"}')).toBeLessThan(
      0.35,
    );
    await vi.waitFor(
      async () => {
        const text = await metrics();
        for (const task of ['session_check', 'pane_listing']) {
          expect(
            sample(text, 'claude_hub_periodic_work_seconds_count', `{task="${task}"}`),
          ).toBeGreaterThan(0);
        }
        // Each tmux call (the pane listing's among them) is a subprocess start, timed.
        expect(sample(text, 'claude_hub_spawn_seconds_count')).toBeGreaterThan(0);
        expect(sample(text, 'claude_hub_spawn_seconds_sum')).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 200 },
    );
  });

  it('logs JSON lines that carry the session id', async () => {
    const lines = suite.hub.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const launched = lines.find((line) => line.msg === 'session launched');
    expect(launched).toMatchObject({ level: 'info', sessionId: expect.any(String) });
    expect(typeof launched?.time).toBe('string');
  });
});
