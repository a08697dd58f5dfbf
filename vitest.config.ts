import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two suites (docs/testing.md):
 * - `npm test` (projects `unit` and `unit-isolated`): the unit, API and service tests, the
 *   loop to run while working;
 * - `npm run test:all` (every project, as .ci/run runs it): adds the browser tests, the
 *   desktop packaging checks, the statistical validation suites at full size and the
 *   durability trials.
 */
const SLOW = [
  // Real Chromium.
  'test/e2e/**/*.test.ts',
  'test/api/{openapi,cors}.test.ts',
  // Packaging and toolchains: the WebAssembly build, and the generated client's committed
  // types against openapi-typescript's output (a few seconds of CPU to load it).
  'test/desktop/**/*.test.ts',
  'test/parser/wasm-build.test.ts',
  'test/api/generated-types.test.ts',
  // The science over many simulated and real people.
  'test/science/{calibration,mixture-calibration,heavy-tails,ancestry-validation}.test.ts',
  // Durability: kill -9 trials (a service started again after each), and the memory a
  // 1.2-million-line file leaves behind.
  'test/security/{crash,reference-crash}.test.ts',
  'test/service/memory-returned.test.ts',
  // Stress and sweeps of the data folder, each with a service of its own: writers racing
  // worker threads, every byte of the data folder searched after deletions (also with
  // another program holding the database, and after a crash), file modes and scrubbing at
  // rest, and the service-wide memory budget with processes of their own.
  'test/security/{concurrency,delete-erases,erase-blocked,data-at-rest}.test.ts',
  'test/service/memory-budget.test.ts',
  // Attack trials against a service of their own, bound by its clocks: wrong client secrets
  // answered after growing delays and floods of made-up ids (a scrypt check each), and slow
  // or stuck clients held until the header and body deadlines fire.
  'test/security/{token-guessing,slow-clients}.test.ts',
];

/**
 * Files run with isolate: false: a worker process runs many of them and keeps the modules
 * they import, so vitest, playwright-core, the conformance checker's compiled schemas, the
 * catalog and the parser load once per worker instead of once per file (about 1.5 s of CPU
 * a file). A test file keeps its state in its own module and stops what it starts (servers,
 * browsers, data folders) in its afterAll.
 *
 * ISOLATED files get a fresh process each, for module state another file could see or
 * disturb: the parser's memory bound (a parse core is reused within a process and its
 * WebAssembly memory only grows, so it failed after other files had parsed large inputs),
 * the slow-clients limits, the packaging layout and the in-process service starts (the bundled
 * service registers its own copies of the API's schemas in zod's registry, which is global to
 * the process: a later file's OpenAPI document then met two schemas of one id).
 */
const ISOLATED_QUICK = ['test/parser/memory-bound.test.ts', 'test/service/memory-starter.test.ts'];
const ISOLATED_SLOW = [
  'test/security/slow-clients.test.ts',
  'test/desktop/{asar-layout,startup-failure,open-with}.test.ts',
];
const ISOLATED = [...ISOLATED_QUICK, ...ISOLATED_SLOW];

/** A project of one suite: files shared in a worker, or each in its own process. */
function project(name: string, files: { include: string[]; exclude: string[] }, isolate: boolean) {
  return {
    extends: true as const,
    test: {
      name,
      // One service for the files that need a plain one (test/support/shared-service.ts).
      globalSetup: isolate
        ? ['./test/support/bundle.ts']
        : ['./test/support/bundle.ts', './test/support/shared-service.ts'],
      include: files.include,
      exclude: [...configDefaults.exclude, ...files.exclude],
      isolate,
    },
  };
}

/**
 * `npm test` runs with `--mode quick`: tests sized with scienceSize (test/support/science-scale.ts)
 * take their quick size there, unless TRAITSCOPE_SCIENCE says otherwise; `npm run test:all`
 * runs them at full size.
 */
export default defineConfig(({ mode }) => ({
  test: {
    env: mode === 'quick' && !process.env.TRAITSCOPE_SCIENCE ? { TRAITSCOPE_SCIENCE: 'quick' } : {},
    // Servers and the CLI run from the bundle; build it first when the sources are newer.
    globalSetup: ['./test/support/bundle.ts'],
    // Every exchange with the service is checked against the OpenAPI document; with
    // TRAITSCOPE_TEST_CPU set, each file's CPU time is recorded (docs/testing.md).
    setupFiles: ['test/api/support/conformance-setup.ts', 'test/support/cpu-per-file.ts'],
    // API tests talk to a real service process (the shared one or their own), and every upload
    // is followed by the background scoring of all traits; give them room on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Transformed sources are kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by each file's content; `npx vitest --clearCache` empties it): a rerun of the quick
    // loop skips most of vitest's main-process work.
    experimental: { fsModuleCache: true },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      project('unit', { include: ['test/**/*.test.ts'], exclude: [...ISOLATED, ...SLOW] }, false),
      project('unit-isolated', { include: ISOLATED_QUICK, exclude: [] }, true),
      project('slow', { include: SLOW, exclude: ISOLATED }, false),
      project('slow-isolated', { include: ISOLATED_SLOW, exclude: [] }, true),
    ],
  },
}));
