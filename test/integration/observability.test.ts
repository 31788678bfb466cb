import { describe, expect, it, vi } from 'vitest';
import { claudeHubSuite } from '../helpers/claude-hub-suite.js';
import { hookSecret } from '../../harness/session-secret.js';

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

  it('answers liveness and readiness with what it checked', async () => {
    const health = await fetch(`${suite.hub.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${suite.hub.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { store: true, tmux: true } });
  });

  it('counts events, latency, subscribers, sessions, messages and decisions as they happen', async () => {
    const before = await metrics();
    expect(sample(before, 'claude_hub_sessions', '{status="IDLE"}')).toBe(0);
    const { createSession: session } = await suite.hub.data(
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
      { cwd: suite.world.makeCwd() },
    );
    const secret = await hookSecret(suite.hub.config.tmuxSocket, session.tmuxSession);
    const events = suite.hub.subscribe(
      `subscription($id: ID!) { sessionEvents(id: $id, after: 0) { seq } }`,
      { id: session.id },
    );
    const post = (payload: object) =>
      fetch(`${suite.hub.baseUrl}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ session_id: session.id, ...payload }),
      });
    for (let i = 0; i < 3; i++) {
      expect((await post({ hook_event_name: 'Notification', message: `m${i}` })).status).toBe(200);
    }
    await events.next();
    const held = post({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'true' },
    });
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
    expect((await held).status).toBe(200);
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
    expect(sample(after, 'claude_hub_permission_decisions_total', '{outcome="ALLOWED"}')).toBe(1);
    expect(
      ['QUEUED', 'SENT', 'DELIVERED'].reduce(
        (sum, status) => sum + sample(after, 'claude_hub_messages', `{status="${status}"}`),
        0,
      ),
    ).toBe(1);
    expect(sample(after, 'claude_hub_process_resident_memory_bytes')).toBeGreaterThan(0);
    events.dispose();
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
