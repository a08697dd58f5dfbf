// Erase thread entry when the service runs from TypeScript source (`npm run serve:dev`, tests
// that import the service directly): tsx's loader is not inherited by worker threads. Everything
// shipped runs the bundle's erase-worker.js instead (see engine-worker.mjs beside this).
import { tsImport } from 'tsx/esm/api';

await tsImport('./erase-worker.ts', new URL('../../src/service/db/', import.meta.url).href);
