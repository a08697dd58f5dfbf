// Worker entry when running from TypeScript source (npm run serve, tests): tsx's loader is
// not inherited by worker threads, so load the real entry through tsx's API. The bundled
// app uses parse-worker.js directly.
import { tsImport } from 'tsx/esm/api';

await tsImport('./parse-worker.ts', import.meta.url);
