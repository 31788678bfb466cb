import { describe, expect, it } from 'vitest';
import { LoopDelay } from '../../src/loop-delay.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LoopDelay', () => {
  it('counts a stall that begins right after a reset', async () => {
    const delay = new LoopDelay(2);
    try {
      await settle(20);
      delay.reset();
      expect(delay.max).toBe(0);
      busy(200);
      await settle(10);
      expect(delay.max / 1e6).toBeGreaterThanOrEqual(195);
      expect(delay.percentile(50) / 1e6).toBeLessThan(delay.max / 1e6);
      delay.reset();
      await settle(20);
      expect(delay.max / 1e6).toBeLessThan(195);
    } finally {
      delay.stop();
    }
  });
});
