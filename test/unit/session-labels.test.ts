import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors.js';
import { checkLabels, maxLabels } from '../../src/sessions/session-labels.js';
import { withStoredDefaults, type SessionRecord } from '../../src/sessions/session.js';
import { session } from '../helpers/records.js';

/** The error checkLabels throws for `labels`, as code and message. */
function refusal(labels: readonly unknown[]): { code: unknown; message: string } {
  try {
    checkLabels(labels);
  } catch (error) {
    expect(error).toBeInstanceOf(HubError);
    return { code: (error as HubError).extensions.code, message: (error as Error).message };
  }
  throw new Error(`checkLabels took ${JSON.stringify(labels)}`);
}

describe('checkLabels', () => {
  it('keeps labels of the allowed characters, in order, without duplicates', () => {
    expect(checkLabels([])).toEqual([]);
    expect(
      checkLabels(['team:infra', 'ticket=ABC-12', 'repo/app', 'v1.2_rc', 'team:infra', 'x']),
    ).toEqual(['team:infra', 'ticket=ABC-12', 'repo/app', 'v1.2_rc', 'x']);
    const longest = 'a'.repeat(64);
    expect(checkLabels([longest])).toEqual([longest]);
  });

  it('refuses an empty, long or odd label with BAD_USER_INPUT quoting it and its place', () => {
    const odd = ['', 'a'.repeat(65), 'two words', 'tab\t', 'é', 'a,b', 'a*', 'new\nline'];
    for (const label of odd) {
      const { code, message } = refusal(['fine', label]);
      expect(code).toBe('BAD_USER_INPUT');
      expect(message).toContain('labels[1] must be 1 to 64 letters, digits or any of . _ : / = -');
      expect(message).toContain(JSON.stringify(label).slice(0, 20));
    }
    expect(refusal([7]).message).toContain('got 7 (number)');
  });

  it(`keeps at most ${maxLabels} different labels, duplicates not counted`, () => {
    const many = Array.from({ length: maxLabels }, (_, i) => `l${i}`);
    expect(checkLabels([...many, ...many])).toEqual(many);
    expect(refusal([...many, 'one-more'])).toEqual({
      code: 'BAD_USER_INPUT',
      message: `a session carries at most ${maxLabels} labels, got ${maxLabels + 1} different ones`,
    });
  });
});

describe('withStoredDefaults', () => {
  it('reads a record stored before labels and createdBy as [] and null, and keeps newer ones', () => {
    const { labels: _labels, createdBy: _createdBy, ...old } = session('a', 'IDLE', 5000);
    const read = withStoredDefaults(old as SessionRecord);
    expect(read).toMatchObject({ id: 'a', status: 'IDLE', labels: [], createdBy: null });
    const current = { ...session('b', 'IDLE', 5000), labels: ['x'], createdBy: 'bot' };
    expect(withStoredDefaults(current)).toEqual(current);
  });
});
