import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // One graphql instance for the tests and for Pothos/yoga (which load its CommonJS build).
    alias: { graphql: createRequire(import.meta.url).resolve('graphql') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Fails a test that prints, logs an error or leaves a rejection unhandled (see the file).
    setupFiles: ['test/setup/fail-on-unexpected-output.ts'],
    // End-to-end files start real claude processes; one file at a time keeps 2 cores responsive.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
