/**
 * Progress of every dropped file, bottom right. Once every file is done it folds to a small
 * pill; while open, the page keeps focused content scrolled clear of it.
 */
import { useEffect, useRef, useState } from 'react';
import { pickFiles } from '../lib/file-picker.js';
import { formatBytes } from '../../../shared/format-bytes.js';
import { hasEnded, offerFileTo, useJobs, type Job } from '../state/jobs.js';
import { navigate, useRouter } from '../state/router.js';
import { AlertIcon, CheckIcon, FileIcon, XIcon } from './icons.js';
import { JobProgress } from './JobProgress.js';

export function stageText(job: Job): string {
  switch (job.stage) {
    case 'checking':
      return 'Checking the file…';
    case 'duplicate':
      return `Already imported as ${job.duplicateOf?.name ?? 'another profile'}`;
    case 'same-name':
      return `${job.sameNameAs?.name ?? 'A profile of this name'} already has a profile`;
    case 'creating':
      return 'Creating profile…';
    case 'uploading':
      return `Importing · ${Math.round(job.progress * 100)}%`;
    case 'processing':
      return 'Reading DNA and computing results…';
    case 'scoring':
      return 'Computing results…';
    case 'done':
      return job.results === 1 ? '1 result ready' : `${job.results} results ready`;
    case 'failed':
      return job.removedProfile ? 'Could not be read: no profile was created' : 'Could not be analyzed';
    case 'skipped':
      return `Not imported: it is the index of ${job.indexOf ?? 'another file'} and holds no genotypes`;
  }
}

/** The folded tray: every job ended, imported or (an index dropped beside its file) left out. */
function pillText(jobs: Job[]): string {
  const imported = jobs.filter((j) => j.stage === 'done').length;
  const skipped = jobs.length - imported;
  const files = imported === 1 ? '1 file imported' : `${imported} files imported`;
  return skipped === 0 ? files : `${files} · ${skipped} index ${skipped === 1 ? 'file' : 'files'} left out`;
}

function inProgress(job: Job): boolean {
  return job.stage === 'creating' || job.stage === 'uploading' || job.stage === 'processing' || job.stage === 'scoring';
}

/** A new file for the profile the unreadable one was meant for (replacing asks first, as everywhere). */
async function chooseAnother(job: Job): Promise<void> {
  const [file] = await pickFiles({ multiple: false });
  if (!file) return;
  if (!job.profileId) {
    useJobs.getState().dismiss(job.id);
    useJobs.getState().analyzeFiles([file]);
    return;
  }
  useJobs.getState().dismiss(job.id);
  offerFileTo(job.profileId, file);
}

