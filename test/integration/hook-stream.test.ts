import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { hookSecret } from '../../harness/session-secret.js';
import { openSse } from '../helpers/sse.js';

const fields = `__typename seq sessionId eventName payload
  ... on NotificationEvent { message title notificationType }
  ... on PreToolUseEvent { toolName toolInput toolUseId }`;

describe('POST /hooks to subscribers', () => {
  let world: ClaudeWorld;
  let hub: TestHub;
  let session: { id: string; tmuxSession: string };
  let other: { id: string; tmuxSession: string };
  let secret: string;
  let otherSecret: string;

  const post = (
    body: string | object,
    auth: string | null = secret,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${hub.baseUrl}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(auth === null ? {} : { authorization: `Bearer ${auth}` }),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const lastSeq = async (id: string) => {
    const { session: s } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 1000) { seq } } }`,
      { id },
    );
    return (s.events as { seq: number }[]).at(-1)?.seq ?? 0;
  };

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin, '--max-hook-body', String(1024 * 1024)],
    });
    const create = `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`;
    [{ createSession: session }, { createSession: other }] = await Promise.all([
      hub.data(create, { cwd: world.makeCwd() }),
      hub.data(create, { cwd: world.makeCwd() }),
    ]);
    secret = await hookSecret(hub.config.tmuxSocket, session.tmuxSession);
    otherSecret = await hookSecret(hub.config.tmuxSocket, other.tmuxSession);
  });

  it('delivers posted events over graphql-ws typed, in order, with the payload verbatim', async () => {
    const from = await lastSeq(session.id);
    const events = hub.subscribe(
      `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { ${fields} } }`,
      {
        id: session.id,
        after: from,
      },
    );
    const payloads = [
      {
        session_id: session.id,
        hook_event_name: 'Notification',
        message: 'needs you',
        title: 'T',
        notification_type: 'idle_prompt',
        cwd: '/x',
      },
      {
        session_id: session.id,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls "$HOME" ✓' },
        tool_use_id: 'toolu_1',
      },
      {
        session_id: session.id,
        hook_event_name: 'SomethingFromANewerCli',
        nested: { a: [1, null, 'two'] },
        big: 1e300,
      },
    ];
    for (const payload of payloads) {
      const response = await post(payload);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
    const received = [await events.next(), await events.next(), await events.next()].map(
      (e) => e.sessionEvents,
    );
    expect(received.map((e) => e.seq)).toEqual([from + 1, from + 2, from + 3]);
    expect(received[0]).toMatchObject({
      __typename: 'NotificationEvent',
      message: 'needs you',
      title: 'T',
      notificationType: 'idle_prompt',
    });
    expect(received[1]).toMatchObject({
      __typename: 'PreToolUseEvent',
      toolName: 'Bash',
      toolInput: { command: 'ls "$HOME" ✓' },
      toolUseId: 'toolu_1',
    });
    expect(received[2]).toMatchObject({
      __typename: 'UnknownHookEvent',
      eventName: 'SomethingFromANewerCli',
      sessionId: session.id,
    });
    expect(received.map((e) => e.payload)).toEqual(payloads);
  });

  it('frames events of every size, several at once, for each subscriber', async () => {
    const from = await lastSeq(session.id);
    const query = `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq payload } }`;
    // The last stored event, replayed first, says the hub streams to a subscriber: what is
    // posted after it reaches the first two live. The third replays everything.
    const live = [
      hub.subscribe(query, { id: session.id, after: from - 1 }),
      hub.subscribe(query, { id: session.id, after: from - 1 }),
    ];
    for (const events of live) expect((await events.next()).sessionEvents.seq).toBe(from);
    const replayed = hub.subscribe(query, { id: session.id, after: from });
    // A WebSocket frame's length takes 7 bits up to 125 bytes, 16 up to 65,535, then 64; '✓'
    // is three bytes, so a message's length in bytes is not its length in characters.
    const fillers = ['', '✓'.repeat(50), 'x'.repeat(200), '✓'.repeat(30_000), 'y'.repeat(70_000)];
    const payloads = fillers.map((filler, i) => ({
      session_id: session.id,
      hook_event_name: 'Notification',
      message: `size ${i}`,
      filler,
    }));
    // Posted together, so several events reach the subscribers in one turn of the hub.
    const statuses = await Promise.all(payloads.map(async (p) => (await post(p)).status));
    expect(statuses).toEqual(payloads.map(() => 200));
    for (const events of [...live, replayed]) {
      const received = [];
      for (const _ of payloads) received.push((await events.next()).sessionEvents);
      expect(received.map((e) => e.seq)).toEqual(payloads.map((_, i) => from + 1 + i));
      expect(received.map((e) => e.payload.filler).sort()).toEqual([...fillers].sort());
    }
  });

  it('refuses bad hook requests with a JSON error and stores none of them', async () => {
    const before = await lastSeq(session.id);
    const good = { session_id: session.id, hook_event_name: 'Notification', message: 'x' };
    const cases: [Promise<Response>, number, string][] = [
      [post(good, null), 401, 'UNAUTHORIZED'],
      [post(good, 'not-a-secret'), 401, 'UNAUTHORIZED'],
      [post(good, otherSecret), 401, 'UNAUTHORIZED'],
      [post('{"session_id": "x", ', secret), 400, 'BAD_HOOK_PAYLOAD'],
      [post({ hook_event_name: 'Stop' }), 400, 'BAD_HOOK_PAYLOAD'],
      [post({ session_id: session.id }), 400, 'BAD_HOOK_PAYLOAD'],
      [post([good]), 400, 'BAD_HOOK_PAYLOAD'],
      [
        post({ session_id: session.id, hook_event_name: 'HubEventsMissed', steps: [] }),
        400,
        'BAD_HOOK_PAYLOAD',
      ],
      [post({ ...good, filler: 'x'.repeat(2 * 1024 * 1024) }), 413, 'PAYLOAD_TOO_LARGE'],
      [fetch(`${hub.baseUrl}/hooks`), 405, 'METHOD_NOT_ALLOWED'],
    ];
    for (const [request, status, code] of cases) {
      const response = await request;
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await response.json()) as { error: string; code: string };
      expect(body.code).toBe(code);
      expect(body.error.length).toBeGreaterThan(3);
    }
    expect(await lastSeq(session.id)).toBe(before);
    expect(await lastSeq(other.id)).toBeGreaterThan(0);
  });

  it('keeps two sessions apart: each stream only has its own events', async () => {
    // Replaying from the current end, so nothing is missed however late the server subscribes.
    const query = `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { sessionId payload } }`;
    const a = hub.subscribe(query, { id: session.id, after: await lastSeq(session.id) });
    const b = hub.subscribe(query, { id: other.id, after: await lastSeq(other.id) });
    await Promise.all([
      post({ session_id: session.id, hook_event_name: 'Notification', message: 'for a' }),
      post(
        { session_id: other.id, hook_event_name: 'Notification', message: 'for b' },
        otherSecret,
      ),
    ]);
    expect((await a.next()).sessionEvents).toMatchObject({
      sessionId: session.id,
      payload: { message: 'for a' },
    });
    expect((await b.next()).sessionEvents).toMatchObject({
      sessionId: other.id,
      payload: { message: 'for b' },
    });
    // A stray event would come before each stream's next own one.
    await post({ session_id: session.id, hook_event_name: 'Notification', message: 'a again' });
    await post(
      { session_id: other.id, hook_event_name: 'Notification', message: 'b again' },
      otherSecret,
    );
    expect((await a.next()).sessionEvents.payload.message).toBe('a again');
    expect((await b.next()).sessionEvents.payload.message).toBe('b again');
    expect(a.received.map((e) => e.sessionEvents.sessionId)).toEqual([session.id, session.id]);
    expect(b.received.map((e) => e.sessionEvents.sessionId)).toEqual([other.id, other.id]);
  });

  it('replays with after and goes live with no gap and no duplicate while events keep arriving', async () => {
    const start = await lastSeq(session.id);
    const burst = (from: number, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          post({
            session_id: session.id,
            hook_event_name: 'Notification',
            message: `m${from + i}`,
          }),
        ),
      );
    await burst(0, 50);
    const replaying = burst(50, 150);
    const events = hub.subscribe(
      `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq payload } }`,
      {
        id: session.id,
        after: start,
      },
    );
    await replaying;
    await burst(200, 50);
    const seqs: number[] = [];
    while (seqs.length < 250) seqs.push((await events.next()).sessionEvents.seq);
    expect(seqs).toEqual(Array.from({ length: 250 }, (_, i) => start + 1 + i));
    // A duplicate would come before the event posted last.
    await burst(250, 1);
    expect((await events.next()).sessionEvents.seq).toBe(start + 251);
    expect(events.received).toHaveLength(251);

    const { session: paged } = await hub.data(
      `query($id: ID!, $after: Int) { session(id: $id) { events(after: $after, limit: 3, names: ["Notification"]) { seq eventName } } }`,
      { id: session.id, after: start + 10 },
    );
    expect(paged.events).toEqual(
      [11, 12, 13].map((n) => ({ seq: start + n, eventName: 'Notification' })),
    );
  });

  it("streams over yoga's SSE transport too", async () => {
    const from = await lastSeq(session.id);
    const stream = openSse(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: `subscription($id: ID!, $after: Int) { sessionEvents(id: $id, after: $after) { seq eventName ... on NotificationEvent { message } } }`,
        variables: { id: session.id, after: from - 1 },
      }),
    });
    expect(await stream.status).toBe(200);
    await post({ session_id: session.id, hook_event_name: 'Notification', message: 'over sse' });
    const first = JSON.parse((await stream.until((m) => m.event === 'next')).at(-1)!.data);
    const second = JSON.parse((await stream.until((m) => m.event === 'next')).at(-1)!.data);
    expect(first.data.sessionEvents.seq).toBe(from);
    expect(second.data.sessionEvents).toEqual({
      seq: from + 1,
      eventName: 'Notification',
      message: 'over sse',
    });
    stream.abort();
  });

  it('serves plain SSE at /sessions/:id/events with the raw body as data', async () => {
    const from = await lastSeq(session.id);
    const raw =
      '{"session_id":"' +
      session.id +
      '","hook_event_name":"Notification","message":"line1\\nline2",  "spacing":  true}';
    const stream = openSse(`${hub.baseUrl}/sessions/${session.id}/events?after=${from}`);
    expect(await stream.status).toBe(200);
    expect((await post(raw)).status).toBe(200);
    const message = await stream.next();
    expect(message).toEqual({ event: 'hook', id: String(from + 1), data: raw });
    stream.abort();

    const missing = await fetch(
      `${hub.baseUrl}/sessions/00000000-0000-0000-0000-000000000000/events`,
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    const bad = await fetch(`${hub.baseUrl}/sessions/${session.id}/events?after=-3`);
    expect(bad.status).toBe(400);
  });

  it('answers a subscription to an unknown session with a clear error', async () => {
    const events = hub.subscribe(`subscription { sessionEvents(id: "nope") { seq } }`);
    await expect(events.next()).rejects.toThrow(/SESSION_NOT_FOUND|no session has id "nope"/);
  });

  it('prints live events with their typed fields through claude-code-hub tail', async () => {
    const tail = execa(
      'node',
      ['--import', 'tsx', 'src/main.ts', 'tail', session.id, '--after', '0', '--url', hub.url],
      {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { NO_COLOR: '1' },
        reject: false,
      },
    );
    await post({
      session_id: session.id,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'tail me' },
      tool_use_id: 't9',
    });
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`tail printed only ${JSON.stringify(lines)}`)),
        20_000,
      );
      tail.stdout!.on('data', (chunk: Buffer) => {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        if (lines.some((line) => line.includes('tail me'))) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    tail.kill('SIGTERM');
    await tail;
    expect(lines[0]).toMatch(/^#1 \d\d:\d\d:\d\d SessionStart$/);
    expect(lines.at(-1)).toMatch(/^#\d+ \d\d:\d\d:\d\d PreToolUse Bash \{"command":"tail me"\}$/);
  });
});
