/**
 * A function that runs `run` soon after it is called: at once, or `everyMs` after the last run
 * at the soonest, through `schedule` (the next frame, say); calls while a run waits join it. A
 * run that returns false did nothing and does not count as the last.
 */
export function spaced(
  everyMs: number,
  run: () => boolean | void,
  schedule: (go: () => void) => void = (go) => go(),
): () => void {
  let waiting = false;
  let ranAt = -Infinity;
  const go = () =>
    schedule(() => {
      waiting = false;
      if (run() !== false) ranAt = performance.now();
    });
  return () => {
    if (waiting) return;
    waiting = true;
    const wait = ranAt + everyMs - performance.now();
    if (wait > 0) setTimeout(go, wait);
    else go();
  };
}
