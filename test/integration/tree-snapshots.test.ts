import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangeMarks } from '../../src/changes/change-marks.js';
import { WorkTreeMarks } from '../../src/changes/work-tree-marks.js';
import { systemClock } from '../../src/clock.js';
import { gitEnvironment, gitRunner } from '../../src/git/git.js';
import { TreeSnapshots } from '../../src/git/tree-snapshots.js';
import { createLogger } from '../../src/log.js';
import { migrate } from '../../src/store/migrations.js';
import { git, makeRepo } from '../helpers/git-repo.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cch-snapshots-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const snapshots = new TreeSnapshots(gitRunner(gitEnvironment(process.env)));
let made = 0;
const folder = (name: string) => path.join(scratch, `${name}-${++made}`);

describe('snapshots of a work tree with real git', () => {
  it('sees added, changed, deleted, renamed and untracked files, not ignored ones, and leaves the index alone', async () => {
    const repo = folder('repo');
    makeRepo(repo);
    writeFileSync(path.join(repo, '.gitignore'), 'ignored.txt\n');
    writeFileSync(path.join(repo, 'long.txt'), `${'a line that stays the same\n'.repeat(20)}`);
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'more');
    const index = path.join(folder('index'), 'session.index');
    const top = (await snapshots.top(path.join(repo, 'src')))!;
    expect(top).toBe(repo);
    const before = await snapshots.snapshot(top, index);

    writeFileSync(path.join(repo, 'README.md'), 'hello\nmore\n');
    rmSync(path.join(repo, 'src', 'app', 'main.txt'));
    renameSync(path.join(repo, 'long.txt'), path.join(repo, 'renamed.txt'));
    writeFileSync(path.join(repo, '-n a\nme.txt'), 'hostile name\n');
    writeFileSync(path.join(repo, 'ignored.txt'), 'not seen\n');
    writeFileSync(path.join(repo, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0]));
    const after = await snapshots.snapshot(top, index);

    const changes = await snapshots.changes(top, before, after, {
      perFile: 10_000,
      total: 100_000,
    });
    expect(changes.map(({ path: file, oldPath, kind }) => [file, oldPath, kind])).toEqual([
      ['-n a\nme.txt', null, 'ADD'],
      ['README.md', null, 'MODIFY'],
      ['blob.bin', null, 'ADD'],
      ['renamed.txt', 'long.txt', 'RENAME'],
      ['src/app/main.txt', null, 'DELETE'],
    ]);
    const blob = (file: string) => git(repo, 'hash-object', file).slice(0, 7);
    const was = git(repo, 'rev-parse', 'HEAD:README.md').slice(0, 7);
    expect(changes[1]!.diff).toBe(
      `diff --git a/README.md b/README.md\nindex ${was}..${blob('README.md')} 100644\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n hello\n+more\n`,
    );
    expect(changes[2]!.diff).toContain('Binary files /dev/null and b/blob.bin differ');
    expect(changes.every((change) => !change.truncated)).toBe(true);
    // The checkout's own index: nothing staged by the snapshots.
    expect(git(repo, 'diff', '--cached', '--name-only')).toBe('');
  });

  it('bounds each file and the whole, saying which were cut', async () => {
    const repo = folder('bounded');
    makeRepo(repo);
    const index = path.join(folder('index'), 'session.index');
    const before = await snapshots.snapshot(repo, index);
    writeFileSync(path.join(repo, 'a.txt'), 'short\n');
    writeFileSync(path.join(repo, 'b.txt'), 'x'.repeat(50).concat('\n').repeat(40));
    for (const name of ['c.txt', 'd.txt']) writeFileSync(path.join(repo, name), 'y\n'.repeat(400));
    const after = await snapshots.snapshot(repo, index);
    const changes = await snapshots.changes(repo, before, after, { perFile: 500, total: 2500 });
    expect(changes.map((change) => [change.path, change.truncated, change.diff !== null])).toEqual([
      ['a.txt', false, true],
      ['b.txt', true, true],
      ['c.txt', true, true],
      ['d.txt', true, false],
    ]);
    expect(changes[1]!.diff!.length).toBeLessThan(600);
    expect(
      changes[1]!.diff!.endsWith('[diff cut at 500 characters: what follows is not shown]'),
    ).toBe(true);
  });

  it("runs no file system monitor the repository's configuration names", async () => {
    const repo = folder('monitored');
    makeRepo(repo);
    const marker = path.join(scratch, `monitor-ran-${made}`);
    const monitor = path.join(scratch, `monitor-${made}.sh`);
    writeFileSync(monitor, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
    git(repo, 'config', 'core.fsmonitor', monitor);
    writeFileSync(path.join(repo, 'new.txt'), 'new\n');
    await snapshots.snapshot(repo, path.join(folder('index'), 'session.index'));
    expect(existsSync(marker)).toBe(false);
    // The same staging by plain git runs it: the check above can fail.
    git(repo, 'add', '--all');
    expect(existsSync(marker)).toBe(true);
  });

  it('knows no top for a folder outside a checkout, or one that is gone', async () => {
    const plain = folder('plain');
    mkdirSync(plain);
    expect(await snapshots.top(plain)).toBeNull();
    expect(await snapshots.top(path.join(plain, 'nope'))).toBeNull();
  });
});

