import { describe, expect, it } from 'vitest';
import { hookFleet } from '../helpers/hook-fleet.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

interface Message {
  id?: string;
  type: string;
  payload?: {
    data?: { sessionUpdateBatches?: { id: string; status: string }[] };
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

describe('sessionUpdateBatches over graphql-ws', () => {
  disposeWithSuite();

  it("sends a fleet's changes as a few batches, each session's latest state once, the last state last", async () => {
    const { ws, playTurns } = await hookFleet(20);
    const messages: Message[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Message));
    const subscribe = (id: string, query: string) =>
      ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query } }));
    subscribe('b', 'subscription { sessionUpdateBatches(everyMs: 250) { id status } }');
    subscribe('bad', 'subscription { sessionUpdateBatches(everyMs: 10) { id } }');
    await new Promise((resolve) => setTimeout(resolve, 200));

    // 100 changes, one after another: each turn starts, then ends, five times a session.
    const elapsed = await playTurns(5);
    const batches = () =>
      messages.flatMap((message) =>
        message.id === 'b' && message.type === 'next'
          ? [message.payload!.data!.sessionUpdateBatches!]
          : [],
      );
    const states = () => new Map(batches().flatMap((batch) => batch.map((s) => [s.id, s.status])));
    // Every session's last change was its prompt: each is BUSY in the last batch it is in.
    await expect
      .poll(() => [...states().values()].filter((status) => status === 'BUSY').length, {
        timeout: 5000,
      })
      .toBe(20);
    expect(states().size).toBe(20);
    // The first change at once, then one batch at most every 250 ms.
    expect(batches().length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 2);
    expect(batches().reduce((sum, batch) => sum + batch.length, 0)).toBeLessThan(100);
    for (const batch of batches()) expect(new Set(batch.map((s) => s.id)).size).toBe(batch.length);

    const refused = messages.find((message) => message.id === 'bad');
    expect(refused?.payload?.errors).toEqual([
      expect.objectContaining({
        message: 'everyMs must be 25 to 5000, got 10',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    ws.close();
  });
});
