/**
 * Vitest global set-up: the tests start the service and the CLI from the bundle
 * (out/main/cli.js), the code users run. When the bundle is missing or older than the
 * sources, it is built first (about 2 s), so a test never runs yesterday's code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLI_BUNDLE = path.join(ROOT, 'out', 'main', 'cli.js');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function bundleIsCurrent(): boolean {
  if (!existsSync(CLI_BUNDLE)) return false;
  const built = statSync(CLI_BUNDLE).mtimeMs;
  return newest(path.join(ROOT, 'src')) <= built && statSync(path.join(ROOT, 'electron.vite.config.ts')).mtimeMs <= built;
}

export default function setup(): void {
  if (bundleIsCurrent()) return;
  console.log('[traitscope tests] building the bundle (out/ is missing or older than the sources)…');
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (result.status !== 0) throw new Error('The bundle could not be built (npm run build); the tests need it.');
}
