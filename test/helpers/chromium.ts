import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { chromium, type Browser } from 'playwright-core';

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
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
