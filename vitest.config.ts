import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers and the CLI run from the bundle; build it first when the sources are newer.
    globalSetup: ['./test/support/bundle.ts'],
    // Every exchange with the service is checked against the OpenAPI document.
    setupFiles: ['test/api/support/conformance-setup.ts'],
    // Every API test starts its own real server process, and every upload is followed by the
    // background scoring of all traits; give them room on a loaded 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
