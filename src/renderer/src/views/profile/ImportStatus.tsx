/**
 * Where the profile's DNA file stands, above everything else: the file being imported or
 * read, a file that could not be read (the service's sentence), a transfer that failed, or
 * no file yet.
 */
import type { GenotypeMetadata, Profile } from '../../../../shared/api.js';
import { AlertIcon, XIcon } from '../../components/icons.js';
import { JobProgress } from '../../components/JobProgress.js';
import { stageText } from '../../components/JobTray.js';
import { profileName } from '../../lib/format.js';
import { useJobs, type Job } from '../../state/jobs.js';
import { hasFile, hasUsableGenotype, isBusy, useFailureNotices, type GenotypeInfo } from '../../state/profiles.js';
import { DropCard } from '../HomeView.js';

interface Props {
  profile: Profile;
  genotype: GenotypeMetadata | undefined;
  /** The profile's latest file job in this window, if any. */
  job: Job | undefined;
  onReplace: () => void;
}

export function ImportStatus({ profile, genotype, job, onReplace }: Props) {
  const dismissed = useFailureNotices((s) => s.dismissed[profile.id]);
  const usable = hasUsableGenotype(genotype);
  const activeJob =
    job && (job.stage === 'creating' || job.stage === 'uploading' || job.stage === 'processing') ? job : null;
  const failed =
    hasFile(genotype) &&
    genotype.metadata.status === 'failed' &&
    dismissed !== genotype.updated_at &&
    !(job && job.stage !== 'done' && job.stage !== 'failed');
  return (
    <>
      {activeJob ? (
        <ActiveImport job={activeJob} replacing={activeJob.mode === 'replace' && usable} />
      ) : !job && isBusy(genotype) ? (
        <ReadingFile />
      ) : null}
      {failed ? (
        <UnreadableFile profileId={profile.id} genotype={genotype} usable={usable} onReplace={onReplace} />
      ) : null}
      {job?.stage === 'failed' && job.failure === 'transfer' && job.error && !hasFile(genotype) ? (
        <TransferFailed job={job} />
      ) : null}
      {genotype && !hasFile(genotype) && !activeJob ? (
        <DropCard title={`Add ${profileName(profile)}’s DNA raw-data file`} compact profileId={profile.id} />
      ) : null}
    </>
  );
}

/** The page's own progress for a file of this window: the job card. */
function ActiveImport({ job, replacing }: { job: Job; replacing: boolean }) {
  return (
    <section className="card job-card" aria-live="polite" data-testid="job-card">
      <div className="job-card-text">
        <strong>{replacing ? `Replacing the DNA file with ${job.file.name}` : `Analyzing ${job.file.name}`}</strong>
        <span className="muted">{stageText(job)}</span>
      </div>
      <JobProgress job={job} large />
      <p className="muted small">
        {job.stage === 'processing'
          ? 'Reading hundreds of thousands of markers takes a few seconds to a minute.'
          : 'The file is copied into Traitscope’s data folder on this computer. Nothing is sent over the internet.'}
      </p>
    </section>
  );
}

/** A file being read that this window did not send (another window, a tool, before a restart). */
function ReadingFile() {
  return (
    <section className="card job-card" aria-live="polite">
      <div className="job-card-text">
        <strong>Reading the DNA file…</strong>
        <span className="muted">Results appear here when it is done.</span>
      </div>
      <div className="progress progress-large is-indeterminate" role="progressbar" aria-label="Processing">
        <span className="progress-bar" />
      </div>
    </section>
  );
}

function UnreadableFile({
  profileId,
  genotype,
  usable,
  onReplace,
}: {
  profileId: string;
  genotype: GenotypeInfo;
  usable: boolean;
  onReplace: () => void;
}) {
  return (
    <div className="banner banner-error" role="alert" data-testid="failure-banner">
      <AlertIcon size={18} />
      <div>
        <strong>{usable ? 'The new DNA file could not be read.' : 'This DNA file could not be read.'}</strong>
        <p>{genotype.metadata.error || 'The file is not in a DNA raw-data format Traitscope knows.'}</p>
        <p className="muted small">
          {usable
            ? 'Nothing was lost: the results below are still from the previous file.'
            : 'Check that it is the raw-data download from your DNA testing service (not a PDF or health report), then try again.'}
        </p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button button-small" onClick={onReplace}>
          Choose another file
        </button>
        <button
          type="button"
          className="icon-button small"
          aria-label="Dismiss"
          onClick={() => useFailureNotices.getState().dismiss(profileId)}
        >
          <XIcon size={14} />
        </button>
      </div>
    </div>
  );
}

function TransferFailed({ job }: { job: Job }) {
  return (
    <div className="banner banner-error" role="alert">
      <AlertIcon size={18} />
      <div>
        <strong>{job.file.name} could not be uploaded.</strong>
        <p>{job.error}</p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button button-small" onClick={() => useJobs.getState().retry(job.id)}>
          Try again
        </button>
      </div>
    </div>
  );
}
