import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { deflateFrom } from '../../src/subscriptions/deflated.js';
import { hookDashboardSuite } from '../helpers/hook-dashboard.js';

describe("the dashboard's large updates, compressed", () => {
  const suite = hookDashboardSuite(['--max-sessions', '200']);
  const { pageErrors } = suite;
  const ids = Array.from({ length: 80 }, () => randomUUID());
  /** The Sec-WebSocket-Extensions the hub answered the page with. */
  const agreed: string[] = [];
  /** The size of each batch of session changes the page read (as Chromium inflated it). */
  const batches: number[] = [];

  beforeAll(async () => {
    for (const id of ids)
      expect(
        await suite.post({ session_id: id, hook_event_name: 'SessionStart', cwd: '/srv' }),
      ).toBe(200);
    const cdp = await suite.page.context().newCDPSession(suite.page);
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketHandshakeResponseReceived', ({ response }) => {
      const headers = Object.entries(response.headers as Record<string, string>);
      for (const [name, value] of headers)
        if (name.toLowerCase() === 'sec-websocket-extensions') agreed.push(value);
    });
    cdp.on('Network.webSocketFrameReceived', ({ response }) => {
      const data = String(response.payloadData);
      if (data.includes('"sessionUpdateBatches"')) batches.push(Buffer.byteLength(data));
    });
  }, 60_000);

  it("reads a fleet's batch of changes that the hub sent compressed, and shows every change", async () => {
    await suite.page.goto(suite.hub.baseUrl);
    const busy = suite.page.locator('#sessions li[data-session-id] .badge.status-BUSY');
    await suite.page.locator('#session-count', { hasText: '(80)' }).waitFor();
    expect(agreed).toEqual([expect.stringMatching(/^permessage-deflate; /)]);

    await Promise.all(
      ids.map(async (id) =>
        expect(
          await suite.post({
            session_id: id,
            hook_event_name: 'UserPromptSubmit',
            prompt: 'go',
            cwd: '/srv',
          }),
        ).toBe(200),
      ),
    );
    // The newest 100 rows are drawn: every session is there, each shown BUSY.
    await expect.poll(() => busy.count(), { timeout: 10_000 }).toBe(80);
    // Some batch held most of the fleet: a message well past the size compressed from.
    expect(Math.max(...batches)).toBeGreaterThan(2 * deflateFrom);
    expect(pageErrors).toEqual([]);
  });
});
