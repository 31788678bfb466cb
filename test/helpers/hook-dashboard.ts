import type { Browser, Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import { buildDashboard, launchChromium } from './chromium.js';
import { startHookHub } from './hook-session.js';
import type { TestHub } from './hub.js';
import { disposeWithSuite } from './leftovers.js';

/** A hub whose sessions are made by the hook events posted to it, and a page for its dashboard. */
export interface HookDashboard {
  readonly hub: TestHub;
  /** Posts a hook event with the hook token; the HTTP status. */
  readonly post: (body: Record<string, unknown>) => Promise<number>;
  readonly browser: Browser;
  /** A 1400x1000 page, not yet at the dashboard. */
  readonly page: Page;
  /** The page's uncaught errors. */
  readonly pageErrors: string[];
}

/**
 * A HookDashboard for the tests of one describe block (the hub started with `hubArgs`): made
 * before them, closed after.
 */
export function hookDashboardSuite(hubArgs: readonly string[]): HookDashboard {
  const suite = { pageErrors: [] as string[] } as {
    -readonly [K in keyof HookDashboard]: HookDashboard[K];
  };
  disposeWithSuite();
  beforeAll(async () => {
    await buildDashboard();
    ({ hub: suite.hub, post: suite.post } = await startHookHub([...hubArgs]));
    suite.browser = await launchChromium();
    suite.page = await suite.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    suite.page.on('pageerror', (error) => suite.pageErrors.push(error.message));
  }, 120_000);
  return suite;
}
