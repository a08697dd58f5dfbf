/**
 * `npm run bench`: runs every bench/*.bench.ts in turn. Each prints its figures and its
 * ratios against a baseline measured in the same run; targets are checked here, not in
 * unit tests, because timings depend on the machine.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const only = process.argv[2];
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();

for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const mod = (await import(pathToFileURL(path.join(import.meta.dirname, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
