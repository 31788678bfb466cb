import { describe, expect, it } from 'vitest';
import { processExists, processRuns } from '../../src/runtime/process-state.js';
import { zombie } from '../helpers/zombie.js';

describe('process state', () => {
  it('tells a running process, a zombie and a gone one apart', async () => {
    const dead = await zombie();
    expect([processRuns(process.pid), processExists(process.pid)]).toEqual([true, true]);
    expect([processRuns(dead), processExists(dead)]).toEqual([false, true]);
    const gone = 2 ** 22 + 1;
    expect([processRuns(gone), processExists(gone)]).toEqual([false, false]);
  });
});
