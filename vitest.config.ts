import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

/** What the integration and end-to-end files share: real hubs, real claude, one file at a time. */
const sequential = {
  // They start real hubs and claude processes; one file at a time keeps 2 cores responsive.
  fileParallelism: false,
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  resolve: {
    // One graphql instance for the tests and for Pothos/yoga (which load its CommonJS build).
    alias: { graphql: createRequire(import.meta.url).resolve('graphql') },
  },
  test: {
    // Fails a test that prints, logs an error or leaves a rejection unhandled, after disposing
    // what the test started (see the file, and test/helpers/leftovers.ts).
    setupFiles: ['test/setup/fail-on-unexpected-output.ts'],
    // After-hooks run last registered first: the setup file's come after the tests' own.
    sequence: { hooks: 'stack' },
    reporters: ['default'],
    // `vitest run --project unit` and so on; `vitest run` runs the unit files first, several at
    // once, then the other files one at a time.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // A worker per core (vitest leaves one free by default: on 2 cores, one file at a time).
          maxWorkers: '100%',
          // Pure logic, no processes: a test that takes seconds is stuck.
          testTimeout: 10_000,
          hookTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], ...sequential },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], ...sequential } },
    ],
  },
});
