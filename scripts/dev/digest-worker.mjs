// Digest thread entry when the service runs from TypeScript source (`npm run serve:dev`, tests
// that import the service directly): tsx's loader is not inherited by worker threads. Everything
// shipped runs the bundle's digest-worker.js instead (see engine-worker.mjs beside this).
import { tsImport } from 'tsx/esm/api';

await tsImport('./digest-worker.ts', new URL('../../src/service/storage/', import.meta.url).href);
