import { beforeAll, describe, expect, it } from 'vitest';
import { hookSession, type HookSession } from '../helpers/hook-session.js';
import { startHookHub } from '../helpers/hook-session.js';
import { type TestHub } from '../helpers/hub.js';
import { openSse, type SseMessage } from '../helpers/sse.js';

/**
 * The plain SSE streams as an EventSource uses them: it reconnects to the same URL, sending the
 * id of the last message it got as Last-Event-ID, after every 200 however the stream ended, and
 * stops only on 204.
 */
describe('resuming the plain SSE streams', () => {
  let hub: TestHub;

  beforeAll(async () => {
    ({ hub } = await startHookHub([]));
  });

  /** A session started by hand, with the notes given posted after its SessionStart. */
  async function startSession(...notes: string[]): Promise<HookSession> {
    const session = await hookSession(hub);
    for (const message of notes) await note(session, message);
    return session;
  }

  const note = async (session: HookSession, message: string) =>
    expect(await session.post('Notification', { message })).toBe(200);

  /** Ends the session, and resolves once the hub has stopped it: its live stream ends. */
  async function endSession(session: HookSession, lastSeq: number): Promise<void> {
    const live = openSse(`${hub.baseUrl}/sessions/${session.id}/events?after=${lastSeq}`);
    expect(await live.status).toBe(200);
    expect(await session.post('SessionEnd', { reason: 'logout' })).toBe(200);
    const rest = await live.until((message) => message.event === 'end');
    expect(rest.map((message) => message.event)).toEqual(['hook', 'end']);
    await live.waitForComplete();
  }

  /** A turn: its prompt, then its Stop with the answer. */
  async function turn(session: HookSession, prompt: string, answer: string): Promise<void> {
    expect(await session.post('UserPromptSubmit', { prompt })).toBe(200);
    expect(await session.post('Stop', { last_assistant_message: answer })).toBe(200);
  }

  const messageOf = (message: SseMessage) =>
    (JSON.parse(message.data) as { message?: string }).message;

  it('goes on from Last-Event-ID, which wins over the after of the URL', async () => {
    const session = await startSession('one', 'two', 'three');
    const url = `${hub.baseUrl}/sessions/${session.id}/events?after=0`;
    const fresh = openSse(url);
    expect(await fresh.status).toBe(200);
    expect((await fresh.next()).id).toBe('1');
    fresh.dispose();

    const resumed = openSse(url, { headers: { 'last-event-id': '2' } });
    expect(await resumed.status).toBe(200);
    const replayed = [await resumed.next(), await resumed.next()];
    expect(replayed.map((message) => message.id)).toEqual(['3', '4']);
    expect(replayed.map(messageOf)).toEqual(['two', 'three']);
    await note(session, 'four');
    const live = await resumed.next();
    expect([live.id, messageOf(live)]).toEqual(['5', 'four']);
    // Nothing from before the cursor came, before or after.
    expect(resumed.received.map((message) => message.id)).toEqual(['3', '4', '5']);
    resumed.dispose();

    const bad = await fetch(url, { headers: { 'last-event-id': 'seven' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      code: 'BAD_REQUEST',
      error: 'Last-Event-ID must be a whole number >= 0, got "seven"',
    });
  });

  it('answers 204 once the session has ended and the cursor is at its end', async () => {
    const session = await startSession('last words');
    await endSession(session, 2);
    const url = `${hub.baseUrl}/sessions/${session.id}/events?after=0`;

    // The EventSource that got everything reconnects: there is nothing more, ever.
    const atEnd = await fetch(url, { headers: { 'last-event-id': '3' } });
    expect(atEnd.status).toBe(204);
    expect(await atEnd.text()).toBe('');
    const fromNow = await fetch(`${hub.baseUrl}/sessions/${session.id}/events`);
    expect(fromNow.status).toBe(204);

    // One that missed the last event gets it, then the end.
    const behind = openSse(url, { headers: { 'last-event-id': '2' } });
    expect(await behind.status).toBe(200);
    const rest = await behind.until((message) => message.event === 'end');
    expect(rest.map((message) => [message.event, message.id])).toEqual([
      ['hook', '3'],
      ['end', undefined],
    ]);
    expect(JSON.parse(rest[0]!.data)).toMatchObject({ hook_event_name: 'SessionEnd' });
    await behind.waitForComplete();
  });

  it.each([
    ['one session', (id: string) => `/sessions/${id}/turns`],
    ['every session', () => '/turns'],
  ])(
    "delivers the turn completed while disconnected on reconnect (%s's stream)",
    async (_which, where) => {
      const since = new Date(Date.now() - 1).toISOString();
      const session = await startSession();
      const { id } = session;
      const url = `${hub.baseUrl}${where(id)}?after=${since}`;
      /** The turns of this test's session, by their `number` and answer. */
      const ours = (messages: SseMessage[]) =>
        messages
          .map((message) => ({ id: message.id, ...JSON.parse(message.data) }))
          .filter((turn: { sessionId: string }) => turn.sessionId === id)
          .map((turn: { id: string; number: number; answer: string }) => turn);
      const isOurs = (message: SseMessage) =>
        message.event === 'turn' && ours([message]).length === 1;

      const first = openSse(url);
      expect(await first.status).toBe(200);
      await turn(session, 'first', 'answer one');
      const [one] = ours((await first.until(isOurs)).slice(-1));
      expect(one).toMatchObject({ id: `${id}:2`, number: 1, answer: 'answer one' });
      first.dispose();

      // Disconnected: a turn completes meanwhile.
      await turn(session, 'second', 'answer two');

      const again = openSse(url, { headers: { 'last-event-id': one!.id } });
      expect(await again.status).toBe(200);
      const [two] = ours((await again.until(isOurs)).slice(-1));
      expect(two).toMatchObject({ id: `${id}:4`, number: 2, answer: 'answer two' });
      await turn(session, 'third', 'answer three');
      const [three] = ours((await again.until(isOurs)).slice(-1));
      expect(three).toMatchObject({ number: 3, answer: 'answer three' });
      // The turn before the cursor never came again.
      expect(ours(again.received.filter((m) => m.event === 'turn')).map((t) => t.number)).toEqual([
        2, 3,
      ]);
      again.dispose();
    },
  );

  it("answers 204 for an ended session's turns once none is left to send", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const session = await startSession();
    const { id } = session;
    await turn(session, 'only', 'the answer');
    await endSession(session, 3);
    const url = `${hub.baseUrl}/sessions/${id}/turns?after=${since}`;

    const all = openSse(url);
    expect(await all.status).toBe(200);
    const sent = await all.until((message) => message.event === 'end');
    expect(sent.map((message) => [message.event, message.id])).toEqual([
      ['turn', `${id}:2`],
      ['end', undefined],
    ]);
    expect(JSON.parse(sent[0]!.data)).toMatchObject({ number: 1, answer: 'the answer' });
    await all.waitForComplete();

    const atEnd = await fetch(url, { headers: { 'last-event-id': `${id}:2` } });
    expect(atEnd.status).toBe(204);
    expect(await atEnd.text()).toBe('');

    const foreign = await fetch(url, { headers: { 'last-event-id': 'another-session:2' } });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
