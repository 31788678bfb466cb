export interface RestartPolicy {
  /** Restarts allowed within `windowMs`; 0 turns restarts off. */
  readonly limit: number;
  readonly windowMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export type RestartDecision =
  | { readonly restart: true; readonly delayMs: number }
  | { readonly restart: false; readonly reason: string };

/**
 * Whether and when to restart a crashed session, given when it was restarted before: the delay
 * doubles with each restart inside the window, up to the cap; past the limit it gives up.
 */
export function decideRestart(
  policy: RestartPolicy,
  restartTimes: readonly number[],
  now: number,
): RestartDecision {
  if (policy.limit === 0) return { restart: false, reason: 'automatic restarts are off' };
  const recent = restartTimes.filter((time) => now - time < policy.windowMs).length;
  if (recent >= policy.limit) {
    return {
      restart: false,
      reason: `not restarted again: it crashed after ${recent} restarts within ${Math.round(policy.windowMs / 1000)} s`,
    };
  }
  return {
    restart: true,
    delayMs: Math.min(policy.initialDelayMs * 2 ** recent, policy.maxDelayMs),
  };
}
