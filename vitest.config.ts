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
    // Files run isolated: sharing modules between files (isolate: false) saved ~1.5 s of CPU
    // per file but let module state leak (upload limits, the parser's marker limit) and
    // failed two tests in a fresh-clone CI run.
    isolate: true,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
