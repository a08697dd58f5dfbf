/**
 * What the upload route tells a processing job that started with its upload (processor.ts
 * receive()): how far the file is written, and how the upload ended. Such a job is unseen
 * until its upload is recorded as the profile's file: clients then hear of it at once, as
 * if it had been queued at that moment, with everything it did so far.
 */
import type { UploadSignal } from './arriving-file.js';
import type { JobEventFields } from './job-end.js';
import type { JobProgress } from './worker-context.js';

export interface UploadFeed {
  /** Bytes on the file so far. */
  written: (bytes: number) => void;
  /** The upload is complete and recorded as the profile's file: its job may store it (and is seen from now on). */
  recorded: () => void;
  /** The upload failed or was refused: its job ends and stores nothing. */
  abandoned: () => void;
}

/** The job as the feed sees it: unseen until recorded, its progress meanwhile kept. */
export interface ArrivingJob {
  unseen: boolean;
  running: boolean;
  unseenProgress: JobProgress[];
}

export interface FeedHooks {
  /** Passes a signal to the worker running the job. */
  tell: (signal: UploadSignal) => void;
  /** The file is recorded: its parse's expected memory follows from the stored file now. */
  reestimate: () => void;
  /** Publishes a job event (only a seen job's events reach clients). */
  publish: (event: JobEventFields) => void;
}

export function uploadFeed(job: ArrivingJob, hooks: FeedHooks): UploadFeed {
  return {
    written: (bytes) => hooks.tell({ written: bytes }),
    recorded() {
      hooks.tell({ end: 'recorded' });
      hooks.reestimate();
      if (!job.unseen) return;
      job.unseen = false;
      // Ended already: its end was not announced, and a job that was never seen running has nothing to add.
      if (!job.running) return;
      hooks.publish({ state: 'queued', queue_position: 0 });
      hooks.publish({ state: 'running' });
      for (const progress of job.unseenProgress.splice(0)) hooks.publish({ state: 'running', ...progress });
    },
    abandoned: () => hooks.tell({ end: 'abandoned' }),
  };
}
