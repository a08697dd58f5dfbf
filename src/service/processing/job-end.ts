/**
 * What the end of a job tells clients (processor.ts): the job's last event, and whether the
 * profile's stored results changed (a `traits` event). A processed file also starts the
 * background scoring of every other trait; the processor does that on `processed`.
 */
import type { JobEvent, JobKind } from './job-events.js';
import { TaskFailedError } from './pool.js';
import type { JobFailed, TaskOutcome } from './tasks.js';

/** A job event's own fields (the processor adds the job's id, kind and profile). */
export type JobEventFields = Omit<JobEvent, 'job_id' | 'kind' | 'profile_id'>;

export interface JobEnd {
  /** The job's last event; null for jobs whose end is not announced (imports). */
  event: JobEventFields | null;
  traitsChanged: boolean;
}

export function jobEnd(kind: JobKind | 'import', outcome: TaskOutcome): JobEnd {
  if (kind === 'import') return { event: null, traitsChanged: false };
  const ended: JobEventFields =
    outcome.kind === 'failed' ? { state: 'failed', detail: outcome.reason } : { state: 'superseded' };
  if (kind === 'processing' && outcome.kind === 'processed')
    return { event: { state: 'done', snp_count: outcome.snpCount }, traitsChanged: true };
  if (kind === 'scoring' && outcome.kind === 'scored')
    return {
      event: { state: 'done', computed: outcome.computed, unavailable: outcome.unavailable },
      traitsChanged: outcome.computed + outcome.unavailable + (outcome.removed ?? 0) > 0,
    };
  return { event: ended, traitsChanged: false };
}

/** A job whose worker crashed, timed out or threw: the pool's sentence, or one that asks for a report. */
export function jobFailure(err: Error): JobFailed {
  return {
    kind: 'failed',
    reason:
      err instanceof TaskFailedError
        ? err.message
        : `Traitscope could not finish this job (${err.message}). Please report this.`,
  };
}
