import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processExists, processRuns } from '../../src/runtime/process-state.js';

describe('process state', () => {
  it('tells a running process, a zombie and a gone one apart', async () => {
    // `sleep 0.1` ends under a parent that never reaps it (the shell exec'd a sleep): a zombie.
    const out = execFileSync(
      'sh',
      ['-c', "sh -c 'sleep 0.1 & echo $!; exec sleep 3 >/dev/null 2>&1' &"],
      {
        encoding: 'utf8',
      },
    );
    const zombie = Number(out.trim().split('\n')[0]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect([processRuns(process.pid), processExists(process.pid)]).toEqual([true, true]);
    expect([processRuns(zombie), processExists(zombie)]).toEqual([false, true]);
    const gone = 2 ** 22 + 1;
    expect([processRuns(gone), processExists(gone)]).toEqual([false, false]);
  });
});
