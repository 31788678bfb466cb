import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, TestRunner } from 'vitest';

/**
 * Ends something a test started: a hub, a claude world, a socket. It may run after the test
 * ended the thing itself (a hub stopped on purpose), so it must be safe to call again.
 */
export type Dispose = () => unknown;

/** What the running test added (in it or its beforeEach), disposed when it ends. */
const ofTest: Dispose[] = [];
/** How many `outliveTest` calls are under way: what is added meanwhile goes to the suite. */
let outliving = 0;
/**
 * What beforeAll hooks added: the file's list first, then one per describe block that keeps
 * its own (`disposeWithSuite`), innermost last.
 */
const ofSuites: Dispose[][] = [[]];

/**
 * Everything tests start, disposed after them: what a test (or its beforeEach) adds, once the
 * test ends; what a beforeAll adds, after the file's last test, or after its describe block's
 * when that calls `disposeWithSuite`. Last added, first disposed, as each may use what came
 * before it (a client its hub). The setup file (`test/setup/fail-on-unexpected-output.ts`)
 * disposes them before its check, so that what a hub logs as it stops counts for the test.
 */
export const leftovers = {
  add(dispose: Dispose): void {
    (TestRunner.getCurrentTest() && outliving === 0 ? ofTest : ofSuites.at(-1)!).push(dispose);
  },
};

/**
 * Runs `start` so that what it adds to the leftovers is disposed as if a beforeAll had added
 * it, not when the running test ends: for a hub a test restarts for the tests after it.
 */
export async function outliveTest<T>(start: () => Promise<T>): Promise<T> {
  outliving++;
  try {
    return await start();
  } finally {
    outliving--;
  }
}

/** A new directory in the system's temp dir, `<prefix>XXXXXX`, removed with the leftovers. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  leftovers.add(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Called in a describe block, before its beforeAll hooks: what they add to the leftovers is
 * disposed after the block's tests and its own afterAll hooks, rather than at the file's end.
 */
export function disposeWithSuite(): void {
  beforeAll(() => {
    ofSuites.push([]);
  });
  // Registered before the block's own afterAll hooks, so that it runs after them.
  afterAll(() => disposeAll(ofSuites.pop()!));
}

/** Disposes the running test's leftovers, or, at the file's end, those of its beforeAll hooks. */
export function disposeLeftovers(of: 'test' | 'file'): Promise<void> {
  return disposeAll(of === 'test' ? ofTest : ofSuites[0]!);
}

/**
 * Disposes all of `list`, last first, each even when one before it failed, then throws what
 * failed. What a dispose adds meanwhile is disposed too.
 */
async function disposeAll(list: Dispose[]): Promise<void> {
  const errors: unknown[] = [];
  for (let dispose = list.pop(); dispose; dispose = list.pop()) {
    try {
      await dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1)
    throw new AggregateError(errors, `${errors.length} leftovers failed to end`);
}
