import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessCalls, as, secrets, startAccessHub } from '../helpers/access-hub.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { disposeWithSuite } from '../helpers/leftovers.js';

describe('browser checks', () => {
  disposeWithSuite();
  let hub: TestHub;
  const { post, connect } = accessCalls(() => hub);

  beforeAll(async () => {
    ({ hub } = await startAccessHub());
  });

  it('refuses browser requests from other origins, and form or text bodies', async () => {
    const query = JSON.stringify({ query: '{ sessions { id } }' });
    const cases: [Record<string, string>, number, string][] = [
      [{ 'content-type': 'text/plain' }, 403, 'CSRF_REFUSED'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 403, 'CSRF_REFUSED'],
      [
        { 'content-type': 'application/json', origin: 'https://evil.example' },
        403,
        'ORIGIN_NOT_ALLOWED',
      ],
    ];
    for (const [headers, status, code] of cases) {
      const response = await fetch(hub.url, {
        method: 'POST',
        headers: { ...as('admin'), ...headers },
        body: query,
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ code });
    }
    const allowed = await post(query, { ...as('read'), origin: 'https://dash.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    const preflight = await fetch(hub.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dash.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(
      await connect({ token: secrets.read }, { origin: 'https://evil.example' }),
    ).toMatchObject({
      code: 1006,
    });
    expect(await connect({ token: secrets.read }, { origin: 'https://dash.example' })).toBe('open');
  });
});

describe('a hub without tokens', () => {
  let hub: TestHub;

  beforeAll(async () => {
    hub = await startHub();
  });

  it('serves loopback callers as local admins and refuses DNS-rebound hosts', async () => {
    expect(await hub.data('{ audit { id } }')).toEqual({ audit: [] });
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ query: '{ sessions { id } }' });
        const req = request(
          hub.url,
          {
            method: 'POST',
            headers: { host, 'content-type': 'application/json', 'content-length': body.length },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await status('attacker.example:4000')).toBe(403);
    expect(await status(`localhost:${new URL(hub.url).port}`)).toBe(200);
  });
});
