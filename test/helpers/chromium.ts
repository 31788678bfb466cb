import type { Browser } from 'playwright-core';
import { launchHeadlessChromium } from '../../harness/chromium.js';
import { leftovers } from './leftovers.js';

export { buildDashboard } from '../../harness/chromium.js';

/** Chromium, closed with the leftovers (after the pages of the hubs started after it). */
export async function launchChromium(): Promise<Browser> {
  const browser = await launchHeadlessChromium();
  leftovers.add(() => browser.close());
  return browser;
}
