/**
 * Build of the three Electron parts:
 * - main: the Electron glue, the whole service and its worker, with every JavaScript
 *   dependency bundled in. Only `electron` stays outside. The packaged app then needs no
 *   node_modules: the worker runs from app.asar.unpacked, where nothing inside the archive
 *   can be resolved, and finds everything beside it (see electron-builder.yml).
 *   Native code: @node-rs/crc32's addon is emitted next to the chunks (out/main/chunks);
 *   better-sqlite3's is named explicitly at run time (src/service/packaged-paths.ts).
 *   Entries, sharing one set of chunks: index (Electron's main), engine-worker (the worker
 *   pool's threads), digest-worker (the thread hashing uploads), erase-worker (the thread
 *   erasing what deletions leave in the database files), service (the service alone, so tests can start it from a packaged
 *   layout without Electron), cli (the command line: `npm run serve`, `npm run cli`, the
 *   server every test starts) and library (what the benchmarks load), so everything runs
 *   the bundled code the desktop app ships. Every chunk lands flat in out/main/ so that
 *   `new URL('./engine-worker.js', import.meta.url)` in the service resolves next to it.
 *   A chunk's name says who loads it (chunkRoles below), because electron-builder.yml ships
 *   and unpacks by name: the command line's own chunks (`cli-*`, each command is imported
 *   when it runs) are not shipped, the main process's alone (`service-*`) stay in the
 *   archive, and those a worker thread loads are unpacked.
 *   The target is the oldest Node that runs it (package.json engines, the Node of
 *   `npm run serve` and the tests); Electron 45's Node 24 runs it as well.
 * - preload: CommonJS, because sandboxed preload scripts cannot be ES modules.
 * - renderer: the React UI, also served headless by `npm run serve` from out/renderer.
 *   `npm run dev` serves it from Vite's dev server instead (src/main/dev-renderer.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin, Rolldown } from 'vite';
import { openApiDocument } from './src/service/http/openapi.js';
import { operations } from './src/shared/routes/index.js';
import { operationTableOf } from './src/shared/routes/operation-table.js';

const root = import.meta.dirname;

/** `npm run dev`'s UI server. Its hot-reload client connects here directly (hmr), not through the service's origin the window loads. */
const DEV_SERVER = { host: '127.0.0.1', port: 5173 };

/**
 * In development the page needs Vite's inline scripts and styles (hot reload, React
 * refresh), which the UI's own <meta> policy forbids; the desktop main process sets a
 * development policy as a header instead. Builds keep the <meta> policy.
 */
function devWithoutMetaCsp(): Plugin {
  return {
    name: 'traitscope:dev-without-meta-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[\s\S]*?\/>/, ''),
  };
}

/**
 * Native addons as CommonJS modules. electron-vite emits a required `.node` file as an asset
 * and loads it as `export default require(…)`, so CommonJS code that requires an addon
 * package (@node-rs/crc32's loader requires @node-rs/crc32-<platform>) receives
 * `{ default: addon }` instead of the addon and finds none of its functions. Exporting the
 * addon itself restores what Node's own require gives.
 */
function nativeAddonsAsCommonJs(): Plugin {
  return {
    name: 'traitscope:native-addons-as-commonjs',
    transform(code, id) {
      if (!id.endsWith('.node') || !code.includes('export default require(')) return null;
      return { code: code.replace('export default require(', 'module.exports = require('), map: null };
    },
  };
}

/**
 * The two Swagger UI files /api/docs serves, copied beside the bundle (out/main/swagger-ui),
 * because the packaged app ships no node_modules to resolve swagger-ui-dist from.
 * src/service/http/docs-page.ts looks there first.
 */
function swaggerUiAssets(): Plugin {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return {
    name: 'traitscope:swagger-ui-assets',
    generateBundle() {
      for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
        this.emitFile({ type: 'asset', fileName: `swagger-ui/${name}`, source: readFileSync(resolve(dir, name)) });
      }
    },
  };
}

/**
 * The OpenAPI document, generated from the route table at build time (out/main/openapi.json):
 * the service sends these bytes, so its first answer on /api/openapi.json does not wait for
 * zod's JSON Schema conversion (a few hundred ms of the start-up on a busy machine). Without
 * the file (the TypeScript sources under tsx) the service generates the same document.
 */
