import { hash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalEventBus } from '../../src/events/event-bus.js';
import type { HookPayload } from '../../src/events/hook-event.js';
import type { HookOrigin } from '../../src/sessions/hook-origin.js';
import { hookSecretEnv } from '../../src/sessions/hook-settings.js';
import { createLogger } from '../../src/log.js';
import { PermissionBroker } from '../../src/permissions/permission-broker.js';
import type { MessageRecord } from '../../src/sessions/message.js';
import type { SessionRecord } from '../../src/sessions/session.js';
import { SessionManager } from '../../src/sessions/session-manager.js';
import { openDatabase } from '../../src/store/database.js';
import { RecordTable } from '../../src/store/record-table.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { FakeRuntime, hooksAt } from '../helpers/fake-runtime.js';
import { tempDir } from '../helpers/leftovers.js';
import { message, permission, session as storedSession } from '../helpers/records.js';

const noOrigin: HookOrigin = { tmux: null, tmuxPane: null, pid: null, hubSession: null };

/** Waits until the manager's plain data passes `check`, as its async steps get to it. */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`never held: ${String(check)}`);
    },
    { timeout: timeoutMs, interval: 5 },
  );
}

describe('session lifecycle over a runtime', () => {
  let dir: string;
  let db: Database.Database;
  let runtime: FakeRuntime;
  let manager: SessionManager;
  let cwd: string;
  let permissions: PermissionBroker;
  let eventLog: SqliteEventLog;

  function makeManager(clock?: FakeClock): SessionManager {
    permissions = new PermissionBroker(
      {
        holdMs: 1000,
        onExpiry: 'ask',
        changed: () => undefined,
        resolved: async () => undefined,
        ...(clock && { clock }),
      },
      new RecordTable(db, 'permissions'),
    );
    return new SessionManager(
      {
        claudeBin: 'claude',
        defaultRuntime: 'TMUX',
        dataDir: dir,
        env: { PATH: '/bin', CLAUDE_CONFIG_DIR: dir },
        forwarderPath: '/hooks/forward.sh',
        allowedRoots: [],
        maxSessions: 10,
        hookTimeoutSeconds: 10,
        permissionTimeoutSeconds: 40,
        startTimeoutMs: 2000,
        stopTimeoutMs: 200,
        pollIntervalMs: 5,
        restartPolicy: { limit: 2, windowMs: 60_000, initialDelayMs: 20, maxDelayMs: 100 },
        unknownScreenAfterMs: 10_000,
        isHookToken: (secretSha256) => secretSha256 === hash('sha256', 'the-hook-token', 'hex'),
        messages: { limit: 10, confirmTimeoutMs: 500, readyTimeoutMs: 2000, typingGraceMs: 10_000 },
        log: createLogger('silent'),
        ...(clock && { clock }),
      },
      {
        runtime,
        log: (eventLog = new SqliteEventLog(db)),
        bus: new LocalEventBus(),
        store: new RecordTable<SessionRecord>(db, 'sessions'),
        messageStore: new RecordTable<MessageRecord>(db, 'messages'),
        permissions,
      },
    );
  }

  /** Posts a hook event as the session's claude would, with its current secret. */
  async function hook(id: string, name: string, fields: Record<string, unknown> = {}) {
    const payload: HookPayload = { session_id: id, hook_event_name: name, ...fields };
    const result = await manager.ingest(
      runtime.secret(id),
      JSON.stringify(payload),
      payload,
      new AbortController().signal,
      noOrigin,
    );
    if (!result.ok) throw result.error;
    return result.event!;
  }

  /** createSession, with claude's SessionStart arriving once it was launched. */
  async function create(): Promise<SessionRecord> {
    const launched = runtime.launches.length;
    const created = manager.create({ cwd });
    await until(() => runtime.launches.length > launched);
    const { record } = runtime.launches.at(-1)!;
    const transcript = path.join(dir, `${record.id}.jsonl`);
    writeFileSync(transcript, '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    await hook(record.id, 'SessionStart', { source: 'startup', transcript_path: transcript });
    return created;
  }

  beforeEach(async () => {
    dir = tempDir('cch-lifecycle-');
    cwd = mkdtempSync(path.join(dir, 'cwd-'));
    db = openDatabase(dir);
    runtime = new FakeRuntime();
    manager = makeManager();
    await manager.start(hooksAt('http://127.0.0.1:4000/hooks'));
  });

  afterEach(async () => {
    await manager.close(false);
    db.close();
  });

  it('launches claude with its id, settings and a fresh secret, and is IDLE at SessionStart', async () => {
    const session = await create();
    expect(session.status).toBe('IDLE');
    const [launch] = runtime.launches;
    expect(launch!.claude).toMatchObject({
      claudeBin: 'claude',
      sessionId: session.id,
      settingsPath: session.settingsPath,
      resume: false,
    });
    expect(launch!.inPlace).toBe(false);
    expect(launch!.env.PATH).toBe('/bin');
    expect(launch!.env[hookSecretEnv]).toMatch(/^[\w-]{43}$/);
    expect(session.hookUrl).toBe('http://127.0.0.1:4000/hooks');
    expect(manager.attachCommand(session)).toBe(`attach ${session.tmuxSession}`);
  });

  it('types a queued message once IDLE, presses Enter, and counts it delivered at its prompt', async () => {
    const session = await create();
    const message = manager.enqueue(session.id, 'hello there');
    await until(() => message.status === 'SENT');
    expect(runtime.typed).toEqual(['hello there']);
    expect(runtime.pressed).toEqual([['Enter']]);
    const prompt = await hook(session.id, 'UserPromptSubmit', { prompt: 'hello there' });
    await until(() => message.status === 'DELIVERED');
    expect(message.promptSeq).toBe(prompt.seq);
    expect(session.status).toBe('BUSY');
    await hook(session.id, 'Stop', { last_assistant_message: 'hi!' });
    expect(session).toMatchObject({ status: 'IDLE', lastAssistantMessage: 'hi!' });
  });

  it('restarts a crashed claude with --resume after the delay, with a new secret', async () => {
    const session = await create();
    runtime.exit(session);
    await until(() => session.status === 'CRASHED');
    expect(session.error).toBe('claude exited with status 1; the screen shows:\nlast words');
    await until(() => runtime.launches.length === 2);
    expect(runtime.launches[1]!.claude.resume).toBe(true);
    expect(runtime.secret(session.id)).not.toBe(runtime.launches[0]!.env[hookSecretEnv]);
    expect(session.status).toBe('STARTING');
    await hook(session.id, 'SessionStart', { source: 'resume' });
    expect(session).toMatchObject({ status: 'IDLE', restartCount: 1, error: null });
  });

  it('backs restarts off by the policy on its clock, and says why once past the limit', async () => {
    const clock = new FakeClock();
    await manager.close(false);
    manager = makeManager(clock);
    await manager.start(hooksAt('http://127.0.0.1:4000/hooks'));
    const session = await create();
    // initialDelayMs 20, doubling, at most 2 restarts within the window.
    for (const delay of [20, 40]) {
      const launches = runtime.launches.length;
      runtime.exit(session);
      await until(() => session.status === 'CRASHED');
      clock.advance(delay - 1);
      // Not a wait for the manager: a restart timed by the real clock (20 ms) would land here.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(runtime.launches.length).toBe(launches);
      clock.advance(1);
      expect(runtime.launches.length).toBe(launches + 1);
      await hook(session.id, 'SessionStart', { source: 'resume' });
      expect(session.status).toBe('IDLE');
    }
    runtime.exit(session);
    await until(() => session.status === 'CRASHED' && session.error!.includes('not restarted'));
    expect(session.error).toBe(
      'claude exited with status 1; the screen shows:\nlast words\n' +
        'not restarted again: it crashed after 2 restarts within 60 s',
    );
    clock.advance(600_000);
    expect(session).toMatchObject({ status: 'CRASHED', restartCount: 2 });
  });

  it('stops: the runtime ends claude, and SessionEnd makes it STOPPED', async () => {
    const session = await create();
    const stopping = manager.stop(session.id);
    await until(() => runtime.stopped.includes(session.id));
    await hook(session.id, 'SessionEnd', { reason: 'other' });
    expect((await stopping).status).toBe('STOPPED');
    expect(manager.isEnded(session.id)).toBe(true);
  });

  it('interrupts through the runtime: a BUSY session is IDLE once the turn stopped', async () => {
    const session = await create();
    await hook(session.id, 'UserPromptSubmit', { prompt: 'long' });
    expect((await manager.interrupt(session.id)).status).toBe('IDLE');
  });

  /** Posts an event as the installed global hooks would, with the hub's hook token. */
  async function globalHook(
    sessionId: string,
    name: string,
    origin: Partial<HookOrigin> = {},
    fields: Record<string, unknown> = {},
  ) {
    const payload: HookPayload = { session_id: sessionId, hook_event_name: name, cwd, ...fields };
    return manager.ingest(
      'the-hook-token',
      JSON.stringify(payload),
      payload,
      new AbortController().signal,
      { ...noOrigin, ...origin },
    );
  }

  it("makes a claude started by hand an EXTERNAL session, and drops its own sessions' global calls", async () => {
    const managed = await create();
    const before = managed.lastEventAt;
    expect(await globalHook(managed.id, 'Stop', { hubSession: managed.id })).toMatchObject({
      ok: true,
      event: null,
    });
    expect(await globalHook(managed.id, 'Stop')).toMatchObject({ ok: true, event: null });
    expect(managed.lastEventAt).toBe(before);

    const id = '11111111-2222-4333-8444-555555555555';
    const pane = { tmux: '/tmp/tmux-0/default,123,0', tmuxPane: '%3', pid: 4242 };
    const started = await globalHook(id, 'SessionStart', pane, { source: 'startup' });
    expect(started).toMatchObject({ ok: true, event: { eventName: 'SessionStart' } });
    const external = manager.require(id);
    expect(external).toMatchObject({
      origin: 'EXTERNAL',
      pane: { socket: '/tmp/tmux-0/default', pane: '%3' },
      pid: 4242,
      status: 'IDLE',
      cwd,
    });
    await globalHook(id, 'UserPromptSubmit', pane, { prompt: 'hi' });
    expect(external.status).toBe('BUSY');
    await globalHook(id, 'Stop', pane, { last_assistant_message: 'done' });
    expect(external).toMatchObject({ status: 'IDLE', lastAssistantMessage: 'done' });

    // /clear: the same process goes on under a new id, in the same hub session.
    const cleared = 'aaaaaaaa-2222-4333-8444-555555555555';
    await globalHook(id, 'SessionEnd', pane, { reason: 'clear' });
    await globalHook(cleared, 'SessionStart', pane, { source: 'clear' });
    expect(manager.list().filter((record) => record.origin === 'EXTERNAL')).toHaveLength(1);
    expect(external.claudeSessionId).toBe(cleared);

    const forged = await manager.ingest(
      'not-a-token',
      '{}',
      { session_id: id, hook_event_name: 'Stop' },
      new AbortController().signal,
      noOrigin,
    );
    expect(forged).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('takes an idle EXTERNAL session as busy when its transcript shows a prompt the hooks missed', async () => {
    const id = '44444444-2222-4333-8444-555555555555';
    const transcript = path.join(dir, `${id}.jsonl`);
    writeFileSync(transcript, '');
    await globalHook(id, 'Stop', { pid: process.pid }, { transcript_path: transcript });
    const external = manager.require(id);
    expect(external.status).toBe('IDLE');
    const at = new Date(external.lastEventAt! + 1000).toISOString();
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', timestamp: at, message: { role: 'user', content: 'typed by hand' } })}\n`,
    );
    await until(() => external.status === 'BUSY');
    const [missed] = await eventLog.read(id, { after: 0, limit: 10, names: ['HubEventsMissed'] });
    expect(missed?.payload).toMatchObject({
      turn_over: false,
      steps: [{ kind: 'prompt', text: 'typed by hand' }],
    });
  });

  it('never launches an EXTERNAL session: its exit is STOPPED, resume is refused, no pane takes no message', async () => {
    const id = '22222222-2222-4333-8444-555555555555';
    await globalHook(id, 'SessionStart', { pid: 4343 }, { source: 'startup' });
    const external = manager.require(id);
    expect(external.pane).toBeNull();
    expect(() => manager.enqueue(id, 'hello')).toThrow(
      expect.objectContaining({ code: 'NOT_IN_TMUX' }),
    );
    await expect(manager.focus(id, null)).resolves.toBe('client-1');
    runtime.exit(external);
    await until(() => external.status === 'STOPPED');
    expect(external.error).toBeNull();
    await expect(manager.resume(id)).rejects.toMatchObject({ code: 'EXTERNAL_SESSION' });
    expect(runtime.launches.some((launch) => launch.record.id === id)).toBe(false);
  });

  it('refuses keys the runtime does not name', async () => {
    const session = await create();
    await expect(manager.sendKeys(session.id, ['Delete'])).rejects.toThrow(
      'key "Delete" (string) is not allowed; use one of Enter, Escape',
    );
    await manager.sendKeys(session.id, ['Escape']);
    expect(runtime.pressed).toEqual([['Escape']]);
  });

  it('re-adopts running sessions on another address: keeps their old one, or relaunches in place once idle', async () => {
    const kept = await create(); // its hooks post to :4000
    await manager.close(false);
    manager = makeManager();
    await manager.start(hooksAt('http://127.0.0.1:4001/hooks'));
    const deaf = await create(); // and this one's to :4001
    await manager.close(false);
    runtime.presences.set(kept.id, { kind: 'running' });
    runtime.presences.set(deaf.id, { kind: 'running' });
    runtime.screenState = { dialog: null, inputText: '', turnRunning: true };
    const launches = runtime.launches.length;

    // Back on :5000, where :4000 can be had again and :4001 cannot.
    manager = makeManager();
    const reclaimed: string[] = [];
    await manager.start({
      url: 'http://127.0.0.1:5000/hooks',
      reclaim: async (url) => {
        if (!url.includes(':4000/')) return 'EADDRINUSE';
        reclaimed.push(url);
        return null;
      },
      release: async () => undefined,
      reclaimed: [],
    });
    expect(reclaimed).toEqual(['http://127.0.0.1:4000/hooks']);
    expect(manager.get(kept.id)).toMatchObject({ status: 'IDLE', error: null });
    const moved = manager.get(deaf.id)!;
    expect(moved.status).toBe('DISCONNECTED');
    expect(moved.error).toBe(
      'its hooks post to http://127.0.0.1:4001/hooks, where this hub cannot listen (EADDRINUSE); ' +
        'it is relaunched on http://127.0.0.1:5000/hooks with --resume once its turn is over',
    );

    // Not while its turn runs (the manager has read its screen twice since), and once the
    // screen shows it over, in place, with --resume.
    const looks = () => runtime.looked.filter((id) => id === deaf.id).length;
    const before = looks();
    await until(() => looks() >= before + 2);
    expect(runtime.launches.length).toBe(launches);
    runtime.screenState = { dialog: null, inputText: '', turnRunning: false };
    await until(() => runtime.launches.length === launches + 1);
    expect(runtime.launches.at(-1)).toMatchObject({
      inPlace: true,
      claude: { resume: true, sessionId: deaf.id },
    });
    expect(moved).toMatchObject({ status: 'STARTING', hookUrl: 'http://127.0.0.1:5000/hooks' });
    await hook(deaf.id, 'SessionStart', { source: 'resume' });
    expect(moved).toMatchObject({ status: 'IDLE', error: null });
  });
  describe('records past retention', () => {
    const day = 24 * 60 * 60 * 1000;
    const ids = (records: Iterable<{ id: string }>) => [...records].map((r) => r.id).sort();
    const stored = () => ({
      sessions: ids(new RecordTable<SessionRecord>(db, 'sessions').loadAll()),
      messages: ids(new RecordTable<MessageRecord>(db, 'messages').loadAll()),
      permissions: ids(new RecordTable(db, 'permissions').loadAll()),
    });
    const held = () => ({
      sessions: ids(manager.list()),
      messages: ids(manager.messages.all()),
      permissions: ids(permissions.list()),
    });

    /** A hub started on a store with history, on a clock at the end of January. */
    async function restartWith(save: (tables: { now: number }) => void): Promise<FakeClock> {
      await manager.close(false);
      const clock = new FakeClock();
      save({ now: clock.now() });
      manager = makeManager(clock);
      return clock;
    }

    it('go with their sessions once those ended longer ago than the bound, from memory and store alike', async () => {
      const clock = await restartWith(({ now }) => {
        const sessions = new RecordTable<SessionRecord>(db, 'sessions');
        sessions.save(storedSession('stopped-old', 'STOPPED', now - 10 * day));
        sessions.save(storedSession('crashed-old', 'CRASHED', now - 8 * day));
        sessions.save(storedSession('stopped-new', 'STOPPED', now - 2 * day));
        // Running for long, not ended: kept whatever its age.
        sessions.save(storedSession('idle-old', 'IDLE', now - 30 * day));
        for (const id of ['stopped-old', 'crashed-old', 'stopped-new', 'idle-old']) {
          new RecordTable<MessageRecord>(db, 'messages').save(
            message(`m-${id}`, id, now - 30 * day),
          );
          new RecordTable(db, 'permissions').save(permission(`p-${id}`, id, now - 30 * day));
        }
      });
      const retention = { maxAgeMs: 7 * day, perSession: 0 };
      expect(manager.pruneRecords(retention)).toEqual({ sessions: 2, messages: 2, permissions: 2 });
      const kept = {
        sessions: ['idle-old', 'stopped-new'],
        messages: ['m-idle-old', 'm-stopped-new'],
        permissions: ['p-idle-old', 'p-stopped-new'],
      };
      expect(held()).toEqual(kept);
      expect(stored()).toEqual(kept);
      expect(manager.get('stopped-old')).toBeUndefined();

      clock.advance(6 * day);
      manager.pruneRecords(retention);
      const left = {
        sessions: ['idle-old'],
        messages: ['m-idle-old'],
        permissions: ['p-idle-old'],
      };
      expect(held()).toEqual(left);
      expect(stored()).toEqual(left);
    });

    it('judge an ended session by its last event when its status change is older or missing', async () => {
      await restartWith(({ now }) => {
        const sessions = new RecordTable<SessionRecord>(db, 'sessions');
        sessions.save({ ...storedSession('late-event', 'STOPPED', 0), lastEventAt: now - day });
        const { statusSince: _, ...unstamped } = storedSession(
          'unstamped',
          'CRASHED',
          now - 3 * day,
        );
        sessions.save(unstamped as SessionRecord);
      });
      expect(manager.pruneRecords({ maxAgeMs: 7 * day, perSession: 0 }).sessions).toBe(0);
      expect(manager.pruneRecords({ maxAgeMs: 2 * day, perSession: 0 }).sessions).toBe(1);
      expect(held().sessions).toEqual(['late-event']);
      expect(stored().sessions).toEqual(['late-event']);
    });

    it('keep the latest messages and permission requests per session, and every one in play', async () => {
      await restartWith(() => {
        const messages = new RecordTable<MessageRecord>(db, 'messages');
        const requests = new RecordTable(db, 'permissions');
        for (let i = 1; i <= 5; i++) {
          messages.save(message(`a${i}`, 'a', i * 1000));
          requests.save(permission(`pa${i}`, 'a', i * 1000));
        }
        messages.save(message('a0-failed', 'a', 0, 'FAILED'));
        requests.save(permission('pa0-denied', 'a', 0, 'DENIED'));
        messages.save(message('b1', 'b', 1000, 'FAILED'));
        requests.save(permission('pb1', 'b', 1000, 'DENIED'));
      });
      // Messages waiting for a busy session are in play, however many.
      await manager.start(hooksAt('http://127.0.0.1:4000/hooks'));
      const busy = await create();
      await hook(busy.id, 'UserPromptSubmit', { prompt: 'a long turn' });
      for (let i = 0; i < 4; i++) manager.enqueue(busy.id, `later ${i}`);

      expect(manager.pruneRecords({ maxAgeMs: 0, perSession: 3 })).toEqual({
        sessions: 0,
        messages: 3,
        permissions: 3,
      });
      const waiting = ids(manager.messages.list(busy.id, 100));
      expect(waiting).toHaveLength(4);
      expect(held().messages).toEqual(['a3', 'a4', 'a5', 'b1', ...waiting].sort());
      expect(stored().messages).toEqual(held().messages);
      expect(held().permissions).toEqual(['pa3', 'pa4', 'pa5', 'pb1']);
      expect(stored().permissions).toEqual(['pa3', 'pa4', 'pa5', 'pb1']);
    });

    it('keep everything with both bounds at 0', async () => {
      await restartWith(({ now }) => {
        new RecordTable<SessionRecord>(db, 'sessions').save(
          storedSession('s', 'STOPPED', now - 100 * day),
        );
        for (let i = 0; i < 3; i++)
          new RecordTable<MessageRecord>(db, 'messages').save(message(`m${i}`, 's', i));
      });
      expect(manager.pruneRecords({ maxAgeMs: 0, perSession: 0 })).toEqual({
        sessions: 0,
        messages: 0,
        permissions: 0,
      });
      expect(stored().messages).toEqual(['m0', 'm1', 'm2']);
    });
  });
});
