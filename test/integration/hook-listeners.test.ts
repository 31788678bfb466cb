import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookListeners } from '../../src/ingest/hook-listeners.js';
import { hookSettings, hookSettingsUrl } from '../../src/sessions/hook-settings.js';
import { freePort } from '../../harness/free-port.js';

describe('hook listeners on earlier addresses', () => {
  const bodies: string[] = [];
  const listeners = new HookListeners('http://127.0.0.1:1/hooks', async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies.push(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });

  afterAll(() => listeners.close());

  it('answers hooks at a reclaimed URL, nothing else, until it is released', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    expect(await listeners.reclaim(url)).toBeNull();
    expect(listeners.reclaimed).toEqual([url]);

    const hook = await fetch(url, { method: 'POST', body: '{"hook_event_name":"Stop"}' });
    expect(hook.status).toBe(200);
    expect(bodies).toEqual(['{"hook_event_name":"Stop"}']);
    const other = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', body: '{}' });
    expect([other.status, await other.json()]).toEqual([
      404,
      { error: 'this address serves hooks only', code: 'NOT_FOUND' },
    ]);
    expect((await fetch(url)).status).toBe(405);

    await listeners.release(url);
    expect(listeners.reclaimed).toEqual([]);
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('says why when the port is taken, and needs nothing for its own URL', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    expect(await listeners.reclaim(`http://127.0.0.1:${port}/hooks`)).toBe(
      `cannot listen on 127.0.0.1:${port}: EADDRINUSE`,
    );
    expect(await listeners.reclaim(listeners.url)).toBeNull();
    expect(await listeners.reclaim('not a url')).toBe('not a url is not a URL');
    expect(listeners.reclaimed).toEqual([]);
    await new Promise((resolve) => taken.close(resolve));
  });
});

describe('the hook URL of a settings file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cch-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read back from what hookSettings wrote, and null when there is none', () => {
    const file = path.join(dir, 'a.settings.json');
    const settings = hookSettings({
      hookUrl: 'http://127.0.0.1:4100/hooks',
      forwarderPath: '/x/forward.sh',
      httpTimeoutSeconds: 10,
      permissionTimeoutSeconds: 330,
    });
    writeFileSync(file, JSON.stringify(settings));
    expect(hookSettingsUrl(file)).toBe('http://127.0.0.1:4100/hooks');
    expect(hookSettingsUrl(path.join(dir, 'missing.json'))).toBeNull();
    writeFileSync(file, 'not json');
    expect(hookSettingsUrl(file)).toBeNull();
  });
});