function openApiDocumentAsset(): Plugin {
  return {
    name: 'traitscope:openapi-document',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'openapi.json', source: JSON.stringify(openApiDocument()) });
    },
  };
}

/**
 * The UI calls the API through the operation table (src/shared/routes/operation-table.ts),
 * which derives method and path from the route table. The route table holds the zod schemas
 * (~137 kB the page does not need), so the UI's build gets the derived table as a literal.
 */
function operationTableLiteral(): Plugin {
  const file = resolve(root, 'src/shared/routes/operation-table.ts');
  return {
    name: 'traitscope:operation-table-literal',
    load(id) {
      if (id.split('?')[0] !== file) return null;
      return `export const OPERATION_TABLE = ${JSON.stringify(operationTableOf(operations))};\n`;
    },
  };
}

/** The main build's entries, by who runs them. */
const WORKER_ENTRIES = {
  'engine-worker': resolve(root, 'src/service/processing/engine-worker.ts'),
  'digest-worker': resolve(root, 'src/service/storage/digest-worker.ts'),
  'erase-worker': resolve(root, 'src/service/db/erase-worker.ts'),
};
const APP_ENTRIES = { index: resolve(root, 'src/main/index.ts'), service: resolve(root, 'src/service/index.ts') };
const TOOL_ENTRIES = { cli: resolve(root, 'src/cli/index.ts'), library: resolve(root, 'src/service/library.ts') };

/**
 * Names each shared chunk of the main build by the code that loads it, read from the module
 * graph: a chunk with a module a worker thread imports keeps its plain name (unpacked, since
 * workers load from disk); one the desktop app's main process alone loads is `service-…`
 * (kept in the archive, like service.js); one only the command line or the benchmarks'
 * library load is `cli-…` (not shipped). electron-builder.yml's `files` and `asarUnpack`
 * match these names; test/desktop/asar-layout.test.ts checks the package they make.
 */
function chunkRoles(): { plugin: Plugin; chunkFileNames: (chunk: Rolldown.PreRenderedChunk) => string } {
  const workerModules = new Set<string>();
  const appModules = new Set<string>();
  const toolModules = new Set<string>();
  return {
    plugin: {
      name: 'traitscope:chunk-roles',
      buildEnd() {
        const reach = (entries: string[], into: Set<string>) => {
          const pending = [...entries];
          for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
            if (into.has(id)) continue;
            into.add(id);
            const info = this.getModuleInfo(id);
            if (info) pending.push(...info.importedIds, ...info.dynamicallyImportedIds);
          }
        };
        for (const set of [workerModules, appModules, toolModules]) set.clear();
        reach(Object.values(WORKER_ENTRIES), workerModules);
        reach(Object.values(APP_ENTRIES), appModules);
        reach(Object.values(TOOL_ENTRIES), toolModules);
      },
    },
    // A chunk with a module outside the graph (the bundler's own runtime) is loaded by all.
    chunkFileNames: ({ moduleIds }) => {
      if (moduleIds.some((id) => workerModules.has(id))) return '[name]-[hash].js';
      if (moduleIds.some((id) => appModules.has(id))) return 'service-[name]-[hash].js';
      return moduleIds.every((id) => toolModules.has(id)) ? 'cli-[name]-[hash].js' : '[name]-[hash].js';
    },
  };
}
const mainChunks = chunkRoles();

export default defineConfig({
  main: {
    plugins: [nativeAddonsAsCommonJs(), swaggerUiAssets(), openApiDocumentAsset(), mainChunks.plugin],
    build: {
      outDir: resolve(root, 'out/main'),
      target: 'node22.12',
      externalizeDeps: false,
      rolldownOptions: {
        input: { ...APP_ENTRIES, ...WORKER_ENTRIES, ...TOOL_ENTRIES },
        output: {
          entryFileNames: '[name].js',
          chunkFileNames: mainChunks.chunkFileNames,
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
    plugins: [react(), devWithoutMetaCsp(), operationTableLiteral()],
    server: { ...DEV_SERVER, strictPort: true, hmr: { host: DEV_SERVER.host, clientPort: DEV_SERVER.port } },
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves output unminified by default; the UI is also served to browsers.
      minify: true,
      rolldownOptions: { input: { index: resolve(root, 'src/renderer/index.html') } },
    },
  },
});
