import { describe, expect, it } from 'vitest';
import { sumUsage } from '../../src/runs/turn-usage.js';

describe('turn usage from a transcript', () => {
  const entry = (at: number, id: string, usage: object, type = 'assistant') =>
    JSON.stringify({ type, timestamp: new Date(at).toISOString(), message: { id, usage } });

  it('sums each message once, within the turn', () => {
    const usage = { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 1 };
    const jsonl = [
      JSON.stringify({
        type: 'assistant',
        timestamp: new Date(1_900).toISOString(),
        message: { id: 'm1', usage, content: [{ type: 'text', text: 'the answer' }] },
      }),
      entry(500, 'm0', usage),
      entry(1_500, 'm1', usage),
      entry(1_600, 'm1', usage),
      entry(1_700, 'm2', { input_tokens: 5, output_tokens: 3, cache_creation_input_tokens: 4 }),
      entry(1_800, 'u', usage, 'user'),
      '{"broken',
      entry(2_500, 'm3', usage),
    ].join('\n');
    expect(sumUsage(jsonl, 1_000, 2_000, 'the answer')).toEqual({
      usage: {
        input_tokens: 15,
        output_tokens: 5,
        cache_read_input_tokens: 1,
        cache_creation_input_tokens: 4,
      },
      hasText: true,
    });
    expect(sumUsage(jsonl, 1_000, 1_800, 'the answer').hasText).toBe(false);
    expect(sumUsage(jsonl, 3_000, 4_000)).toEqual({ usage: null, hasText: false });
  });
});
