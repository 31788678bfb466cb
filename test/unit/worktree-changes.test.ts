import { describe, expect, it } from 'vitest';
import { boundDiff, cutNote } from '../../src/git/diff-bounds.js';
import { commitMessageProblem } from '../../src/git/worktree-changes.js';

describe('bounding a diff', () => {
  it('keeps one within the bound, and cuts a longer one at its last line break within it', () => {
    expect(boundDiff('a\nb\n', 4, false)).toBe('a\nb\n');
    expect(boundDiff('aa\nbb\ncc\n', 7, false)).toBe(`aa\nbb\n${cutNote(7)}`);
    expect(boundDiff('aa\nbb\n', 6, true)).toBe(`aa\nbb\n${cutNote(6)}`);
    expect(boundDiff('abcdef', 3, false)).toBe(cutNote(3));
  });
});

describe('a commit message', () => {
  it('takes text with line breaks and tabs, and refuses empty, long or control text', () => {
    expect(commitMessageProblem('Fix\n\n\t#12 and more')).toBeNull();
    expect(commitMessageProblem(' \n')).toBe('must not be empty');
    expect(commitMessageProblem('x'.repeat(10_001))).toBe(
      'must be at most 10000 characters, got 10001',
    );
    expect(commitMessageProblem('ok\u0007')).toBe(
      'must not hold control characters other than line breaks and tabs (U+0007 at 2)',
    );
    expect(commitMessageProblem('a\u007fb')).toMatch(/U\+007f at 1/);
  });
});
