/**
 * Entry of an engine worker (a thread of the worker pool, pool.ts). It opens its own
 * database connection, says it is ready, then runs the tasks it is sent one at a time,
 * reporting progress and the outcome of each. The science engine (the catalog and the
 * ancestry model, ~0.5 s of CPU) loads once, right after the worker said it is ready: the
 * service's start-up does not wait for it, and the first file does not either (the person
 * is still choosing it).
 *
 * The same entry runs as a child process of its own (engine-process.ts) for a parse too
 * large to leave in the service's process: the messages then travel over the IPC channel
 * (or, in the desktop app's utilityProcess, over `process.parentPort`), and the process
 * closes its database and exits when the service disconnects or tells it to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database.js';
import { engineWithCustomTraits } from '../traits/custom-traits.js';
import { storedFilePath } from '../storage/file-store.js';
import { arrivingFile, type ArrivingFile, type UploadSignal } from './arriving-file.js';
import { ENGINE_PROCESS_DATA } from './engine-process.js';
import type { MessageToWorker, WorkerMessage } from './worker-protocol.js';
import { runTask, type Task } from './tasks.js';
import { lowerThisProcessPriority, lowerThisThreadsPriority } from './thread-priority.js';
import { genotypeMemo, type JobProgress, type WorkerContext } from './worker-context.js';

export interface EngineWorkerData {
  dbPath: string;
  dataDir: string;
  resourcesDir: string;
  /** The thread's nice value (thread-priority.ts). */
  nice: number;
}

/** The service's end: the worker thread's port, or the child process's IPC channel. */
interface ServicePort {
  postMessage: (message: WorkerMessage) => void;
  on: (event: 'message', listener: (message: MessageToWorker) => void) => unknown;
}

/** Electron's end of a utilityProcess (its messages arrive as events holding the data). */
interface UtilityParentPort {
  postMessage: (message: unknown) => void;
  on: (event: 'message', listener: (event: { data: unknown }) => void) => unknown;
}

function processPort(): ServicePort {
  const send = process.send?.bind(process);
  const utility = (process as { parentPort?: UtilityParentPort }).parentPort;
  const data = process.env[ENGINE_PROCESS_DATA];
  if (!data || (!send && !utility))
    throw new Error('engine-worker.js runs as a worker of the Traitscope service, not on its own.');
  if (utility)
    return {
      postMessage: (message) => utility.postMessage(message),
      on: (event, listener) => utility.on(event, (e) => listener(e.data as MessageToWorker)),
    };
  return { postMessage: (message) => void send!(message), on: (event, listener) => process.on(event, listener) };
}

const port: ServicePort = parentPort ?? processPort();
const { dbPath, dataDir, resourcesDir, nice } = (
  parentPort ? workerData : JSON.parse(process.env[ENGINE_PROCESS_DATA]!)
) as EngineWorkerData;
if (parentPort) lowerThisThreadsPriority(nice);
else lowerThisProcessPriority(nice);
const db = openDatabase(dbPath);
// The write-ahead log is copied into the database file after a task has answered, not in
// the commit that stores a genotype (a processing call would wait for ~10 MB of copying).
db.pragma('wal_autocheckpoint = 0');
const engine = engineWithCustomTraits(db, resourcesDir);

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

/** Copies the write-ahead log into the database file, as far as no reader still needs it. */
function checkpoint(): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: the next task's checkpoint takes it.
  }
}

/** The upload the current task parses while it arrives, if any. */
let arrival: ArrivingFile | undefined;

/** The service stopped with this process or let it go: the write-ahead log is copied in and
 * the database closed, so nothing is left for the next start to recover. */
function leave(): void {
  checkpoint();
  db.close();
  process.exit(0);
}

port.on('message', (msg: MessageToWorker) => {
  if ('stop' in msg) {
    leave();
    return;
  }
  if ('message' in msg) {
    if (msg.id === currentTask) arrival?.signal(msg.message as UploadSignal);
    return;
  }
  const id = msg.id;
  const task = msg.task as Task;
  currentTask = id;
  arrival =
    task.kind === 'process' && task.arriving
      ? arrivingFile(storedFilePath(dataDir, task.fileName), task.arriving.size)
      : undefined;
  // A task that throws fails alone; the worker and its loaded engine stay.
  runTask(ctx, task, arrival)
    .then(
      (result) => send({ type: 'result', id, result }),
      (err: Error) => send({ type: 'error', id, message: `internal error: ${err.message}` }),
    )
    .finally(checkpoint);
});
if (!parentPort) process.once('disconnect', leave);
send({ type: 'ready' });
setImmediate(() => {
  try {
    engine();
  } catch {
    // Left for the first task that needs the engine: the getter tries again there, and
    // that task fails with the reason (a throw here would kill the worker, again and again).
  }
});
