/**
 * `npm run test:packaged -- FILE`: the packaged-app smoke test (test/desktop/packaged-app.test.ts)
 * against FILE, an installer (.exe, .dmg, .AppImage, .deb) or the executable of an unpacked
 * package (dist/linux-unpacked/traitscope, dist/win-unpacked/Traitscope.exe,
 * dist/mac-arm64/Traitscope.app). Needs a machine that runs Electron (on Linux without a
 * display: xvfb-run). Screenshots land in test-results/desktop/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const target = process.argv[2];
if (!target || !existsSync(target)) {
  console.error(
    'Usage: npm run test:packaged -- INSTALLER_OR_EXECUTABLE (for example dist/Traitscope-0.1.0-x86_64.AppImage)',
  );
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  [
    path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    'test/desktop/packaged-app.test.ts',
    '--testTimeout',
    '180000',
    '--maxWorkers',
    '1',
  ],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, TRAITSCOPE_PACKAGED_APP: path.resolve(target) } },
);
process.exit(result.status ?? 1);
