/** A progress bar: determinate while uploading, indeterminate while the service reads the file and scores it. */
import type { Job } from '../state/jobs.js';

export function JobProgress({ job, large }: { job: Job; large?: boolean }) {
  const determinate = job.stage === 'uploading';
  const label =
    job.stage === 'uploading'
      ? `Importing ${job.file.name}`
      : job.stage === 'scoring'
        ? `Computing results of ${job.file.name}`
        : `Reading ${job.file.name}`;
  return (
    <div
      className={`progress ${determinate ? '' : 'is-indeterminate'} ${large ? 'progress-large' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={determinate ? 0 : undefined}
      aria-valuemax={determinate ? 100 : undefined}
      aria-valuenow={determinate ? Math.round(job.progress * 100) : undefined}
    >
      <span
        className="progress-bar"
        style={determinate ? { width: `${Math.max(2, job.progress * 100)}%` } : undefined}
      />
    </div>
  );
}
