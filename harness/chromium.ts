import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { chromium, type Browser } from 'playwright-core';

/** The system's chromium, which the tests and the bench drive. */
const chromiumPath = '/usr/bin/chromium';

/** Whether this machine has it (the bench skips its browser rows where it does not). */
export const hasChromium = (): boolean => existsSync(chromiumPath);

/** Headless Debian chromium with everything that would reach the network turned off. */
export function launchHeadlessChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** Builds dashboard/dist, which the hub serves, from the sources as they are. */
export async function buildDashboard(): Promise<void> {
  await execa(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', 'dashboard', '--logLevel', 'warn'],
    { cwd: root },
  );
}
