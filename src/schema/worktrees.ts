import type { SessionWorktree, WorktreeRemoval } from '../git/worktrees.js';
import { branchPrefix, maxRefLength } from '../git/worktree-names.js';
import { builder } from './builder.js';

export const WorktreeInputRef = builder.inputType('WorktreeInput', {
  description:
    "A git worktree for the session, on a new branch: claude starts in the same subfolder of it as cwd is of its checkout. cwd must be in a git checkout (NOT_A_REPOSITORY otherwise); nothing is made when a value is refused. See docs/sessions.md, 'A worktree per session'.",
  fields: (t) => ({
    branch: t.string({
      description: `The new branch (BAD_USER_INPUT when git refuses the name, it exists, it starts with \`-\` or holds \`@{\`; at most ${maxRefLength} characters). Default: \`${branchPrefix}<session name>\` (the name reduced to letters, digits, \`.\`, \`_\`, \`-\`), or \`${branchPrefix}<first 8 of the id>\` without a name, with \`-2\`, \`-3\`... when taken.`,
    }),
    base: t.string({
      description:
        'The commit the branch starts at: any name git resolves to a commit in the repository (a branch, a tag, a commit id). Default: the commit checked out in cwd (its HEAD), not a remote branch.',
    }),
  }),
});

const WorktreeRemovalRef = builder.objectRef<WorktreeRemoval>('WorktreeRemoval').implement({
  description: 'The hub removed the worktree: when, and what became of its branch.',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (removal) => removal.at }),
    branchDeleted: t.exposeBoolean('branchDeleted', {
      description:
        'The branch was deleted: it had no commit beyond its base, or was merged into what base named. Otherwise it is kept.',
    }),
    note: t.exposeString('note', { description: 'Why the branch went or stayed.' }),
  }),
});

export const SessionWorktreeRef = builder.objectRef<SessionWorktree>('SessionWorktree').implement({
  description: 'The git worktree the hub made for a session (createSession with worktree).',
  fields: (t) => ({
    path: t.exposeString('path', {
      description: "The worktree's top folder, under --worktree-root; the session's cwd is in it.",
    }),
    branch: t.exposeString('branch', { description: 'The branch made for it.' }),
    base: t.exposeString('base', {
      description: 'The commit id the branch started at, resolved when the worktree was made.',
    }),
    repository: t.exposeString('repository', {
      description: "The main repository's top folder.",
    }),
    removal: t.field({
      type: WorktreeRemovalRef,
      nullable: true,
      description:
        'Set once the hub removed it (stopSession with removeWorktree, a start that failed, or retention); null while it is there.',
      resolve: (worktree) => worktree.removal,
    }),
  }),
});
