/**
 * `npm run bench`: builds the bundle, then runs every bench/*.bench.ts in turn (or those
 * whose name contains the argument: `npm run bench -- service`). Each prints its figures and
 * its ratios against a baseline measured in the same run; the targets are summed up at the
 * end. Targets are checked here, never in unit tests, because timings depend on the machine.
 */
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTargets, writeResultsFile } from './report.js';

const only = process.argv[2];
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();

const startLoad = loadavg();
console.log(
  `Node ${process.version}; load average ${startLoad
    .map((x) => x.toFixed(2))
    .join(' ')} (other processes distort every figure)`,
);
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const mod = (await import(pathToFileURL(path.join(import.meta.dirname, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
printTargets();
const resultsFile = writeResultsFile(startLoad, files);
if (resultsFile)
  console.log(`\nThis run's targets: ${path.relative(process.cwd(), resultsFile)} (commit it to keep the record)`);
console.log(
  `\nload average at the end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
