/**
 * Vitest global set-up: the tests start the service and the CLI from the bundle
 * (out/main/cli.js) and open the UI it serves (out/renderer), the code users run. When any
 * part of the build is missing or older than what it is built from (src/, including
 * deleted files, the build config, package.json), it is built first (a few seconds), so no
 * test — browser tests included — ever runs yesterday's code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLI_BUNDLE = path.join(ROOT, 'out', 'main', 'cli.js');
/** One output of each build part: main (service, CLI), preload, renderer (the UI). */
const OUTPUTS = [
  CLI_BUNDLE,
  path.join(ROOT, 'out', 'preload', 'index.cjs'),
  path.join(ROOT, 'out', 'renderer', 'index.html'),
];
const INPUTS = ['electron.vite.config.ts', 'package.json'].map((f) => path.join(ROOT, f));

/** Newest modification time in a folder, folders included (a deleted file changes its folder's). */
function newest(dir: string): number {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function bundleIsCurrent(): boolean {
  if (!OUTPUTS.every((f) => existsSync(f))) return false;
  const built = Math.min(...OUTPUTS.map((f) => statSync(f).mtimeMs));
  return Math.max(newest(path.join(ROOT, 'src')), ...INPUTS.map((f) => statSync(f).mtimeMs)) <= built;
}

export default function setup(): void {
  if (bundleIsCurrent()) return;
  console.log('[traitscope tests] building (out/ is missing or older than the sources)…');
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    },
  );
  if (result.status !== 0) throw new Error('The build failed (npm run build); the tests need it.');
  if (!bundleIsCurrent())
    throw new Error(
      'After `electron-vite build`, out/ is still older than the sources: is the clock or a file time in the future?',
    );
}
