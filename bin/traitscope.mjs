#!/usr/bin/env node
// The Traitscope command line (`npm run serve`, `npm run cli`): runs the bundled code in
// out/main/cli.js, the same code the desktop app ships. `npm run build` makes it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'out', 'main', 'cli.js');
if (!existsSync(bundle)) {
  console.error(
    'Traitscope is not built yet: run `npm run build` first (or `npm run serve:dev` to run the TypeScript sources).',
  );
  process.exit(2);
}

/** Newest modification time under a folder (the sources, in a repository checkout). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}
const sources = path.join(root, 'src');
if (existsSync(sources) && newest(sources) > statSync(bundle).mtimeMs) {
  console.error(
    'Note: the sources changed since the last build; this runs the older bundle. Run `npm run build` to include the changes.',
  );
}
await import(pathToFileURL(bundle).href);
