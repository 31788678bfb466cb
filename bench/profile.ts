import path from 'node:path';

/** Every value of a repeatable flag, in order. */
function flagValues(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name ? [process.argv[i + 1] ?? ''] : []));
}

/**
 * `--profile DIR`: every hub the bench starts (the shared one and each section's own) writes
 * its CPU profile there, one file per process (open it in Chrome DevTools).
 */
const [profileArg] = flagValues('--profile');
const profileDir = profileArg === undefined ? null : path.resolve(profileArg || 'profile');

/**
 * The node options of a hub the bench starts: the profile's, and each `--hub-node-option`
 * (say `--hub-node-option --max-semi-space-size=4`), which reach the hubs only, not the bench's
 * own process as NODE_OPTIONS would.
 */
export const hubNodeOptions: readonly string[] = [
  ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ...flagValues('--hub-node-option'),
];

/**
 * Each `--hub-arg` (say `--hub-arg --graphql-ws-server=library`): a flag of the hub's own that
 * the shared hub and each section's fresh hub get after theirs, so the whole bench can run
 * against another choice. The A/B sections (ws-server) still pick their own.
 */
export const extraHubArgs: readonly string[] = flagValues('--hub-arg');
