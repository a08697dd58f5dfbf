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
    // Each worker process runs many files and keeps the modules they import (the engine, the
    // catalog, the parser, vitest itself) instead of starting afresh for every file: about
    // 1.5 s of CPU per file. Test files keep no state outside their own module; servers,
    // data folders and browsers are per file. docs/testing.md, "Speed".
    isolate: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
