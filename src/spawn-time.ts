import { channel } from 'node:diagnostics_channel';

/**
 * Starting a subprocess holds the event loop: node forks and waits until the child has started
 * its program, which on a busy machine means until the child gets a core. Each start the hub
 * makes is timed here and the milliseconds published on this channel (the metrics count them
 * as `claude_hub_spawn_seconds`), so a tail can be told apart from the loop's own work.
 */
export const spawnTimes = channel('claude-code-hub:spawn');

/** Runs `start` (which starts a subprocess) and publishes how long it held the loop. */
export function timedSpawn<T>(start: () => T): T {
  const began = performance.now();
  try {
    return start();
  } finally {
    if (spawnTimes.hasSubscribers) spawnTimes.publish(performance.now() - began);
  }
}
