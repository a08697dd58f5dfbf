/**
 * `npm run dev`: the desktop app in development. Electron runs the main process bundle that
 * electron-vite rebuilds on change, the window's UI comes from Vite's dev server with hot
 * reload (src/main/dev-renderer.ts), and the data lives in .traitscope-dev/ so development
 * never touches your own Traitscope data (pass --data-dir=FOLDER after `--` to choose).
 *
 * Before starting it makes sure Electron's binary is installed and better-sqlite3 is built
 * for Electron in out/native (scripts/desktop/electron-native.ts; the first time this needs
 * the internet). node_modules keeps the build for Node, so `npm test` and `npm run serve`
 * keep working side by side.
 *
 *   npm run dev [-- ELECTRON_ARGS…]
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { installElectronSqlite } from './desktop/electron-native.js';

const ROOT = path.resolve(import.meta.dirname, '..');

function electronBinaryInstalled(): boolean {
  const pathFile = path.join(ROOT, 'node_modules', 'electron', 'path.txt');
  return (
    existsSync(pathFile) &&
    existsSync(path.join(ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim()))
  );
}

if (!electronBinaryInstalled()) {
  console.error(
    "Electron's binary is not installed (npm ci skips it when ELECTRON_SKIP_BINARY_DOWNLOAD=1 is set). " +
      'Install it with `node node_modules/electron/install.js` (it downloads Electron), then run `npm run dev` again.',
  );
  process.exit(1);
}

try {
  await installElectronSqlite();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const appArgs = [`--data-dir=${path.join(ROOT, '.traitscope-dev')}`, ...process.argv.slice(2)];
const electronVite = path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const child = spawn(process.execPath, [electronVite, 'dev', '--', ...appArgs], { cwd: ROOT, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
