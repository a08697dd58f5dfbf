/**
 * Build of the three Electron parts:
 * - main: the Electron glue plus the whole service (bundled), with three more entries that
 *   share its chunks: the engine worker (the worker pool's thread), the command line
 *   (`npm run serve`, `npm run cli`, the tests) and the library the benchmarks load, so
 *   everything runs the same bundled code the desktop app ships. Every chunk lands flat in
 *   out/main/ so that `new URL('./engine-worker.js', import.meta.url)` resolves next to it.
 *   The target is the oldest Node that runs it (package.json engines, the Node of
 *   `npm run serve` and the tests), which Electron 45's Node 24 runs as well.
 * - preload: CommonJS, because sandboxed preload scripts cannot be ES modules.
 * - renderer: the React UI, also served headless by `npm run serve` from out/renderer.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      target: 'node20.19',
      rolldownOptions: {
        input: {
          index: resolve(root, 'src/main/index.ts'),
          'engine-worker': resolve(root, 'src/service/processing/engine-worker.ts'),
          cli: resolve(root, 'src/cli/index.ts'),
          library: resolve(root, 'src/service/library.ts'),
        },
        output: {
          entryFileNames: '[name].js',
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      rolldownOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves output unminified by default; the UI is also served to browsers.
      minify: true,
      rolldownOptions: { input: { index: resolve(root, 'src/renderer/index.html') } },
    },
  },
});
