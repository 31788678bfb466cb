import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { chromium, type Browser } from 'playwright-core';
import { leftovers } from './leftovers.js';

/** Headless Debian chromium with everything that would reach the network turned off. */
const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium, closed with the leftovers (after the pages of the hubs started after it). */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: chromiumArgs,
  });
  leftovers.add(() => browser.close());
  return browser;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds dashboard/dist, which the hub serves, from the sources under test. */
export async function buildDashboard(): Promise<void> {
  await execa(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', 'dashboard', '--logLevel', 'warn'],
    {
      cwd: root,
    },
  );
}
