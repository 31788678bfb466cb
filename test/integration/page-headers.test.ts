import { beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/hub.js';

describe("the HTML pages' frame and content policies", () => {
  let hub: TestHub;

  beforeAll(async () => {
    hub = await startHub();
  });

  /** The policy's directives by name. */
  const directives = (policy: string | null) =>
    Object.fromEntries(
      (policy ?? '').split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );

  it('sends the dashboard with DENY and frame-ancestors none, its own files only', async () => {
    const page = await fetch(`${hub.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"></div>');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(directives(page.headers.get('content-security-policy'))).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
  });

  it('sends GraphiQL, which takes its editor from ?query=, with DENY and frame-ancestors none', async () => {
    const query = encodeURIComponent('mutation { stopSession(id: "x") { id } }');
    const page = await fetch(`${hub.url}?query=${query}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('claude-code-hub');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(directives(page.headers.get('content-security-policy'))).toEqual({
      'object-src': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it('leaves API answers to the API', async () => {
    const response = await fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ sessions { id } }' }),
    });
    expect(await response.json()).toEqual({ data: { sessions: [] } });
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});
