import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/free-port.js';
import { hubArgs, type HubProcess } from '../../harness/hub-process.js';
import { createLogger } from '../../src/log.js';
import { mcpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { readHookToken } from '../helpers/hook-session.js';
import { hubHome } from '../helpers/hub-process.js';
import { disposeWithSuite, leftovers } from '../helpers/leftovers.js';

const mib = 1024 * 1024;

/** A hook body of exactly `bytes`, its `message` filled with `fill(n)` to make up the size. */
function hookBody(sessionId: string, bytes: number, fill: (room: number) => string): string {
  const head = `{"session_id":"${sessionId}","hook_event_name":"Notification","message":`;
  return `${head}${fill(bytes - head.length - 1)}}`;
}
/** `[[[[…]]]]`: what JSON.parse built level by level before the depth check could refuse it. */
const nested = (room: number) =>
  `${'['.repeat(Math.floor(room / 2))}${']'.repeat(Math.ceil(room / 2))}`;
/** One long string: a large tool response, the ordinary body of that size. */
const long = (room: number) => `"${'x'.repeat(room - 2)}"`;

/** The hub process' resident memory now, or its peak since `resetPeak`, in MB. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/**
 * Posts `body`, and meanwhile asks GET /healthz one request after another: how long the post
 * took to be answered, and the longest a /healthz waited (the event loop's longest stall).
 */
async function postWatched(base: string, route: string, token: string, sent: string) {
  // Encoded before the clock starts: this process' own work is not the hub's.
  const body = Buffer.from(sent);
  let answered = false;
  let longestHealthz = 0;
  const probes = (async () => {
    while (!answered) {
      const t0 = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      longestHealthz = Math.max(longestHealthz, performance.now() - t0);
    }
  })();
  const t0 = performance.now();
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  const text = await response.text();
  const tookMs = performance.now() - t0;
  answered = true;
  await probes;
  return { status: response.status, text, tookMs, longestHealthz };
}

describe('a JSON body nested 32 MiB deep', () => {
  disposeWithSuite();
  let hub: HubProcess;
  let base: string;
  let token: string;

  beforeAll(async () => {
    const home = hubHome('hostile');
    // A hub of its own process, so that its memory is its own, with the default --max-hook-body.
    const claudeConfig = path.join(home.dataDir, 'claude');
    hub = await home.spawn(hubArgs({ port: await freePort(), ...home }), {
      ...process.env,
      CLAUDE_CONFIG_DIR: claudeConfig,
    });
    base = hub.url.replace(/\/graphql$/, '');
    token = readHookToken(home.dataDir);
  });

  it('is refused with JSON_TOO_DEEP at the cost of an ordinary body, the hub answering throughout', async () => {
    const pid = hub.process.pid!;
    const sessionId = randomUUID();
    const start = `{"session_id":"${sessionId}","hook_event_name":"SessionStart","cwd":"/tmp"}`;
    expect((await postWatched(base, '/hooks', token, start)).status).toBe(200);
    const size = 32 * mib;
    const measure = async (body: string) => {
      resetPeak(pid);
      const before = memoryMb(pid, 'VmRSS');
      const answer = await postWatched(base, '/hooks', token, body);
      return { ...answer, riseMb: memoryMb(pid, 'VmHWM') - before };
    };
    const hostile = await measure(hookBody(sessionId, size, nested));
    expect(hostile.status).toBe(400);
    expect(JSON.parse(hostile.text)).toEqual({
      error: 'the body nests arrays or objects deeper than 256 levels',
      code: 'JSON_TOO_DEEP',
    });
    const ordinary = await measure(hookBody(sessionId, size, long));
    expect(ordinary.status).toBe(200);
    // Before, the hostile body took 7 s and 1.8 GB; now it costs what reading 32 MiB costs.
    expect(hostile.longestHealthz).toBeLessThan(500);
    expect(hostile.tookMs).toBeLessThan(1.5 * ordinary.tookMs + 500);
    expect(hostile.riseMb).toBeLessThan(200);
    expect(hostile.riseMb).toBeLessThan(ordinary.riseMb + 50);
    // The session goes on: the event after the refused one is stored.
    const after = await postWatched(base, '/hooks', token, hookBody(sessionId, 1000, long));
    expect(after.status).toBe(200);
  });

  it('refuses a GraphQL body nested past what any input takes, and reads ordinary ones as before', async () => {
    const post = (body: string) =>
      fetch(hub.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const deep = `{"query":"{ __typename }","variables":{"x":${nested(mib - 64)}}}`;
    const refused = await post(deep);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      errors: [
        {
          message: 'the body nests arrays or objects deeper than 512 levels',
          extensions: { code: 'JSON_TOO_DEEP' },
        },
      ],
    });
    // A JSON input of 256 levels, the most the JSON scalar takes, still reaches its field.
    const decide = `mutation($x: JSON) { decidePermission(input: { requestId: "nope", behavior: ALLOW, updatedInput: $x }) { error { code } } }`;
    const input = `${'['.repeat(256)}${']'.repeat(256)}`;
    const taken = await post(`{"query":${JSON.stringify(decide)},"variables":{"x":${input}}}`);
    expect(await taken.json()).toEqual({
      data: { decidePermission: { error: { code: 'NOT_FOUND' } } },
    });
    // As yoga's own parser answers it (200 to a client that does not accept
    // application/graphql-response+json).
    const notJson = await post('{"query":');
    expect(await notJson.json()).toMatchObject({
      errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }],
    });
    const plain = await post('{"query":"{ sessions { id } }"}');
    expect(await plain.json()).toMatchObject({ data: { sessions: [expect.any(Object)] } });
  });
});

describe('POST /mcp with a body nested too deep', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const handle = mcpEndpoint({
      sessionOf: (secret) => (secret === 'the-secret' ? 'session-1' : null),
      tools: { channels: () => [], send: () => Promise.reject(new Error('not called')) },
      maxBodyBytes: mib,
      version: '0.0.0',
      log: createLogger('silent'),
    });
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    leftovers.add(() => new Promise((resolve) => server.close(resolve)));
  });

  it('refuses it with JSON_TOO_DEEP before parsing, and answers an ordinary call', async () => {
    const post = (body: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: 'Bearer the-secret',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const params = `{"name":"list_channels","arguments":{"x":${nested(mib - 200)}}}`;
    const refused = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'the body nests arrays or objects deeper than 512 levels',
      code: 'JSON_TOO_DEEP',
    });
    const listed = await post('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    expect(listed.status).toBe(200);
    const { result } = (await listed.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toContain('send_to_channel');
  });
});
