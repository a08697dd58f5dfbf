/**
 * Vitest setup (every test file): with TRAITSCOPE_TEST_CPU naming a file, appends one line
 * per test file to it: the file, the CPU seconds its run took (the vitest worker's own, plus
 * that of the processes it started and waited for: its services, CLI runs), those two parts,
 * and its wall-clock seconds. Without the variable it does nothing. Linux only (it reads
 * /proc/self/stat). docs/testing.md shows how to read it.
 *
 * A file's run is measured from this setup, before the file is imported, to the file's last
 * afterAll (vitest runs a setup file's afterAll after the file's own), so its imports, its
 * set-up and stopping its services count. Work done for it by the shared service
 * (test/support/shared-service.ts) is not in it: that process belongs to vitest's main process.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

const output = process.env.TRAITSCOPE_TEST_CPU;
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** [own, waited-for children] CPU seconds of this process so far. */
function cpuSeconds(): [number, number] {
  // Fields after the command name: utime, stime, cutime, cstime are the 12th to 15th, in clock ticks (100 a second).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = (i: number) => Number(fields[i]) / 100;
  return [ticks(11) + ticks(12), ticks(13) + ticks(14)];
}

if (output) {
  const [ownBefore, childrenBefore] = cpuSeconds();
  const started = performance.now();
  afterAll(() => {
    const [own, children] = cpuSeconds();
    const file = path.relative(ROOT, expect.getState().testPath ?? 'unknown');
    const cells = [own - ownBefore + children - childrenBefore, own - ownBefore, children - childrenBefore];
    const wall = (performance.now() - started) / 1000;
    appendFileSync(output, [file, ...cells.map((s) => s.toFixed(2)), wall.toFixed(2)].join('\t') + '\n');
  });
}
