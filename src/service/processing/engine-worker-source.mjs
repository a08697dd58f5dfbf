// Worker entry when the service runs from TypeScript source (`npm run serve:dev`): tsx's
// loader is not inherited by worker threads, so load the real entry through tsx's API.
// Everything else (serve, the CLI, tests, benchmarks, the desktop app) runs the bundle's
// engine-worker.js. Priority drops first, so compiling the worker's modules yields too.
import { tsImport } from 'tsx/esm/api';

const { lowerThisThreadsPriority } = await tsImport('./thread-priority.ts', import.meta.url);
lowerThisThreadsPriority();
await tsImport('./engine-worker.ts', import.meta.url);
