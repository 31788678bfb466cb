import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { startHookHub } from './hook-session.js';
import type { TestHub } from './hub.js';

/**
 * A hub with `count` sessions started by hand (a SessionStart each, with the hub's hook token), a
 * graphql-ws connection to it, acknowledged, and `playTurns`, which sends each session's turns
 * one change after another: its prompt, then its Stop, `rounds` changes a session in all.
 */
export async function hookFleet(count: number): Promise<{
  hub: TestHub;
  ids: string[];
  ws: WebSocket;
  /** Plays the changes; resolves with the milliseconds they took. */
  playTurns(rounds: number): Promise<number>;
}> {
  const { hub, post } = await startHookHub([]);
  const ids = Array.from({ length: count }, () => randomUUID());
  const event = async (id: string, name: string, fields: Record<string, unknown> = {}) => {
    const status = await post({ session_id: id, hook_event_name: name, cwd: '/tmp', ...fields });
    if (status !== 200) throw new Error(`the hub answered ${name} with ${status}`);
  };
  for (const id of ids) await event(id, 'SessionStart', { source: 'startup' });
  const ws = new WebSocket(hub.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ type: 'connection_init' }));
  await new Promise((resolve) => ws.once('message', resolve));
  return {
    hub,
    ids,
    ws,
    async playTurns(rounds) {
      const t0 = performance.now();
      for (let round = 0; round < rounds; round++)
        for (const id of ids)
          await (round % 2 === 0
            ? event(id, 'UserPromptSubmit', { prompt: 'go' })
            : event(id, 'Stop', { last_assistant_message: 'done' }));
      return performance.now() - t0;
    },
  };
}
