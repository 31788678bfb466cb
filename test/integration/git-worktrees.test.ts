import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LocalEventBus } from '../../src/events/event-bus.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { createLogger } from '../../src/log.js';
import { PermissionBroker } from '../../src/permissions/permission-broker.js';
import type { MessageRecord } from '../../src/sessions/message.js';
import { SessionManager } from '../../src/sessions/session-manager.js';
import { openDatabase } from '../../src/store/database.js';
import { RecordTable } from '../../src/store/record-table.js';
import { SqliteEventLog } from '../../src/store/sqlite-event-log.js';
import { FakeRuntime } from '../helpers/fake-runtime.js';
import type { SessionRecord } from '../../src/sessions/session.js';
import { SessionWorktrees } from '../../src/sessions/session-worktrees.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { branches, commitFile, git, makeRepo } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/leftovers.js';
import { session as storedSession } from '../helpers/records.js';

const ids = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
];
const session = (n: number, name: string | null = null) => ({ id: ids[n]!, name });

/** A repository with a local commit that no remote has, and a worktree root beside it. */
function setup() {
  const dir = tempDir('cch-git-');
  const repo = path.join(dir, 'repo');
  const pushed = makeRepo(repo);
  const local = commitFile(repo, 'README.md', 'local change\n');
  const root = path.join(dir, 'worktrees');
  return { dir, repo, pushed, local, root, worktrees: new Worktrees({ root, env: process.env }) };
}

