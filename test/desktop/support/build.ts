/** The build output the desktop tests read (out/), built once if it is missing, and electron-builder's view of its configuration. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Configuration } from 'electron-builder';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

const BUILD_OUTPUT = ['out/main/index.js', 'out/main/service.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

export function ensureBuilt(): void {
  if (BUILD_OUTPUT.every((file) => existsSync(path.join(ROOT, file)))) return;
  const res = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`npm run build failed:\n${res.stdout}\n${res.stderr}`);
}

/** electron-builder.yml as electron-builder reads it (with package.json's metadata merged in). */
export async function builderConfig(): Promise<Configuration> {
  const { getConfig } = await import('app-builder-lib/out/util/config/config.js');
  return getConfig(ROOT, path.join(ROOT, 'electron-builder.yml'), null);
}

/** Checks a configuration against electron-builder's own JSON schema; throws its message when invalid. */
export async function validateBuilderConfig(config: Configuration): Promise<void> {
  const { validateConfiguration } = await import('app-builder-lib/out/util/config/config.js');
  const { DebugLogger } = await import('builder-util');
  await validateConfiguration(config, new DebugLogger(false));
}
