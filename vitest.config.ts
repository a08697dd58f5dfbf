import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that keep no state outside their own module and start no service: they share their
 * worker's modules (isolate: false), so vitest, the catalog, the engine and the parser load
 * once per worker instead of once per file (about 1 s of CPU a file). Everything else runs
 * isolated: the API, security and browser tests (servers, fetch, the conformance checker),
 * the parser's memory bound (a parse core is reused within a process, and its WebAssembly
 * memory only grows), the packaging tests and the in-process service start.
 */
const SHARED = [
  'test/science/**/*.test.ts',
  'test/renderer/**/*.test.ts',
  'test/db/**/*.test.ts',
  'test/service/**/*.test.ts',
  'test/desktop/{launch-args,builder-config,electron-native,packaged-app}.test.ts',
  'test/api/{operation-table,profile-fields}.test.ts',
  'test/parser/{bad-input,collect,fast-path,fixtures,hostile-corpus,nongenome,plausibility,properties,wasm-build}.test.ts',
];

export default defineConfig({
  test: {
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
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED],
          isolate: true,
        },
      },
    ],
  },
});
