import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { startClaudeWorld, type ClaudeWorld } from '../helpers/claude-world.js';
import { ShiftedClock } from '../helpers/fake-clock.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

interface ScheduleView {
  id: string;
  nextRunAt: string;
  lastRunAt: string | null;
  lastSessionId: string | null;
  lastError: string | null;
}

const scheduleFields = 'id nextRunAt lastRunAt lastSessionId lastError';

describe('scheduled prompts on a hub whose schedule clock the test moves, with the real claude CLI', () => {
  disposeWithSuite();
  let world: ClaudeWorld;
  let hub: TestHub;
  const clock = new ShiftedClock();

  beforeAll(async () => {
    world = await startClaudeWorld();
    hub = await startHub({
      env: world.env,
      args: ['--claude-bin', claudeBin],
      scheduleClock: clock,
    });
  });

  const schedule = async (input: Record<string, unknown>) =>
    (
      await hub.data<{ schedulePrompt: ScheduleView }>(
        `mutation($input: SchedulePromptInput!) { schedulePrompt(input: $input) { ${scheduleFields} } }`,
        { input },
      )
    ).schedulePrompt;
  const current = async (id: string) =>
    (
      await hub.data<{ schedules: ScheduleView[] }>(`{ schedules { ${scheduleFields} } }`)
    ).schedules.find((s) => s.id === id)!;
  const session = async (id: string) =>
    (
      await hub.data<{
        session: { status: string; events: { eventName: string; payload: { prompt?: string } }[] };
      }>(
        `query($id: ID!) { session(id: $id) { status events(limit: 1000) { eventName payload } } }`,
        {
          id,
        },
      )
    ).session;
  const prompts = async (id: string) =>
    (await session(id)).events
      .filter((event) => event.eventName === 'UserPromptSubmit')
      .map((event) => event.payload.prompt ?? '');
  const sessionIds = async () =>
    (await hub.data<{ sessions: { id: string }[] }>(`{ sessions { id } }`)).sessions.map(
      (s) => s.id,
    );
  /** Moves the schedule clock just past `at`, where the tick's timer is due. */
  const tickAt = (at: string) => clock.advance(Date.parse(at) - clock.now() + 1000);
  const becomes = (id: string, status: string) =>
    vi.waitFor(async () => expect((await session(id)).status).toBe(status), {
      timeout: 30_000,
      interval: 100,
    });

  it('sends into a session at two ticks, resuming it at the second after it was stopped', async () => {
    const { createSession } = await hub.data<{ createSession: { id: string } }>(
      `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`,
      { input: { cwd: world.makeCwd('scheduled'), permissionMode: 'ACCEPT_EDITS' } },
    );
    const id = createSession.id;
    const made = await schedule({ sessionId: id, cron: '*/5 * * * *', text: 'scheduled check-in' });
    expect(Date.parse(made.nextRunAt) % 300_000).toBe(0);
    expect(await prompts(id)).toEqual([]);

    tickAt(made.nextRunAt);
    await vi.waitFor(async () => expect(await prompts(id)).toEqual(['scheduled check-in']), {
      timeout: 30_000,
      interval: 100,
    });
    const first = await current(made.id);
    expect(first).toMatchObject({ lastSessionId: id, lastError: null });
    expect(Date.parse(first.nextRunAt) - Date.parse(made.nextRunAt)).toBe(300_000);
    await becomes(id, 'IDLE');

    await hub.data(`mutation($id: ID!) { stopSession(id: $id) { id } }`, { id });
    await becomes(id, 'STOPPED');
    tickAt(first.nextRunAt);
    await vi.waitFor(
      async () => expect(await prompts(id)).toEqual(['scheduled check-in', 'scheduled check-in']),
      { timeout: 45_000, interval: 200 },
    );
    expect((await session(id)).status).not.toBe('STOPPED');
    const second = await current(made.id);
    expect(second).toMatchObject({ lastSessionId: id, lastError: null });
    expect(Date.parse(second.lastRunAt!)).toBeGreaterThanOrEqual(Date.parse(first.nextRunAt));
    await hub.data(`mutation($id: ID!) { deleteSchedule(id: $id) }`, { id: made.id });
  });

  it('makes a new session at a tick with the text as its prompt, and SKIP leaves a tick out while it is busy', async () => {
    const before = await sessionIds();
    const text = 'slow: 15000 nightly summary';
    const made = await schedule({
      createSession: { cwd: world.makeCwd('nightly'), permissionMode: 'ACCEPT_EDITS' },
      cron: '* * * * *',
      text,
      overlap: 'SKIP',
    });
    tickAt(made.nextRunAt);
    const first = await vi.waitFor(
      async () => {
        const now = await current(made.id);
        expect(now.lastSessionId).not.toBeNull();
        return now;
      },
      { timeout: 30_000, interval: 100 },
    );
    const firstSession = first.lastSessionId!;
    expect(before).not.toContain(firstSession);
    await becomes(firstSession, 'BUSY');
    expect(await prompts(firstSession)).toEqual([text]);

    // The next tick finds the session it made still in its slow turn.
    tickAt(first.nextRunAt);
    const skipped = await vi.waitFor(
      async () => {
        const now = await current(made.id);
        expect(now.lastError).toBe('skipped: previous run still busy');
        return now;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(skipped.lastSessionId).toBe(firstSession);
    expect(await sessionIds()).toHaveLength(before.length + 1);

    await becomes(firstSession, 'IDLE');
    tickAt(skipped.nextRunAt);
    const third = await vi.waitFor(
      async () => {
        const now = await current(made.id);
        expect(now.lastSessionId).not.toBe(firstSession);
        expect(now.lastError).toBeNull();
        return now;
      },
      { timeout: 30_000, interval: 100 },
    );
    await vi.waitFor(async () => expect(await prompts(third.lastSessionId!)).toEqual([text]), {
      timeout: 30_000,
      interval: 100,
    });
    expect(await sessionIds()).toHaveLength(before.length + 2);
    await hub.data(`mutation($id: ID!) { deleteSchedule(id: $id) }`, { id: made.id });
  });
});
