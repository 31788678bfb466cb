import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { hookSession, startHookHub } from '../helpers/hook-session.js';
import type { TestHub } from '../helpers/hub.js';

const kib = 1024;
const maxResponseBytes = 2 * 1024 * kib;

/** This process' (the hub's) resident memory now, or its peak since `resetPeak`, in MB. */
function memoryMb(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

/** Runs `request` and says by how much the process' peak memory rose above its memory before. */
async function peakRise<T>(request: () => Promise<T>): Promise<{ result: T; riseMb: number }> {
  writeFileSync('/proc/self/clear_refs', '5');
  const before = memoryMb('VmRSS');
  const result = await request();
  return { result, riseMb: memoryMb('VmHWM') - before };
}

/** The attack as reported: a 500-byte read-scope query that took the hub to 4 GB. */
const aliasAttack = (limit: string) =>
  `query($limit: Int) { ${Array.from(
    { length: 15 },
    (_, i) => `a${i}: sessions { events(after: 0, limit: ${limit}) { payload } }`,
  ).join(' ')} }`;

describe('the cost and the bytes of a response', () => {
  let hub: TestHub;
  const sessions: string[] = [];
  const message = 'x'.repeat(512 * kib);

  beforeAll(async () => {
    ({ hub } = await startHookHub(['--max-response-bytes', String(maxResponseBytes)]));
    // 30 sessions of 4 events of 512 KiB: 60 MiB of payloads, 30 times the bound.
    for (let s = 0; s < 30; s++) {
      const session = await hookSession(hub);
      sessions.push(session.id);
      for (let e = 0; e < 4; e++) expect(await session.post('Notification', { message })).toBe(200);
    }
  }, 120_000);

  it('refuses the alias attack by its cost before running it, its limit a literal or a variable', async () => {
    const literal = await peakRise(() => hub.gql(aliasAttack('1000')));
    expect(literal.result).toEqual({
      errors: [
        {
          message: 'Query Cost limit of 50000 exceeded, found 3001500.',
          extensions: { code: 'QUERY_TOO_COMPLEX' },
        },
      ],
    });
    // Nothing ran: not one payload was read.
    expect(literal.riseMb).toBeLessThan(32);
    const variable = aliasAttack('$limit');
    expect((await hub.gql(variable, { limit: 1000 })).errors).toEqual(literal.result.errors);
    // The same document with a small limit costs 15 x 100 sessions x (1 + 1 x 2): it runs; the
    // cost of each request is its own, though yoga validates a document once.
    const small = await hub.gql(variable, { limit: 1 });
    expect(small.errors).toBeUndefined();
    expect(small.data!.a0).toHaveLength(30);
    expect((await hub.gql(variable, { limit: 1000 })).errors?.[0]?.extensions).toEqual({
      code: 'QUERY_TOO_COMPLEX',
    });
    // A list without a size argument counts as 100 items; `last` sizes turns, literal or not.
    expect((await hub.gql('{ sessions { turns(last: 5000) { id } } }')).errors).toEqual([
      {
        message: 'Query Cost limit of 50000 exceeded, found 1000100.',
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      },
    ]);
    // Over graphql-ws alike.
    const client = hub.wsClient();
    const overWs = await new Promise((resolve) =>
      client.subscribe(
        { query: variable, variables: { limit: 1000 } },
        { next: resolve, error: resolve, complete: () => undefined },
      ),
    );
    expect(overWs).toEqual(literal.result.errors);
  });

  it('answers RESPONSE_TOO_LARGE past --max-response-bytes, having read little more than the bound', async () => {
    // Within the cost (100 x (1 + 5 x 2) = 1100), but 60 MiB of payloads: without the bound
    // this one query took the hub's memory up by 245 MB and 1.4 s.
    const t0 = performance.now();
    const { result, riseMb } = await peakRise(() =>
      hub.gql('{ sessions { id events(limit: 5) { seq payload } } }'),
    );
    expect(result).toEqual({
      data: null,
      errors: [
        {
          message: `the response would pass ${maxResponseBytes} bytes (--max-response-bytes); ask for fewer items (limit, last, after) or fewer fields`,
          extensions: { code: 'RESPONSE_TOO_LARGE', maxResponseBytes },
        },
      ],
    });
    expect(riseMb).toBeLessThan(48);
    expect(performance.now() - t0).toBeLessThan(1000);
    // One session's events, over graphql-ws, passing the bound by its typed fields alone.
    const client = hub.wsClient();
    const overWs = await new Promise((resolve) =>
      client.subscribe(
        {
          query: `query($id: ID!) { session(id: $id) { events { ... on NotificationEvent { message } } } }`,
          variables: { id: sessions[0] },
        },
        { next: resolve, error: resolve, complete: () => undefined },
      ),
    );
    expect(overWs).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'RESPONSE_TOO_LARGE' } }],
    });
  });

  it('answers queries within both bounds in full', async () => {
    const { session } = await hub.data(
      `query($id: ID!) { session(id: $id) { events(limit: 3) { seq eventName payload } } }`,
      { id: sessions[1] },
    );
    expect(session.events.map((event: { seq: number }) => event.seq)).toEqual([1, 2, 3]);
    expect(session.events[1]).toMatchObject({
      eventName: 'Notification',
      payload: { session_id: sessions[1], message },
    });
    const all = await hub.data('{ sessions { id events(limit: 5) { seq eventName } } }');
    expect(all.sessions).toHaveLength(30);
    for (const listed of all.sessions) expect(listed.events).toHaveLength(5);
  });
});
