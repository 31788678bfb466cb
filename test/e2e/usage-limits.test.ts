import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeBin } from '../../harness/claude-config.js';
import { defaultScript, type StubScript } from '../fixtures/anthropic-stub.js';
import { startClaudeWorld } from '../helpers/claude-world.js';
import { backoffMs, continueText } from '../../src/sessions/usage-limits.js';
import { ShiftedClock } from '../helpers/fake-clock.js';
import { startHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

const hourS = 3600;

/**
 * The stand-in as a subscription that runs out: the first request of a prompt holding `LIMIT-ME`
 * is refused with the usage limit (resetting in an hour, or a plain 429 for an API key); the hub's request to continue is
 * answered as the cut-off prompt would have been (a `write:` runs as a Write).
 */
function limitedOnce(withReset = true): { script: StubScript; resetsAt: () => number } {
  let resetsAt = 0;
  const script: StubScript = (turn) => {
    if (turn.prompt.includes('LIMIT-ME') && !turn.toolResult && resetsAt === 0) {
      resetsAt = Math.floor(Date.now() / 1000) + hourS;
      return { usageLimit: withReset ? { resetsAt } : {} };
    }
    if (turn.prompt.includes('usage limit that stopped') && !turn.toolResult) {
      const body = JSON.stringify(turn.body);
      const cutOff = /LIMIT-ME (write: [^"\\]*)/.exec(body)?.[1];
      if (cutOff) return defaultScript({ ...turn, prompt: cutOff });
    }
    return defaultScript(turn);
  };
  return { script, resetsAt: () => resetsAt };
}

interface SessionView {
  status: string;
  lastAssistantMessage: string | null;
  account: string | null;
  limitedUntil: string | null;
  usageLimit: { until: string; kind: string | null; reset: string; cutOff: boolean } | null;
  messages: { text: string; status: string }[];
  events: { eventName: string; payload: Record<string, unknown> }[];
}

/** A hub on the world's account whose usage limits reset by a clock the test moves. */
async function limitedHub(
  limit: ReturnType<typeof limitedOnce>,
  login: 'api-key' | 'oauth-token',
  env: Record<string, string> = {},
) {
  const world = await startClaudeWorld(limit.script, { login });
  const clock = new ShiftedClock();
  const hub = await startHub({
    env: { ...world.env, ...env },
    args: ['--claude-bin', claudeBin],
    limitClock: clock,
  });
  const start = async (input: Record<string, unknown>) => {
    const { createSession } = await hub.data<{ createSession: { id: string; cwd: string } }>(
      `mutation($input: CreateSessionInput!) { createSession(input: $input) { id cwd } }`,
      { input: { cwd: world.makeCwd('limited'), permissionMode: 'ACCEPT_EDITS', ...input } },
    );
    return createSession;
  };
  const send = (id: string, text: string) =>
    hub.data(
      `mutation($id: ID!, $text: String!) { sendMessage(sessionId: $id, text: $text) { id } }`,
      {
        id,
        text,
      },
    );
  const session = async (id: string) =>
    (
      await hub.data<{ session: SessionView }>(
        `query($id: ID!) { session(id: $id) { status account limitedUntil usageLimit { until kind reset cutOff } lastAssistantMessage messages { text status } events(limit: 1000) { eventName payload } } }`,
        { id },
      )
    ).session;
  return { world, clock, hub, start, send, session };
}

describe('usage limits that pause and resume, with the real claude CLI on a subscription', () => {
  disposeWithSuite();
  const limit = limitedOnce();
  let setUp: Awaited<ReturnType<typeof limitedHub>>;

  beforeAll(async () => {
    setUp = await limitedHub(limit, 'oauth-token');
  });

  it('holds every session of the account at the reset time claude gives, and at the reset continues the cut-off turn first', async () => {
    const { clock, start, send, session, world } = setUp;
    const { id: cut, cwd } = await start({});
    const { id: sibling } = await start({});
    const { id: headless } = await start({ runtime: 'HEADLESS' });
    const file = path.join(cwd, 'done.txt');

    await send(cut, `LIMIT-ME write: ${file} finished after the reset`);
    const held = await vi.waitFor(
      async () => {
        const now = await session(cut);
        expect(now.status).toBe('LIMITED');
        // The hold comes first (the queue waits at once), its event just after.
        expect(now.events.map((event) => event.eventName)).toContain('HubUsageLimited');
        return now;
      },
      { timeout: 30_000 },
    );
    const until = new Date(limit.resetsAt() * 1000).toISOString();
    expect(held.limitedUntil).toBe(until);
    expect(held.usageLimit).toEqual({ until, kind: 'five_hour', reset: 'CLAUDE', cutOff: true });
    const names = held.events.map((event) => event.eventName);
    expect(names.indexOf('StopFailure')).toBeLessThan(names.indexOf('HubUsageLimited'));
    expect(held.events.find((event) => event.eventName === 'HubUsageLimited')?.payload).toEqual(
      expect.objectContaining({ until, kind: 'five_hour', reset: 'CLAUDE', cut_off: true }),
    );

    // The same account (one token): the others wait too, whatever their runtime.
    for (const id of [sibling, headless]) {
      const other = await vi.waitFor(async () => {
        const now = await session(id);
        expect(now.status).toBe('LIMITED');
        expect(now.events.map((event) => event.eventName)).toContain('HubUsageLimited');
        return now;
      });
      expect(other.account).toBe(held.account);
      expect(other.usageLimit).toEqual({
        until,
        kind: 'five_hour',
        reset: 'CLAUDE',
        cutOff: false,
      });
    }
    await send(sibling, 'queued behind the limit');
    await send(cut, 'after the cut-off turn');
    const requests = world.stub.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(world.stub.requests).toHaveLength(requests);
    expect((await session(sibling)).messages).toEqual([
      { text: 'queued behind the limit', status: 'QUEUED' },
    ]);
    expect(existsSync(file)).toBe(false);

    clock.advance(hourS * 1000 + 1_000);

    await vi.waitFor(
      async () => {
        const now = await session(cut);
        expect(now.messages.map((message) => message.status)).toEqual([
          'DELIVERED',
          'DELIVERED',
          'DELIVERED',
        ]);
        expect(now.status).toBe('IDLE');
      },
      { timeout: 60_000 },
    );
    expect(readFileSync(file, 'utf8')).toBe('finished after the reset');
    const after = await session(cut);
    expect(after.limitedUntil).toBeNull();
    // The continue went before the message that waited behind the limit.
    const prompts = after.events
      .filter((event) => event.eventName === 'UserPromptSubmit')
      .map((event) => event.payload.prompt);
    expect(prompts).toEqual([
      expect.stringContaining('LIMIT-ME'),
      continueText,
      'after the cut-off turn',
    ]);
    const afterNames = after.events.map((event) => event.eventName);
    expect(afterNames.indexOf('HubUsageLimitReset')).toBeLessThan(
      afterNames.lastIndexOf('UserPromptSubmit'),
    );
    expect(after.events.find((e) => e.eventName === 'HubUsageLimitReset')?.payload).toEqual(
      expect.objectContaining({ account: held.account, continued: true }),
    );
    await vi.waitFor(
      async () => {
        const now = await session(sibling);
        expect(now.messages).toEqual([{ text: 'queued behind the limit', status: 'DELIVERED' }]);
        expect(now.status).toBe('IDLE');
      },
      { timeout: 30_000 },
    );
    const others = await session(sibling);
    expect(others.limitedUntil).toBeNull();
    expect(others.events.find((e) => e.eventName === 'HubUsageLimitReset')?.payload).toEqual(
      expect.objectContaining({ continued: false }),
    );
    expect((await session(headless)).status).toBe('IDLE');
  });

  it("waits a minute for an API key's rate limit, which has no reset time, then continues the HEADLESS turn it cut off", async () => {
    const throttled = limitedOnce(false);
    const { clock, start, send, session } = await limitedHub(throttled, 'api-key', {
      CLAUDE_CODE_MAX_RETRIES: '0',
    });
    const { id, cwd } = await start({ runtime: 'HEADLESS' });
    const file = path.join(cwd, 'throttled.txt');
    const before = clock.now();
    await send(id, `LIMIT-ME write: ${file} written once the wait was over`);
    const held = await vi.waitFor(
      async () => {
        const now = await session(id);
        expect(now.status).toBe('LIMITED');
        expect(now.events.map((event) => event.eventName)).toContain('HubUsageLimited');
        return now;
      },
      { timeout: 30_000 },
    );
    expect(held.usageLimit).toMatchObject({ kind: null, reset: 'BACKOFF', cutOff: true });
    const until = Date.parse(held.limitedUntil!);
    expect(until).toBeGreaterThanOrEqual(before + backoffMs.first);
    expect(until).toBeLessThanOrEqual(clock.now() + backoffMs.first);
    expect(held.events.find((e) => e.eventName === 'StopFailure')?.payload).toMatchObject({
      error: 'rate_limit',
    });

    clock.advance(backoffMs.first);
    await vi.waitFor(
      async () => {
        const now = await session(id);
        expect(now.status).toBe('IDLE');
        expect(now.lastAssistantMessage).toBe(`wrote: ${file}`);
      },
      { timeout: 60_000 },
    );
    expect(readFileSync(file, 'utf8')).toBe('written once the wait was over');
    expect((await session(id)).limitedUntil).toBeNull();
  });
});
