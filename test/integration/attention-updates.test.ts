import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startHookHub } from '../helpers/hook-session.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

interface Item {
  reason: string;
  since: string;
  session: { id: string };
  permissionRequest: { id: string } | null;
}
interface Update {
  attention: { whole: boolean; items: Item[]; raised: Item[]; cleared: Item[] };
}

const item = 'reason since session { id } permissionRequest { id }';
const subscription = `subscription($onlyChanges: Boolean) { attention(onlyChanges: $onlyChanges) {
  whole items { ${item} } raised { ${item} } cleared { ${item} } } }`;
const key = (i: Item) => `${i.session.id} ${i.reason} ${i.permissionRequest?.id ?? i.since}`;

describe('the attention subscription', () => {
  disposeWithSuite();

  it('sends the queue once with onlyChanges, then changes that make, applied, Query.attention', async () => {
    const { hub, post } = await startHookHub([]);
    const ids = Array.from({ length: 8 }, () => randomUUID());
    const event = (id: string, name: string, fields: Record<string, unknown> = {}) =>
      post({ session_id: id, hook_event_name: name, cwd: '/tmp', ...fields });
    for (const id of ids) expect(await event(id, 'SessionStart', { source: 'startup' })).toBe(200);
    for (const id of ids.slice(0, 4)) await event(id, 'UserPromptSubmit', { prompt: 'go' });

    const whole = hub.subscribe<Update>(subscription, { onlyChanges: false });
    const changes = hub.subscribe<Update>(subscription, { onlyChanges: true });
    const [wholeFirst, changesFirst] = [await whole.next(), await changes.next()];
    expect(changesFirst.attention.whole).toBe(true);
    expect(changesFirst.attention.items).toEqual(wholeFirst.attention.items);
    const kept = new Map(changesFirst.attention.items.map((i) => [key(i), i]));

    // Turns end and start, a session joins: the queue changes several times.
    for (const id of ids.slice(0, 4)) await event(id, 'Stop', { last_assistant_message: 'done' });
    for (const id of ids.slice(4)) await event(id, 'UserPromptSubmit', { prompt: 'go' });
    const late = randomUUID();
    await event(late, 'SessionStart', { source: 'startup' });

    const { attention } = await hub.data<{ attention: Item[] }>(`{ attention { ${item} } }`);
    const expected = attention.map(key);
    // The whole queue comes each time; the subscriber of changes applies them to what it has.
    await whole.until((u) => u.attention.items.map(key).join() === expected.join());
    const raised = new Set<string>();
    await changes.until((u) => {
      expect(u.attention).toMatchObject({ whole: false, items: [] });
      for (const i of u.attention.cleared) expect(kept.delete(key(i))).toBe(true);
      for (const i of u.attention.raised) {
        expect(kept.has(key(i))).toBe(false);
        kept.set(key(i), i);
        raised.add(i.session.id);
      }
      return [...kept.keys()].sort().join() === [...expected].sort().join();
    });
    // Those whose turn ended, and the one that joined, were raised; none of those that went busy.
    expect([...raised].sort()).toEqual([...ids.slice(0, 4), late].sort());
    whole.dispose();
    changes.dispose();
  });
});