describe('session worktrees in real git', () => {
  it('branches from the commit checked out in cwd, not a remote branch, and starts in the same subfolder', async () => {
    const { repo, pushed, local, root, worktrees } = setup();
    expect(git(repo, 'rev-parse', 'origin/main')).toBe(pushed);

    const { worktree, cwd } = await worktrees.create(path.join(repo, 'src', 'app'), {}, session(0));

    expect(worktree).toEqual({
      path: path.join(root, 'repo-11111111'),
      branch: 'claude/11111111',
      base: local,
      baseRef: 'refs/heads/main',
      repository: repo,
      subfolder: path.join('src', 'app'),
      removal: null,
    });
    expect(cwd).toBe(path.join(worktree.path, 'src', 'app'));
    expect(git(cwd, 'rev-parse', 'HEAD')).toBe(local);
    expect(git(cwd, 'symbolic-ref', '--short', 'HEAD')).toBe('claude/11111111');
    expect(git(cwd, 'show', 'HEAD:README.md')).toBe('local change');
    expect(git(repo, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
  });

  it('names branches after the session, made unique when taken, and takes those a client names', async () => {
    const { repo, pushed, worktrees } = setup();
    const first = await worktrees.create(repo, {}, session(0, 'fix login'));
    const second = await worktrees.create(repo, {}, session(1, 'fix login'));
    const named = await worktrees.create(
      repo,
      { branch: 'feature/x', base: 'origin/main' },
      session(2),
    );

    expect([first.worktree.branch, second.worktree.branch]).toEqual([
      'claude/fix-login',
      'claude/fix-login-2',
    ]);
    expect(first.worktree.path).not.toBe(second.worktree.path);
    expect(named.worktree).toMatchObject({
      branch: 'feature/x',
      base: pushed,
      baseRef: 'origin/main',
    });
    expect(branches(repo)).toEqual(['claude/fix-login', 'claude/fix-login-2', 'feature/x', 'main']);
    await expect(worktrees.create(repo, { branch: 'feature/x' }, session(0))).rejects.toMatchObject(
      {
        message: 'worktree.branch "feature/x" (string) exists already; name a new one, or none',
        extensions: { code: 'BAD_USER_INPUT' },
      },
    );
  });

  it('refuses a cwd in no repository with NOT_A_REPOSITORY, leaving nothing', async () => {
    const { dir, root, worktrees } = setup();
    git(dir, 'init', '--quiet', '--bare', 'bare.git'); // not a checkout either
    for (const cwd of [dir, path.join(dir, 'bare.git')]) {
      await expect(worktrees.create(cwd, {}, session(0))).rejects.toMatchObject({
        message: expect.stringMatching(
          new RegExp(`^cwd ${cwd} is not in a git checkout \\(.+\\), so it has no worktree`),
        ),
        extensions: { code: 'NOT_A_REPOSITORY' },
      });
    }
    expect(existsSync(root)).toBe(false);
  });

  it('refuses hostile branch and base values before anything runs', async () => {
    const { dir, repo, root, worktrees } = setup();
    const marker = path.join(dir, 'ran');
    const refused = [
      { branch: `--upload-pack=touch ${marker}` },
      { branch: `$(touch ${marker})` },
      { branch: '`touch ran`' },
      { branch: 'a..b' },
      { branch: '@{-1}' },
      { branch: 'x;touch ran' },
      { base: `--output=${marker}` },
      { base: 'no-such-commit' },
      { base: 'HEAD;touch ran' },
    ];
    for (const request of refused) {
      await expect(
        worktrees.create(repo, request, session(0)),
        JSON.stringify(request),
      ).rejects.toMatchObject({
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(path.join(repo, 'ran'))).toBe(false);
    expect(branches(repo)).toEqual(['main']);
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
  });

  it("does not follow GIT_DIR or GIT_WORK_TREE of the hub's environment", async () => {
    const { dir, repo, local, root } = setup();
    const other = path.join(dir, 'other');
    makeRepo(other);
    const worktrees = new Worktrees({
      root,
      env: {
        ...process.env,
        GIT_DIR: path.join(other, '.git'),
        GIT_WORK_TREE: other,
        GIT_INDEX_FILE: path.join(other, '.git', 'index'),
      },
    });
    const { worktree } = await worktrees.create(repo, {}, session(0));
    expect(worktree).toMatchObject({ repository: repo, base: local });
    expect(branches(repo)).toEqual(['claude/11111111', 'main']);
    expect(branches(other)).toEqual(['main']);
  });

  it('removes a worktree: an unchanged or merged branch goes, a branch with its own commit stays', async () => {
    const { repo, worktrees } = setup();
    const unchanged = (await worktrees.create(repo, {}, session(0))).worktree;
    const changed = (await worktrees.create(repo, {}, session(1))).worktree;
    const merged = (await worktrees.create(repo, {}, session(2))).worktree;
    commitFile(changed.path, 'new.txt', 'work\n');
    const tip = commitFile(merged.path, 'merged.txt', 'done\n');
    git(repo, 'merge', '--quiet', '--ff-only', merged.branch);
    writeFileSync(path.join(unchanged.path, 'scratch.txt'), 'not committed\n');

    expect(await worktrees.remove(unchanged, 1000)).toEqual({
      at: 1000,
      branchDeleted: true,
      note: 'branch claude/11111111 deleted: no commits beyond its base',
    });
    expect(await worktrees.remove(changed, 2000)).toEqual({
      at: 2000,
      branchDeleted: false,
      note: `branch claude/22222222 kept: 1 commit(s) beyond its base ${changed.base.slice(0, 12)}, not merged`,
    });
    expect(await worktrees.remove(merged, 3000)).toEqual({
      at: 3000,
      branchDeleted: true,
      note: 'branch claude/33333333 deleted: merged into refs/heads/main',
    });
    for (const worktree of [unchanged, changed, merged])
      expect(existsSync(worktree.path)).toBe(false);
    expect(branches(repo)).toEqual(['claude/22222222', 'main']);
    expect(git(repo, 'rev-parse', 'main')).toBe(tip);
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });

  it('forgets a worktree deleted by hand, and deletes its branch with ALWAYS', async () => {
    const { repo, worktrees } = setup();
    const { worktree } = await worktrees.create(repo, {}, session(0));
    commitFile(worktree.path, 'new.txt', 'work\n');
    rmSync(worktree.path, { recursive: true, force: true });
    expect(await worktrees.remove(worktree, 5, 'ALWAYS')).toEqual({
      at: 5,
      branchDeleted: true,
      note: 'branch claude/11111111 deleted: made for a session that never started',
    });
    expect(branches(repo)).toEqual(['main']);
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });

  it("keeps a removal in the session's record, and removes the worktrees of sessions retention forgets", async () => {
    const { repo, root } = setup();
    const committed: SessionRecord[] = [];
    const clock = new FakeClock();
    const sessions = new SessionWorktrees(
      { root, env: { ...process.env, GIT_DIR: '/nowhere' }, secrets: [] },
      {
        changes: { commit: (record) => committed.push(record) },
        clock,
        log: createLogger('silent'),
      },
    );
    const asked = { ...storedSession(ids[0]!, 'STOPPED', 0), cwd: path.join(repo, 'src') };
    const stopped = await sessions.make(asked, { branch: 'stopped' });
    const forgotten = await sessions.make({ ...asked, id: ids[1]! }, {});
    expect(stopped.cwd).toBe(path.join(stopped.worktree!.path, 'src'));
    expect(committed).toEqual([]);

    await sessions.remove(stopped);
    expect(stopped.worktree!.removal).toEqual({
      at: clock.now(),
      branchDeleted: true,
      note: 'branch stopped deleted: no commits beyond its base',
    });
    expect(committed).toEqual([stopped]);
    expect(() => sessions.checkRunnable(stopped)).toThrow(
      expect.objectContaining({ extensions: { code: 'WORKTREE_REMOVED', sessionId: ids[0] } }),
    );
    expect(() => sessions.checkRunnable(forgotten)).not.toThrow();

    sessions.forgotten([forgotten]);
    await vi.waitFor(() => expect(existsSync(forgotten.worktree!.path)).toBe(false));
    await vi.waitFor(() => expect(branches(repo)).toEqual(['main']));
  });

  it('removes the worktree of a session retention forgets, with the session', async () => {
    const { dir, repo, root, worktrees } = setup();
    const day = 24 * 60 * 60 * 1000;
    const clock = new FakeClock();
    const db = openDatabase(path.join(dir, 'data'));
    const made = await worktrees.create(repo, {}, session(0));
    new RecordTable<SessionRecord>(db, 'sessions').save({
      ...storedSession(ids[0]!, 'STOPPED', clock.now() - 10 * day),
      cwd: made.cwd,
      worktree: made.worktree,
    });
    const manager = new SessionManager(
      {
        claudeBin: 'claude',
        defaultRuntime: 'TMUX',
        dataDir: path.join(dir, 'data'),
        worktreeRoot: root,
        env: { PATH: process.env.PATH },
        forwarderPath: '/hooks/forward.sh',
        allowedRoots: [],
        maxSessions: 10,
        hookTimeoutSeconds: 10,
        permissionTimeoutSeconds: 40,
        startTimeoutMs: 2000,
        stopTimeoutMs: 200,
        pollIntervalMs: 5,
        restartPolicy: { limit: 0, windowMs: 60_000, initialDelayMs: 20, maxDelayMs: 100 },
        unknownScreenAfterMs: 10_000,
        isHookToken: () => false,
        messages: { limit: 10, confirmTimeoutMs: 500, readyTimeoutMs: 2000, typingGraceMs: 0 },
        log: createLogger('silent'),
        clock,
      },
      {
        runtime: new FakeRuntime(),
        log: new SqliteEventLog(db),
        bus: new LocalEventBus(),
        store: new RecordTable<SessionRecord>(db, 'sessions'),
        messageStore: new RecordTable<MessageRecord>(db, 'messages'),
        permissions: new PermissionBroker(
          {
            holdMs: 1000,
            onExpiry: 'ask',
            changed: () => undefined,
            resolved: async () => undefined,
            clock,
          },
          new RecordTable(db, 'permissions'),
        ),
      },
    );
    expect(manager.get(ids[0]!)?.worktree).toEqual(made.worktree);
    expect(manager.pruneRecords({ maxAgeMs: 7 * day, perSession: 0 }).sessions).toBe(1);
    await vi.waitFor(() => expect(existsSync(made.worktree.path)).toBe(false));
    await vi.waitFor(() => expect(branches(repo)).toEqual(['main']));
    expect(manager.get(ids[0]!)).toBeUndefined();
    await manager.close(false);
    db.close();
  });
});
