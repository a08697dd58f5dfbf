/**
 * Prints the plain closing line CI reads: "N passed, N failed". Skipped tests are counted on
 * the line before it, so the last line keeps exactly that form. Vitest's own summary is not in it.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    if (skipped > 0) process.stdout.write(`\n${skipped} skipped`);
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
