// Worker entry when the service runs from TypeScript source (`npm run serve:dev`, tests that
// import the processor directly): tsx's loader is not inherited by worker threads, so load
// the real entry through tsx's API. Everything shipped (serve, the CLI, the tests' server,
// benchmarks, the desktop app) runs the bundle's engine-worker.js instead, which is why this
// lives outside src/. Priority drops first, so compiling the worker's modules yields too.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const processing = new URL('../../src/service/processing/', import.meta.url).href;
const { lowerThisThreadsPriority } = await tsImport('./thread-priority.ts', processing);
// A worker thread; a worker in a process of its own (engine-process.ts) lowers its priority itself.
if (workerData) lowerThisThreadsPriority(workerData.nice);
await tsImport('./engine-worker.ts', processing);
