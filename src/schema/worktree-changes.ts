import { maxDiffChars } from '../git/diff-bounds.js';
import { hubIdentity, maxCommitMessageLength } from '../git/worktree-changes.js';
import { audited, textDetail } from './audit.js';
import { builder } from './builder.js';
import { SessionRef } from './sessions.js';

builder.objectField(SessionRef, 'diff', (t) =>
  t.string({
    description: `The session's whole change as one unified diff: for a session with a worktree, its worktree (the commits on its branch, staged, unstaged and untracked files; not ignored ones) against base, by default the commit it started at; otherwise the checkout its cwd is in against base, by default HEAD. Computed by the node that runs the session; the checkout's own index is not touched. At most ${maxDiffChars} characters: a longer one is cut at a line and ends with a line saying so. NOT_A_REPOSITORY when cwd is in no git checkout; WORKTREE_REMOVED when the worktree is gone.`,
    args: {
      base: t.arg.string({
        description:
          'What to diff against: any name git resolves to a commit (a branch, a tag, a commit id). BAD_USER_INPUT when it starts with `-`, holds `@{` or names no commit.',
      }),
    },
    resolve: (record, args, ctx) => ctx.hub.diff(record, args.base ?? null),
  }),
);

builder.mutationField('commitWorktree', (t) =>
  t.string({
    authScopes: { control: true },
    description: `Commits everything changed in the session's worktree (untracked files included, ignored ones not) on its branch and returns the commit id. The author and committer are those git is configured with (user.name, user.email), else \`${hubIdentity.name} <${hubIdentity.email}>\`; pre-commit and commit-msg hooks do not run. NO_WORKTREE for a session without a worktree, WORKTREE_REMOVED when it is gone, NOTHING_TO_COMMIT when nothing changed since its last commit, BAD_USER_INPUT for a message that is empty, longer than ${maxCommitMessageLength} characters or holds a control character other than a line break or a tab, or when the worktree has another branch checked out.`,
    args: {
      sessionId: t.arg.id({ required: true }),
      message: t.arg.string({ required: true, description: 'The commit message.' }),
    },
    resolve: (_root, args, ctx) =>
      audited(
        ctx,
        'commitWorktree',
        { sessionId: String(args.sessionId), detail: { message: textDetail(args.message) } },
        () => ctx.hub.commitWorktree(String(args.sessionId), args.message),
        (commit) => ({ target: commit }),
      ),
  }),
);
