// Worker entry when running from TypeScript source (npm run serve, tests): tsx's loader is
// not inherited by worker threads, so load the real entry through tsx's API. The bundled
// app uses parse-worker.js directly. Priority drops first, so that compiling the worker's
// modules already yields to the service's event loop.
import { tsImport } from 'tsx/esm/api';

const { lowerThisThreadsPriority } = await tsImport('./thread-priority.ts', import.meta.url);
lowerThisThreadsPriority();
await tsImport('./parse-worker.ts', import.meta.url);
