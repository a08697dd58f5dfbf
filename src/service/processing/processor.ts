/**
 * Runs worker-thread jobs: processing a profile's file, or scoring many of its traits.
 * Jobs of one profile run one at a time, in order (a scoring job waits for the file being
 * processed); at most `maxParallel` run across profiles. Callers may await a job.
 */
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/database.js';
import { unpackedModuleUrl } from '../packaged-paths.js';
import { getGenotypeFile, setFileStatus } from '../genotype/genotype-store.js';
import type { JobBase, ProcessingOutcome, ScoringOutcome, WorkerJob } from './process-job.js';

// In the bundle the worker is parse-worker.js beside this code (unpacked from app.asar in the
// desktop app); from TypeScript source (tsx) a small .mjs bootstrap loads parse-worker.ts.
const WORKER_URL = unpackedModuleUrl(import.meta.url.endsWith('.ts') ? './parse-worker-source.mjs' : './parse-worker.js', import.meta.url);

/** A job that runs longer than this is stopped and reported as failed. */
const JOB_TIMEOUT_MS = 10 * 60 * 1000;

export interface Processor {
  /** Queues processing of the profile's current file; resolves when that run ends. */
  process(profileId: string): Promise<ProcessingOutcome>;
  /** Queues computing the given traits of the profile in a worker thread. */
  score(profileId: string, codes: string[]): Promise<ScoringOutcome>;
  /** True while a file of this profile is queued for processing or being processed. */
  isProcessing(profileId: string): boolean;
  /** Waits for running jobs to end and refuses new ones. */
  close(): Promise<void>;
}

export function createProcessor(options: { db: Db; jobBase: Omit<JobBase, 'profileId'>; maxParallel: number }): Processor {
  const { db, jobBase, maxParallel } = options;
  const tails = new Map<string, Promise<unknown>>(); // per-profile chain of jobs
  const processing = new Map<string, number>(); // queued or running processing jobs per profile
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

  /** Chains a job behind the profile's earlier ones and runs it in a free worker slot. */
  function enqueue<T>(profileId: string, work: () => Promise<T>): Promise<T> {
    const run = (tails.get(profileId) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        await acquire();
        try {
          return await work();
        } finally {
          release();
        }
      });
    const tail = run.catch(() => undefined);
    tails.set(profileId, tail);
    void tail.then(() => {
      if (tails.get(profileId) === tail) tails.delete(profileId);
    });
    return run;
  }

  async function processNow(profileId: string): Promise<ProcessingOutcome> {
    const file = getGenotypeFile(db, profileId);
    if (closed || !file) return { kind: 'superseded' };
    setFileStatus(db, profileId, 'processing', null, file.file_name);
    const outcome = await runInWorker<ProcessingOutcome>({ ...jobBase, profileId, kind: 'process' });
    // The worker records parse failures itself; this also covers crashes and time-outs.
    if (outcome.kind === 'failed') setFileStatus(db, profileId, 'failed', outcome.reason, file.file_name);
    return outcome;
  }

  return {
    process(profileId) {
      if (closed) return Promise.resolve({ kind: 'superseded' });
      processing.set(profileId, (processing.get(profileId) ?? 0) + 1);
      return enqueue(profileId, () => processNow(profileId)).finally(() => {
        const left = (processing.get(profileId) ?? 1) - 1;
        if (left === 0) processing.delete(profileId);
        else processing.set(profileId, left);
      });
    },
    score(profileId, codes) {
      if (closed) return Promise.resolve({ kind: 'superseded' });
      return enqueue(profileId, () =>
        closed ? Promise.resolve({ kind: 'superseded' as const }) : runInWorker<ScoringOutcome>({ ...jobBase, profileId, kind: 'score', codes }),
      );
    },
    isProcessing: (profileId) => processing.has(profileId),
    async close() {
      closed = true;
      await Promise.allSettled([...tails.values()]);
    },
  };
}

function runInWorker<T extends { kind: string }>(job: WorkerJob): Promise<T | { kind: 'failed'; reason: string }> {
  return new Promise((resolve) => {
    // Bounded heap: a pathological file fails its own job instead of the whole service.
    const worker = new Worker(WORKER_URL, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 768 } });
    let settled = false;
    const finish = (outcome: T | { kind: 'failed'; reason: string }) => {
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
    worker.once('message', (outcome: T) => finish(outcome));
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
