/** Worker-thread entry: runs one job (processing a file, or scoring many traits) and reports its outcome. */
import { parentPort, workerData } from 'node:worker_threads';
import { runWorkerJob, type WorkerJob } from './process-job.js';
import { lowerThisThreadsPriority } from './thread-priority.js';

lowerThisThreadsPriority();
const outcome = await runWorkerJob(workerData as WorkerJob);
parentPort!.postMessage(outcome);