describe("a session's marks", () => {
  const db = new Database(':memory:');
  migrate(db);
  const store = new ChangeMarks(db);
  const log = createLogger('silent');

  it('takes one after a call that may change files, none after a read, none outside a checkout; prune forgets them', async () => {
    const repo = folder('marked');
    makeRepo(repo);
    const indexes = folder('indexes');
    const marks = new WorkTreeMarks(
      { folder: indexes, waitMs: 10_000, quickMs: 10_000 },
      { snapshots, marks: store, clock: systemClock, log },
    );
    const event = (seq: number, eventName: string, tool?: string) => ({
      sessionId: 'one',
      seq,
      eventName,
      receivedAt: seq,
      raw: '{}',
      payload: { hook_event_name: eventName, session_id: 'one', ...(tool && { tool_name: tool }) },
    });
    const one = { id: 'one', cwd: repo };
    await marks.after(one, event(1, 'UserPromptSubmit'));
    expect(marks.after(one, event(2, 'PreToolUse', 'Bash'))).toBeNull();
    writeFileSync(path.join(repo, 'new.txt'), 'new\n');
    await marks.after(one, event(3, 'PostToolUse', 'Bash'));
    expect(marks.after(one, event(4, 'PostToolUse', 'Read'))).toBeNull();
    await marks.after(one, event(5, 'Stop'));
    const taken = store.between('one', 0, 100);
    expect(taken.map((mark) => mark.seq)).toEqual([1, 3, 5]);
    expect(taken[0]!.tree).not.toBe(taken[1]!.tree);
    expect(taken[1]!.tree).toBe(taken[2]!.tree);

    const plain = folder('unmarked');
    mkdirSync(plain);
    await marks.after(
      { id: 'two', cwd: plain },
      { ...event(1, 'UserPromptSubmit'), sessionId: 'two' },
    );
    expect(store.between('two', 0, 100)).toEqual([]);

    expect(existsSync(path.join(indexes, 'one.index'))).toBe(true);
    await marks.prune(new Set());
    expect(store.between('one', 0, 100)).toEqual([]);
    expect(existsSync(path.join(indexes, 'one.index'))).toBe(false);
  });

  it('asks git nothing for a folder in no checkout, turn after turn, and asks once a git init made one', async () => {
    let asked = 0;
    const counting = {
      top: (cwd: string) => ((asked += 1), snapshots.top(cwd)),
      snapshot: (top: string, index: string) => snapshots.snapshot(top, index),
    } as unknown as TreeSnapshots;
    const marks = new WorkTreeMarks(
      { folder: folder('indexes'), waitMs: 10_000, quickMs: 10_000 },
      { snapshots: counting, marks: store, clock: systemClock, log },
    );
    const plain = folder('later-repo');
    mkdirSync(plain);
    const session = { id: 'later', cwd: plain };
    const turn = async (seq: number) => {
      const event = (eventName: string, at: number) => ({
        sessionId: 'later',
        seq: at,
        eventName,
        receivedAt: at,
        raw: '{}',
        payload: { hook_event_name: eventName, session_id: 'later' },
      });
      await marks.after(session, event('UserPromptSubmit', seq));
      await new Promise((resolve) => setTimeout(resolve, 10)); // the look aside
      await marks.after(session, event('Stop', seq + 1));
    };
    for (let seq = 1; seq < 40; seq += 2) await turn(seq);
    expect(asked).toBe(0);
    expect(store.between('later', 0, 1000)).toEqual([]);

    // A person makes the folder a checkout: the next turn's start looks, and its end is marked.
    makeRepo(plain);
    await turn(41);
    expect(asked).toBe(1);
    await turn(43);
    expect(asked).toBe(1);
    expect(store.between('later', 0, 1000).map((mark) => mark.seq)).toEqual([42, 43, 44]);
  });

  it('answers the hook after waitMs when a snapshot is slow, keeps the mark when it lands, and waits no more', async () => {
    let finish: (tree: string) => void = () => undefined;
    const slow = {
      top: async () => '/repo',
      snapshot: () => new Promise<string>((resolve) => (finish = resolve)),
    } as unknown as TreeSnapshots;
    const marks = new WorkTreeMarks(
      { folder: folder('slow'), waitMs: 50, quickMs: 30 },
      { snapshots: slow, marks: store, clock: systemClock, log },
    );
    // A checkout as far as the marks can tell: a `.git` is there.
    const repo = folder('slow-repo');
    mkdirSync(path.join(repo, '.git'), { recursive: true });
    const started = Date.now();
    await marks.after(
      { id: 'slow', cwd: repo },
      {
        sessionId: 'slow',
        seq: 7,
        eventName: 'Stop',
        receivedAt: 0,
        raw: '{}',
        payload: { hook_event_name: 'Stop', session_id: 'slow' },
      },
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(store.between('slow', 0, 100)).toEqual([]);
    finish('late-tree');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.between('slow', 0, 100)).toEqual([
      { seq: 7, tree: 'late-tree', at: expect.any(Number) },
    ]);

    // That snapshot took longer than quickMs: the next hook is answered without waiting at all.
    const again = Date.now();
    await marks.after(
      { id: 'slow', cwd: repo },
      {
        sessionId: 'slow',
        seq: 9,
        eventName: 'UserPromptSubmit',
        receivedAt: 0,
        raw: '{}',
        payload: { hook_event_name: 'UserPromptSubmit', session_id: 'slow' },
      },
    );
    expect(Date.now() - again).toBeLessThan(40);
    await new Promise((resolve) => setTimeout(resolve, 20));
    finish('next-tree');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.between('slow', 7, 100)).toEqual([
      { seq: 9, tree: 'next-tree', at: expect.any(Number) },
    ]);
  });
});
