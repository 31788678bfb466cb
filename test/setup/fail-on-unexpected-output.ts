import { afterAll, afterEach, beforeEach } from 'vitest';
import { disposeLeftovers } from '../helpers/leftovers.js';
import {
  describeValues,
  enterScope,
  reportUnexpected,
  takeFindings,
} from '../helpers/unexpected-output.js';

// A passing run prints the reporter's lines and nothing else: console output or a write to
// stdout or stderr, an unhandled rejection or exception, or an error a hub logs
// (test/helpers/hub.ts, hub-process.ts) fails the test during which it happened. What comes
// from a beforeAll fails the next test's beforeEach, and from an afterAll the file. To show a
// measurement, put it in an assertion's message.

for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    reportUnexpected(`console.${method}: ${describeValues(args)}`);
    original(...args);
  };
}
for (const stream of [process.stdout, process.stderr]) {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((...args: unknown[]) => {
    reportUnexpected(
      `${stream === process.stdout ? 'stdout' : 'stderr'}: ${describeValues([String(args[0])])}`,
    );
    return original(...args);
  }) as typeof stream.write;
}
process.on('unhandledRejection', (reason) =>
  reportUnexpected(`unhandled rejection: ${describeValues([reason])}`),
);
process.on('uncaughtException', (error) =>
  reportUnexpected(`uncaught exception: ${describeValues([error])}`),
);

/** Throws what went unexpected, after one turn of the event loop so Node reports rejections. */
async function check(ending: 'test' | 'file' | null, when: string): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const findings = takeFindings(ending);
  if (findings.length > 0)
    throw new Error(`unexpected output ${when}:\n${findings.map((f) => `  ${f}`).join('\n')}`);
}

beforeEach(async () => {
  // Whatever came before this test: a beforeAll, or the end of the test before.
  await check(null, 'before this test (in a beforeAll, or after the previous test ended)');
  enterScope('test');
});

// What the test started ends first (test/helpers/leftovers.ts), so that what a hub logs as it
// stops counts for the test; a failure to end it is thrown after the check.
afterEach(async () => {
  const disposed = await settle(disposeLeftovers('test'));
  enterScope('file');
  await check('test', 'during this test');
  disposed();
});

afterAll(async () => {
  const disposed = await settle(disposeLeftovers('file'));
  await check('file', 'after the last test or in an afterAll');
  disposed();
});

/** Waits for `promise`; gives a function that throws what it rejected with, if it did. */
async function settle(promise: Promise<void>): Promise<() => void> {
  return promise.then(
    () => () => undefined,
    (error: unknown) => () => {
      throw error;
    },
  );
}
