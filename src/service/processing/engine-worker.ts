/**
 * Entry of an engine worker (a thread of the worker pool, pool.ts). It opens its own
 * database connection and loads the science engine once, says it is ready, then runs the
 * tasks it is sent one at a time, reporting progress and the outcome of each.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database.js';
import { engineWithCustomTraits } from '../traits/custom-traits.js';
import type { WorkerMessage } from './pool.js';
import { runTask, type Task } from './tasks.js';
import { lowerThisThreadsPriority } from './thread-priority.js';
import { genotypeMemo, type JobProgress, type WorkerContext } from './worker-context.js';

export interface EngineWorkerData {
  dbPath: string;
  dataDir: string;
  resourcesDir: string;
}

lowerThisThreadsPriority();
const port = parentPort!;
const { dbPath, dataDir, resourcesDir } = workerData as EngineWorkerData;
const db = openDatabase(dbPath);
const engine = engineWithCustomTraits(db, resourcesDir);
engine(); // the catalog is loaded now, before the first task waits for it

let currentTask = 0;
const ctx: WorkerContext = {
  db,
  engine,
  dataDir,
  resourcesDir,
  genotypes: genotypeMemo(),
  progress: (progress: JobProgress) => send({ type: 'progress', id: currentTask, progress }),
};

function send(message: WorkerMessage): void {
  port.postMessage(message);
}

port.on('message', ({ id, task }: { id: number; task: Task }) => {
  currentTask = id;
  // A task that throws fails alone; the worker and its loaded engine stay.
  runTask(ctx, task).then(
    (result) => send({ type: 'result', id, result }),
    (err: Error) => send({ type: 'error', id, message: `internal error: ${err.message}` }),
  );
});
send({ type: 'ready' });