export function JobTray() {
  const jobs = useJobs((s) => s.jobs);
  const route = useRouter((s) => s.route);
  const { dismiss, retry, clearFinished, importAnyway, replaceSameName } = useJobs.getState();
  const ref = useRef<HTMLElement>(null);
  const finished = jobs.filter(hasEnded).length;
  const attention = jobs.some((j) => j.stage === 'failed' || j.stage === 'duplicate' || j.stage === 'same-name');
  const allDone = jobs.length > 0 && finished === jobs.length && !attention;
  const [expanded, setExpanded] = useState(false);
  const open = !allDone || expanded;

  useEffect(() => {
    if (allDone) setExpanded(false);
  }, [allDone]);

  // The main area keeps its end and focused content clear of the tray: the tray's height
  // becomes its bottom padding. Read by a ResizeObserver (after layout, never forcing one) and
  // set on that one element: measuring in this effect laid out a page of new results twice,
  // and a custom property on the root made the style of the whole page be recalculated.
  useEffect(() => {
    const main = document.getElementById('main-content');
    if (!main) return;
    const reserve = (px: number) => {
      const value = px > 0 ? `${px}px` : '';
      if (main.style.paddingBottom === value) return;
      main.style.paddingBottom = value;
      main.style.scrollPaddingBottom = value;
    };
    const el = ref.current;
    if (!el) return reserve(0);
    const observer = new ResizeObserver(([entry]) =>
      reserve(Math.ceil(entry.borderBoxSize[0]?.blockSize ?? el.offsetHeight) + 16),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [open, jobs.length]);

  if (jobs.length === 0) return null;

  if (!open) {
    return (
      <section className="job-tray is-pill" aria-label="File analysis" data-testid="job-tray" ref={ref}>
        <button type="button" className="job-pill" aria-expanded={false} onClick={() => setExpanded(true)}>
          <CheckIcon size={15} /> {pillText(jobs)}
        </button>
      </section>
    );
  }

  return (
    <section className="job-tray" aria-label="File analysis" data-testid="job-tray" ref={ref}>
      <header className="job-tray-header">
        <h2>Files</h2>
        <span className="job-tray-tools">
          {finished > 0 ? (
            <button type="button" className="link-button" onClick={clearFinished}>
              Clear finished
            </button>
          ) : null}
          {allDone ? (
            <button type="button" className="link-button" aria-expanded={true} onClick={() => setExpanded(false)}>
              Fold
            </button>
          ) : null}
        </span>
      </header>
      <ul aria-live="polite">
        {jobs.map((job) => (
          <li key={job.id} className={`job job-${job.stage}`}>
            <span className="job-icon" aria-hidden="true">
              {job.stage === 'done' ? (
                <CheckIcon size={16} />
              ) : job.stage === 'failed' ? (
                <AlertIcon size={16} />
              ) : (
                <FileIcon size={16} />
              )}
            </span>
            <div className="job-main">
              <div className="job-title">
                <span className="job-file" title={job.file.name}>
                  {job.file.name}
                </span>
                <span className="job-size">{formatBytes(job.file.size)}</span>
              </div>
              <div className="job-status">
                <span className={job.stage === 'failed' ? 'job-error-title' : undefined}>{stageText(job)}</span>
                {job.stage === 'failed' && job.error ? <span className="job-error">{job.error}</span> : null}
              </div>
              {/* Not while the profile's own page shows this progress: two moving bars far apart made
                  the window redraw everything between them on every frame. */}
              {inProgress(job) && !(route.name === 'profile' && route.id === job.profileId) ? (
                <JobProgress job={job} />
              ) : null}
              {job.cutLine && job.stage !== 'failed' ? (
                <span className="job-warning">The file ends mid-line: it may be cut off.</span>
              ) : null}
              <div className="job-actions">
                {job.stage === 'done' && job.profileId && !(route.name === 'profile' && route.id === job.profileId) ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => navigate({ name: 'profile', id: job.profileId! })}
                  >
                    Open {job.profileName}
                  </button>
                ) : null}
                {job.stage === 'failed' && job.failure === 'transfer' ? (
                  <button type="button" className="link-button" onClick={() => retry(job.id)}>
                    Try again
                  </button>
                ) : null}
                {job.stage === 'duplicate' && job.duplicateOf ? (
                  <>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => (dismiss(job.id), navigate({ name: 'profile', id: job.duplicateOf!.id }))}
                    >
                      Open {job.duplicateOf.name}
                    </button>
                    <button type="button" className="link-button" onClick={() => importAnyway(job.id)}>
                      Import as a new profile anyway
                    </button>
                  </>
                ) : null}
                {job.stage === 'same-name' && job.sameNameAs ? (
                  <>
                    <button type="button" className="link-button" onClick={() => replaceSameName(job.id)}>
                      Replace {job.sameNameAs.name}’s DNA file
                    </button>
                    <button type="button" className="link-button" onClick={() => importAnyway(job.id)}>
                      New profile
                    </button>
                    <button type="button" className="link-button" onClick={() => dismiss(job.id)}>
                      Cancel
                    </button>
                  </>
                ) : null}
                {job.stage === 'failed' && job.failure === 'unreadable' ? (
                  <button type="button" className="link-button" onClick={() => void chooseAnother(job)}>
                    Choose another file
                  </button>
                ) : null}
              </div>
            </div>
            <button
              type="button"
              className="icon-button small"
              aria-label={job.stage === 'uploading' ? `Cancel import of ${job.file.name}` : `Dismiss ${job.file.name}`}
              onClick={() => dismiss(job.id)}
            >
              <XIcon size={14} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
