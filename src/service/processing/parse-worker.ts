/** Worker-thread entry: runs one processing job and reports its outcome. */
import { parentPort, workerData } from 'node:worker_threads';
import { runProcessingJob, type ProcessingJob } from './process-job.js';

const outcome = await runProcessingJob(workerData as ProcessingJob);
parentPort!.postMessage(outcome);
