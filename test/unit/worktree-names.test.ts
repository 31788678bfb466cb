import { describe, expect, it } from 'vitest';
import { gitEnvironment } from '../../src/git/git.js';
import {
  cwdInWorktree,
  defaultBranch,
  firstFreeBranch,
  refValueProblem,
  repositoryTop,
  worktreeFolder,
} from '../../src/git/worktree-names.js';
import { checkWorktreeRequest } from '../../src/git/worktrees.js';
import { withStoredDefaults, type SessionRecord } from '../../src/sessions/session.js';
import { session } from '../helpers/records.js';

const id = '1b9d6bcb-9f3c-4a52-8e7d-0c6a1f2e3d4c';

describe('worktree names', () => {
  it('refuses values git must never see, before git runs', () => {
    expect(refValueProblem('--upload-pack=touch /tmp/x')).toBe('must not start with "-"');
    expect(refValueProblem('-b')).toBe('must not start with "-"');
    expect(refValueProblem('@{-1}')).toBe('must not hold "@{"');
    expect(refValueProblem('main@{yesterday}')).toBe('must not hold "@{"');
    expect(refValueProblem('$(touch x)')).toBe('must not hold blanks or control characters');
    expect(refValueProblem('a\nb')).toBe('must not hold blanks or control characters');
    expect(refValueProblem('')).toBe('must not be empty');
    expect(refValueProblem('x'.repeat(201))).toBe('must be at most 200 characters');
    // Left to git's own check-ref-format: not refused here.
    expect(refValueProblem('a..b')).toBeNull();
    expect(refValueProblem('feature/login')).toBeNull();
    expect(refValueProblem('HEAD~2')).toBeNull();
  });

  it('says which field and which value in BAD_USER_INPUT', () => {
    expect(() => checkWorktreeRequest({ branch: '--upload-pack=touch /tmp/x' })).toThrow(
      expect.objectContaining({
        message:
          'worktree.branch must not start with "-", got "--upload-pack=touch /tmp/x" (string)',
        extensions: { code: 'BAD_USER_INPUT', field: 'worktree.branch' },
      }),
    );
    expect(() => checkWorktreeRequest({ base: '-n' })).toThrow(
      expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', field: 'worktree.base' } }),
    );
    expect(() => checkWorktreeRequest({ branch: null, base: undefined })).not.toThrow();
  });

  it('names the default branch after the session, or its id', () => {
    expect(defaultBranch('fix login', id)).toBe('claude/fix-login');
    expect(defaultBranch('Fix: the *login* page!', id)).toBe('claude/Fix-the-login-page');
    expect(defaultBranch('..hidden..name..', id)).toBe('claude/hidden.name');
    expect(defaultBranch('café', id)).toBe('claude/cafe');
    expect(defaultBranch('x.lock', id)).toBe('claude/x');
    expect(defaultBranch('日本', id)).toBe('claude/1b9d6bcb');
    expect(defaultBranch(null, id)).toBe('claude/1b9d6bcb');
    expect(defaultBranch('a'.repeat(100), id)).toBe(`claude/${'a'.repeat(60)}`);
  });

  it('makes a taken branch unique with -2, -3...', () => {
    const taken = new Set(['claude/x', 'claude/x-2']);
    expect(firstFreeBranch('claude/y', (b) => taken.has(b))).toBe('claude/y');
    expect(firstFreeBranch('claude/x', (b) => taken.has(b))).toBe('claude/x-3');
    expect(firstFreeBranch('claude/x', () => true)).toBeNull();
  });

  it('puts the worktree under the root, and claude in the same subfolder', () => {
    expect(worktreeFolder('/data/worktrees', '/home/me/my repo', id)).toBe(
      '/data/worktrees/my-repo-1b9d6bcb',
    );
    expect(cwdInWorktree('/data/worktrees/r-1', 'src/app/')).toBe('/data/worktrees/r-1/src/app');
    expect(cwdInWorktree('/data/worktrees/r-1', '')).toBe('/data/worktrees/r-1');
    expect(repositoryTop('/home/me/repo/.git', '/data/worktrees/repo-1')).toBe('/home/me/repo');
    expect(repositoryTop('/srv/repo.git', '/srv/checkout')).toBe('/srv/checkout');
  });

  it('runs git without any GIT_* variable of the hub, and never prompting', () => {
    expect(
      gitEnvironment({
        PATH: '/bin',
        HOME: '/home/me',
        GIT_DIR: '/elsewhere/.git',
        GIT_WORK_TREE: '/elsewhere',
        git_index_file: '/x',
        GIT_CONFIG_COUNT: '1',
        GIT_SSH_COMMAND: 'touch /tmp/x',
        UNSET: undefined,
      }),
    ).toEqual({ PATH: '/bin', HOME: '/home/me', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
  });

  it('reads a session stored before worktrees as having none', () => {
    const { worktree: _, ...old } = session('a', 'STOPPED', 0);
    expect(withStoredDefaults(old as SessionRecord).worktree).toBeNull();
  });
});
