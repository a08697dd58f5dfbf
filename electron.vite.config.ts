/**
 * Build of the three Electron parts:
 * - main: the Electron glue plus the whole service (bundled), and the genotype parser's
 *   worker as a second entry. Every chunk lands flat in out/main/ so that
 *   `new URL('./parse-worker.js', import.meta.url)` in the service resolves next to it.
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
      rolldownOptions: {
        input: {
          index: resolve(root, 'src/main/index.ts'),
          'parse-worker': resolve(root, 'src/service/processing/parse-worker.ts'),
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
