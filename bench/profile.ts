import path from 'node:path';

/**
 * `--profile DIR`: every hub the bench starts (the shared one and each section's own) writes
 * its CPU profile there, one file per process (open it in Chrome DevTools).
 */
const profileDir = process.argv.includes('--profile')
  ? path.resolve(process.argv[process.argv.indexOf('--profile') + 1] ?? 'profile')
  : null;

/** The node options of a hub the bench starts. */
export const hubNodeOptions: readonly string[] = profileDir
  ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
  : [];
