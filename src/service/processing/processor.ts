/**
 * Runs processing jobs in worker threads: one job at a time per profile (later requests
 * queue behind it), at most `maxParallel` across profiles. Callers may await a job.
 */
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/database.js';
import { getGenotypeFile, setFileStatus } from '../genotype/genotype-store.js';
import type { ProcessingJob, ProcessingOutcome } from './process-job.js';

// In the bundle the worker is parse-worker.js beside this code; from TypeScript source
// (tsx) a small .mjs bootstrap loads parse-worker.ts.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './parse-worker-source.mjs' : './parse-worker.js', import.meta.url);

/** A job that runs longer than this is stopped and reported as failed. */
const JOB_TIMEOUT_MS = 10 * 60 * 1000;

export interface Processor {
  /** Queues processing of the profile's current file; resolves when that run ends. */
  process(profileId: string): Promise<ProcessingOutcome>;
  /** True while a job of this profile is queued or running. */
  isBusy(profileId: string): boolean;
  /** Waits for running jobs to end and refuses new ones. */
  close(): Promise<void>;
}

export function createProcessor(options: {
  db: Db;
  jobBase: Omit<ProcessingJob, 'profileId'>;
  maxParallel: number;
  onDone?: (profileId: string, outcome: ProcessingOutcome) => void;
}): Processor {
  const { db, jobBase, maxParallel } = options;
  const tails = new Map<string, Promise<unknown>>(); // per-profile chain of jobs
  const pending = new Map<string, number>();
  const waiting: Array<() => void> = []; // jobs waiting for a free worker slot
  let running = 0;
  let closed = false;

  const acquire = () =>
    new Promise<void>((resolve) => {
      if (running < maxParallel) {
        running++;
        resolve();
      } else waiting.push(() => (running++, resolve()));
    });
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  async function runOne(profileId: string): Promise<ProcessingOutcome> {
    await acquire();
    try {
      const file = getGenotypeFile(db, profileId);
      if (closed || !file) return { kind: 'superseded' };
      setFileStatus(db, profileId, 'processing', null, file.file_name);
      const outcome = await runInWorker({ ...jobBase, profileId });
      // The worker records parse failures itself; this also covers crashes and time-outs.
      if (outcome.kind === 'failed') setFileStatus(db, profileId, 'failed', outcome.reason, file.file_name);
      options.onDone?.(profileId, outcome);
      return outcome;
    } finally {
      release();
    }
  }

  return {
    process(profileId) {
      if (closed) return Promise.resolve({ kind: 'superseded' });
      pending.set(profileId, (pending.get(profileId) ?? 0) + 1);
      const run = (tails.get(profileId) ?? Promise.resolve()).catch(() => undefined).then(() => runOne(profileId));
      const tail = run.finally(() => {
        const left = (pending.get(profileId) ?? 1) - 1;
        if (left === 0) {
          pending.delete(profileId);
          tails.delete(profileId);
        } else pending.set(profileId, left);
      });
      tails.set(profileId, tail);
      return run;
    },
    isBusy: (profileId) => pending.has(profileId),
    async close() {
      closed = true;
      await Promise.allSettled([...tails.values()]);
    },
  };
}

function runInWorker(job: ProcessingJob): Promise<ProcessingOutcome> {
  return new Promise((resolve) => {
    // Bounded heap: a pathological file fails its own job instead of the whole service.
    const worker = new Worker(WORKER_URL, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 768 } });
    let settled = false;
    const finish = (outcome: ProcessingOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ kind: 'failed', reason: 'Reading this file took longer than 10 minutes and was stopped. Check that it is a genotype raw-data file.' }),
      JOB_TIMEOUT_MS,
    );
    worker.once('message', (outcome: ProcessingOutcome) => finish(outcome));
    worker.once('error', (err) =>
      finish({
        kind: 'failed',
        reason:
          (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? 'This file needs more memory to read than Traitscope allows. Check that it is a genotype raw-data file, not a whole-genome sequence.'
            : `Traitscope could not finish reading this file (internal error: ${err.message}). Please report this with the file's format, not the file.`,
      }),
    );
    worker.once('exit', (code) => finish({ kind: 'failed', reason: `The file reader stopped unexpectedly (exit code ${code}).` }));
  });
}
