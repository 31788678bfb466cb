import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { parseConfig, type HubConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log.js';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { freePort } from '../../harness/free-port.js';
import { gqlData } from '../../harness/graphql-http.js';
import { hubArgs } from '../../harness/hub-process.js';
import { hubHome } from '../helpers/hub-process.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { subscribeToEvents } from '../helpers/event-subscription.js';
import type { LiveQueue } from '../helpers/live-queue.js';
import { panePid, waitForScreen } from '../../harness/tmux-server.js';
import { disposeWithSuite, tempDir } from '../helpers/leftovers.js';
import { managedSession } from '../helpers/hook-session.js';

const eventFields = `__typename seq eventName payload
  ... on SessionStartEvent { source }
  ... on SessionEndEvent { reason }
  ... on PostToolUseEvent { toolResponse }
  ... on HubEventsMissedEvent { since until stepCount steps turnOver }`;

function subscribeTo(url: string, id: string, after: number | null): LiveQueue<any> {
  return subscribeToEvents(url, id, after, eventFields);
}

describe('continuity', () => {
  let world: ClaudeWorld;

  beforeAll(async () => {
    world = await startClaudeWorld();
  });

  it('re-adopts a session after the hub is SIGKILLed mid-turn, and marks what it missed', async () => {
    const home = hubHome('kill');
    const { socket } = home;
    const args = hubArgs({ port: await freePort(), ...home });
    const first = await home.spawn(args, world.env);
    const { createSession: session } = await gqlData(
      first.url,
      `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
      {
        cwd: world.makeCwd(),
      },
    );
    const live = subscribeTo(first.url, session.id, 0);
    await gqlData(
      first.url,
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "slow: 2500\\nrun: echo while-down") { id } }`,
      { id: session.id },
    );
    await live.until((e) => e.eventName === 'UserPromptSubmit');
    first.process.kill('SIGKILL');
    await first.process;
    live.dispose();

    // claude carries on without the hub: hooks fail fast, the tool runs, the turn ends.
    await waitForScreen(socket, session.tmuxSession, /ran: while-down/);

    const second = await home.spawn(args, world.env);
    const { session: adopted } = await gqlData(
      second.url,
      `query($id: ID!) { session(id: $id) { status lastAssistantMessage } }`,
      { id: session.id },
    );
    expect(adopted).toEqual({ status: 'IDLE', lastAssistantMessage: 'ran: while-down' });

    const replay = subscribeTo(second.url, session.id, 0);
    const events = await replay.until((e) => e.eventName === 'HubEventsMissed');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.eventName === 'UserPromptSubmit')).toHaveLength(1);
    const missed = events.at(-1);
    expect(missed.__typename).toBe('HubEventsMissedEvent');
    expect(missed.turnOver).toBe(true);
    expect(missed.steps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'tool_use',
          name: 'Bash',
          input: expect.objectContaining({ command: 'echo while-down' }),
        }),
        expect.objectContaining({ kind: 'tool_result', text: 'while-down', isError: false }),
        expect.objectContaining({ kind: 'assistant', text: 'ran: while-down' }),
      ]),
    );

    await gqlData(
      second.url,
      `mutation($id: ID!) { sendMessage(sessionId: $id, text: "run: echo after-restart") { id } }`,
      { id: session.id },
    );
    const next = await replay.until((e) => e.eventName === 'Stop', 45_000);
    expect(next[0].seq).toBe(missed.seq + 1);
    expect(next.map((e) => e.seq)).toEqual(next.map((_, i) => missed.seq + 1 + i));
    expect(next.find((e) => e.eventName === 'PostToolUse').toolResponse.stdout).toBe(
      'after-restart',
    );

    // A normal shutdown leaves the session running for the next start.
    replay.dispose();
    second.process.kill('SIGTERM');
    expect((await second.process).exitCode).toBe(0);
    const pid = await panePid(socket, session.tmuxSession);
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(session.id);
  });

  describe('on one hub', () => {
    disposeWithSuite();
    let hub: TestHub;

    beforeAll(async () => {
      hub = await startHub({
        env: world.env,
        args: ['--claude-bin', claudeBin, '--restart-delay', '1', '--restart-limit', '1'],
        // No periodic pane list within a test: a crash is noticed by its process having exited.
        paneCheckMs: 600_000,
      });
    });

    const create = async () =>
      (
        await hub.data(
          `mutation($cwd: String!) { createSession(input: { cwd: $cwd }) { id tmuxSession } }`,
          { cwd: world.makeCwd() },
        )
      ).createSession as { id: string; tmuxSession: string };
    const send = (id: string, text: string, kind = 'PROMPT') =>
      hub.data(
        `mutation($id: ID!, $text: String!, $kind: MessageKind) { sendMessage(sessionId: $id, text: $text, kind: $kind) { id } }`,
        { id, text, kind },
      );
    const state = async (id: string) =>
      (
        await hub.data(
          `query($id: ID!) { session(id: $id) { status restartCount claudeSessionId error } }`,
          { id },
        )
      ).session;

    it('restarts a crashed claude with --resume and keeps the same stream', async () => {
      const session = await create();
      const events = subscribeTo(hub.url, session.id, 0);
      await send(session.id, 'before the crash');
      const [stop] = (await events.until((e) => e.eventName === 'Stop', 30_000)).slice(-1);
      // Kill it once the transcript holds the turn (claude writes it a moment after Stop).
      await expect
        .poll(() => readFileSync(stop.payload.transcript_path, 'utf8'), {
          timeout: 10_000,
          interval: 50,
        })
        .toContain('echo: before the crash');
      process.kill(await panePid(hub.config.tmuxSocket, session.tmuxSession), 'SIGKILL');

      const restarted = await events.until((e) => e.eventName === 'SessionStart', 30_000);
      expect(restarted.at(-1).source).toBe('resume');
      expect(await state(session.id)).toMatchObject({
        status: 'IDLE',
        restartCount: 1,
        claudeSessionId: session.id,
        error: null,
      });

      await send(session.id, 'run: echo after-crash');
      const turn = await events.until((e) => e.eventName === 'Stop', 45_000);
      expect(turn.find((e) => e.eventName === 'PostToolUse').toolResponse.stdout).toBe(
        'after-crash',
      );

      // A second crash inside the window passes --restart-limit 1: no more restarts, and it says why.
      process.kill(await panePid(hub.config.tmuxSocket, session.tmuxSession), 'SIGKILL');
      await vi.waitFor(
        async () =>
          expect(await state(session.id)).toMatchObject({
            status: 'CRASHED',
            error: expect.stringMatching(
              /^claude exited[\s\S]*not restarted again: it crashed after 1 restarts within 600 s$/,
            ),
          }),
        { timeout: 10_000, interval: 200 },
      );
      // Not synchronisation: a restart, were there one, would come 2 s after the crash (the
      // 1 s delay, doubled); it stays CRASHED past that.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await state(session.id)).toMatchObject({ status: 'CRASHED', restartCount: 1 });
      events.dispose();
    });

    it('follows /clear to the new Claude session id, and /compact keeps it', async () => {
      const session = await create();
      const events = subscribeTo(hub.url, session.id, 0);
      await events.until((e) => e.eventName === 'SessionStart');
      await send(session.id, '/clear', 'SLASH_COMMAND');
      const cleared = await events.until((e) => e.eventName === 'SessionStart', 30_000);
      expect(cleared.map((e) => e.eventName)).toContain('SessionEnd');
      expect(cleared.find((e) => e.eventName === 'SessionEnd').reason).toBe('clear');
      const newId = cleared.at(-1).payload.session_id;
      expect(cleared.at(-1).source).toBe('clear');
      expect(newId).not.toBe(session.id);
      expect(await state(session.id)).toMatchObject({ status: 'IDLE', claudeSessionId: newId });

      await send(session.id, 'hello after clear');
      const turn = await events.until((e) => e.eventName === 'Stop', 30_000);
      expect(turn.find((e) => e.eventName === 'UserPromptSubmit').payload).toMatchObject({
        session_id: newId,
        prompt: 'hello after clear',
      });

      await send(session.id, '/compact', 'SLASH_COMMAND');
      const compacted = await events.until((e) => e.eventName === 'SessionStart', 30_000);
      expect(compacted.at(-1)).toMatchObject({ source: 'compact', payload: { session_id: newId } });
      expect((await state(session.id)).claudeSessionId).toBe(newId);
      events.dispose();
    });

    it('resumes a stopped session with the same id and stream', async () => {
      const session = await create();
      await send(session.id, 'remember me');
      const first = subscribeTo(hub.url, session.id, 0);
      await first.until((e) => e.eventName === 'Stop', 30_000);
      await hub.data(`mutation($id: ID!) { stopSession(id: $id) { status } }`, { id: session.id });
      await first.waitForComplete();
      const lastSeq = first.received.at(-1).seq;

      const again = subscribeTo(hub.url, session.id, lastSeq);
      const { resumeSession } = await hub.data(
        `mutation($id: ID!) { resumeSession(id: $id) { id status } }`,
        { id: session.id },
      );
      expect(resumeSession).toEqual({ id: session.id, status: 'IDLE' });
      const start = await again.next();
      expect(start).toMatchObject({
        seq: lastSeq + 1,
        eventName: 'SessionStart',
        source: 'resume',
        payload: { session_id: session.id },
      });
      // The resumed conversation still holds the first turn: the stand-in sees it in the history.
      await send(session.id, 'and now?');
      await again.until((e) => e.eventName === 'Stop', 30_000);
      const history = JSON.stringify(world.stub.requests.at(-1));
      expect(history).toContain('remember me');

      const running = await hub.gql(`mutation($id: ID!) { resumeSession(id: $id) { id } }`, {
        id: session.id,
      });
      expect(running.errors?.[0]?.extensions?.code).toBe('SESSION_RUNNING');
      again.dispose();
    });

    it('starts a session in place of a leftover tmux session of the same name', async () => {
      const id = randomUUID();
      const name = `claude-${id.slice(0, 8)}`;
      const socket = hub.config.tmuxSocket;
      await execa('tmux', ['-L', socket, 'new-session', '-d', '-s', name, 'sleep', '600']);
      const leftover = await panePid(socket, name);

      const { createSession } = await hub.data(
        `mutation($cwd: String!, $id: ID!) { createSession(input: { cwd: $cwd, id: $id }) { tmuxSession status } }`,
        { cwd: world.makeCwd(), id },
      );
      expect(createSession).toEqual({ tmuxSession: name, status: 'IDLE' });
      const pid = await panePid(socket, name);
      expect(pid).not.toBe(leftover);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(id);
      // The replacement got the hub's environment: its hook secret is accepted.
      const events = subscribeTo(hub.url, id, 0);
      expect((await events.next()).eventName).toBe('SessionStart');
      events.dispose();
    });
  });

  it('keeps events and sessions across a restart, within the retention bound', async () => {
    const dataDir = tempDir('cch-keep-');
    const hub = await startHub({
      env: world.env,
      dataDir,
      args: ['--claude-bin', claudeBin, '--retain-events', '10'],
    });
    const session = await managedSession(hub, world.makeCwd());
    for (let i = 1; i <= 30; i++) {
      expect(await session.post('Notification', { message: `n${i}` })).toBe(200);
    }
    const query = `query($id: ID!) { session(id: $id) { status events(limit: 1000) { seq payload } } }`;
    const before = (await hub.data(query, { id: session.id })).session;
    expect(before.events.map((e: any) => e.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => 22 + i),
    );
    expect(before.events.at(-1).payload.message).toBe('n30');
    await hub.stop();

    const again = await startHub({
      env: world.env,
      dataDir,
      args: ['--claude-bin', claudeBin, '--retain-events', '10'],
    });
    const after = (await again.data(query, { id: session.id })).session;
    expect(after.status).toBe('STOPPED');
    expect(after.events.slice(0, 9)).toEqual(before.events.slice(1));
    expect(after.events.at(-1).payload.hook_event_name).toBe('SessionEnd');
  });

  it('refuses to start on a corrupt database with a clear error', async () => {
    const dataDir = tempDir('cch-corrupt-');
    writeFileSync(
      path.join(dataDir, 'hub.db'),
      'this is not a database at all, just text'.repeat(200),
    );
    const parsed = parseConfig(['--data-dir', dataDir], {});
    if (!parsed.ok) throw new Error('config');
    await expect(buildApp(parsed.config).start()).rejects.toThrow(
      `cannot use data dir ${dataDir}: file is not a database`,
    );
  });

  it('releases what a failed start took: the port, the store, the tmux socket', async () => {
    const dataDir = tempDir('cch-failed-');
    const port = await freePort();
    const redis = await freePort(); // nothing listens there
    const parsed = parseConfig(
      [
        ...hubArgs({ port, dataDir, socket: `cch-failed-${process.pid}` }),
        '--redis-url',
        `redis://127.0.0.1:${redis}`,
      ],
      {},
    );
    if (!parsed.ok) throw new Error('config');
    const silent = createLogger('silent');
    await expect(buildApp(parsed.config, { logger: silent }).start()).rejects.toThrow(
      `cannot reach Redis at redis://127.0.0.1:${redis}`,
    );
    // The port is free again, and the store can be opened by the next start.
    const again = buildApp(
      (
        parseConfig(hubArgs({ port, dataDir, socket: `cch-failed-${process.pid}` }), {}) as {
          config: HubConfig;
        }
      ).config,
      { logger: silent },
    );
    expect((await again.start()).port).toBe(port);
    await again.stop();
  });
});
