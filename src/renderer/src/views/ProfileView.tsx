/** One person: who they are, their DNA file, the file being analyzed, and their traits. */
import { useEffect, useMemo, useState } from 'react';
import { Avatar } from '../components/Avatar.js';
import { GenotypeCard } from '../components/GenotypeCard.js';
import { AlertIcon, FileIcon, PencilIcon, ReportIcon, Spinner, TrashIcon, XIcon } from '../components/icons.js';
import { JobProgress } from '../components/JobProgress.js';
import { stageText } from '../components/JobTray.js';
import { Findings } from '../components/Findings.js';
import { Pharmacogenes } from '../components/Pharmacogenes.js';
import { AssumedReferenceBanner, ReferenceDialog, type AncestryEstimate } from '../components/ReferenceChoice.js';
import { SensitiveQuestion } from '../components/SensitiveQuestion.js';
import { cantTellItems, notableItems, Summary } from '../components/Summary.js';
import { TraitBrowser } from '../components/TraitBrowser.js';
import { commonReference, type Reference } from '../lib/reference.js';
import { isSensitive } from '../lib/results.js';
import { useSensitiveChoice } from '../state/preferences.js';
import { useProfileChanges } from '../state/profile-changes.js';
import { useDocumentTitle } from '../lib/document-title.js';
import { markStepPainted } from '../lib/timeline.js';
import { pickFiles } from '../lib/file-picker.js';
import { formatInt, profileFacts, profileName } from '../lib/format.js';
import { openDialog } from '../state/dialogs.js';
import { latestJobFor, offerFileTo, useJobs } from '../state/jobs.js';
import { hasFile, hasUsableGenotype, isBusy, useProfile, useProfiles } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { useProfileRows, useTraits } from '../state/traits.js';
import { DropCard } from './HomeView.js';
import { NotFound } from './NotFound.js';

export function ProfileView({ id }: { id: string }) {
  const profile = useProfile(id);
  const loaded = useProfiles((s) => s.loaded);
  const genotype = useProfiles((s) => s.genotypes[id]);
  const dismissed = useProfiles((s) => s.dismissedFailures[id]);
  const job = useJobs((s) => latestJobFor(s.jobs, id));
  const catalog = useTraits((s) => s.catalog);
  const catalogError = useTraits((s) => s.catalogError);
  const entry = useTraits((s) => s.byProfile[id]);
  const scoring = useTraits((s) => s.computing[id]);
  const usable = hasUsableGenotype(genotype);
  const busy = isBusy(genotype) || job?.stage === 'uploading' || job?.stage === 'creating';
  const processedAt = hasFile(genotype) ? `${genotype.updated_at}/${genotype.metadata.status}` : '';
  const choice = useSensitiveChoice(id);
  const hideSensitive = choice !== 'show';
  const notice = useProfileChanges((s) => s.notices[id]);
  const [choosingReference, setChoosingReference] = useState(false);
  useDocumentTitle(profile ? profileName(profile) : 'Profile');

  const rows = useProfileRows(id);
  const notable = useMemo(() => notableItems(rows, hideSensitive), [rows, hideSensitive]);
  const hiddenSensitive = useMemo(
    () => (hideSensitive ? rows.filter((r) => isSensitive(r.main.trait)).length : 0),
    [rows, hideSensitive],
  );
  const metadata = hasFile(genotype) ? (genotype.metadata as Record<string, unknown>) : {};
  const reference =
    (metadata.reference as Reference | undefined) ?? commonReference(Object.values(entry?.results ?? {}));
  const estimate = (metadata.ancestry as AncestryEstimate | null | undefined) ?? reference?.ancestry ?? null;
  const hasResults = rows.some((r) => r.main.result);

  // For DevTools and the UI bench: when a list of results has been drawn.
  useEffect(() => {
    if (entry?.loaded) markStepPainted('results-shown', id);
  }, [id, entry?.loaded, entry?.results]);

  // Traits load whenever the genotype in use changes (first visit, new file processed).
  useEffect(() => {
    if (usable && !busy) void useTraits.getState().loadProfileTraits(id);
  }, [id, usable, busy, processedAt]);

  if (!profile)
    return loaded ? (
      <NotFound what="profile" />
    ) : (
      <main className="page loading-page">
        <Spinner size={22} label="Loading" />
      </main>
    );

  const name = profileName(profile);
  const failed =
    hasFile(genotype) &&
    genotype.metadata.status === 'failed' &&
    dismissed !== genotype.updated_at &&
    !(job && job.stage !== 'done' && job.stage !== 'failed');
  const activeJob =
    job && (job.stage === 'creating' || job.stage === 'uploading' || job.stage === 'processing') ? job : null;

  const replace = async () => {
    const [file] = await pickFiles({ multiple: false });
    if (!file) return;
    useProfiles.getState().dismissFailure(id);
    // Asks first when the profile has readable DNA data or the file's name names someone else.
    offerFileTo(id, file);
  };

  return (
    <main className="page profile-page" aria-labelledby="profile-title" data-testid="profile-view">
      <header className="page-header">
        <div className="page-title">
          <Avatar profile={profile} size={48} />
          <div>
            <h1 id="profile-title">{name}</h1>
            <p className="muted">
              {profileFacts(profile) || 'Add sex and ethnicity with Edit for better comparisons.'}
            </p>
          </div>
        </div>
        <div className="page-actions">
          {hasFile(genotype) ? (
            <button type="button" className="button" onClick={() => void replace()} disabled={busy}>
              <FileIcon size={16} /> Replace DNA file
            </button>
          ) : null}
          <button type="button" className="button" onClick={() => navigate({ name: 'report', id })} disabled={!usable}>
            <ReportIcon size={16} /> Report
          </button>
          <button type="button" className="button" onClick={() => openDialog({ kind: 'edit-profile', profile })}>
            <PencilIcon size={16} /> Edit
          </button>
          <button
            type="button"
            className="icon-button bordered danger"
            aria-label={`Delete ${name}`}
            title="Delete profile"
            onClick={() => openDialog({ kind: 'delete-profile', profile })}
          >
            <TrashIcon size={17} />
          </button>
        </div>
      </header>

      {activeJob ? (
        <section className="card job-card" aria-live="polite" data-testid="job-card">
          <div className="job-card-text">
            <strong>
              {activeJob.mode === 'replace' && usable
                ? `Replacing the DNA file with ${activeJob.file.name}`
                : `Analyzing ${activeJob.file.name}`}
            </strong>
            <span className="muted">{stageText(activeJob)}</span>
          </div>
          <JobProgress job={activeJob} large />
          <p className="muted small">
            {activeJob.stage === 'processing'
              ? 'Reading hundreds of thousands of markers takes a few seconds to a minute.'
              : 'The file is copied into Traitscope’s data folder on this computer. Nothing is sent over the internet.'}
          </p>
        </section>
      ) : !job && isBusy(genotype) ? (
        <section className="card job-card" aria-live="polite">
          <div className="job-card-text">
            <strong>Reading the DNA file…</strong>
            <span className="muted">Results appear here when it is done.</span>
          </div>
          <div className="progress progress-large is-indeterminate" role="progressbar" aria-label="Processing">
            <span className="progress-bar" />
          </div>
        </section>
      ) : null}

      {failed && hasFile(genotype) ? (
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
            <button type="button" className="button button-small" onClick={() => void replace()}>
              Choose another file
            </button>
            <button
              type="button"
              className="icon-button small"
              aria-label="Dismiss"
              onClick={() => useProfiles.getState().dismissFailure(id)}
            >
              <XIcon size={14} />
            </button>
          </div>
        </div>
      ) : null}

      {job?.stage === 'failed' && job.failure === 'transfer' && job.error && !hasFile(genotype) ? (
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
      ) : null}

      {genotype && !hasFile(genotype) && !activeJob ? (
        <DropCard title={`Add ${name}’s DNA raw-data file`} compact profileId={id} />
      ) : null}

      {usable && reference?.source === 'assumed' ? (
        <AssumedReferenceBanner reference={reference} onChoose={() => setChoosingReference(true)} />
      ) : null}
      {choosingReference ? (
        <ReferenceDialog
          profile={profile}
          estimate={estimate}
          current={reference}
          onClose={() => setChoosingReference(false)}
        />
      ) : null}

      {notice ? (
        <div className="banner banner-info" role="status" data-testid="recalculated">
          <div>
            <strong>{notice.message}</strong>
          </div>
          <div className="banner-actions">
            <button
              type="button"
              className="icon-button small"
              aria-label="Dismiss"
              onClick={() => useProfileChanges.getState().dismiss(id)}
            >
              <XIcon size={14} />
            </button>
          </div>
        </div>
      ) : null}

      {usable && hasFile(genotype) ? (
        <GenotypeCard
          profile={profile}
          genotype={genotype}
          reference={reference}
          compact={hasResults}
          cutLine={job?.cutLine}
        />
      ) : null}

      {usable && !busy && hasResults && !choice ? <SensitiveQuestion profileId={id} name={name} /> : null}

      {/* What a single variant says comes first (findings, then drug–gene results when the
          person opted in: the medication card goes here), then the ranked results. */}
      {usable && !busy && hasResults ? <Findings profileId={id} showClinical={choice === 'show'} /> : null}
      {usable && !busy && hasResults ? <Pharmacogenes profileId={id} name={name} show={choice === 'show'} /> : null}

      {usable && !busy && catalog && entry?.loaded && hasResults ? (
        <Summary
          profileId={id}
          items={notable}
          cantTell={cantTellItems(rows, {
            sexLabel: profile.gender === 1 ? 'Male' : profile.gender === 2 ? 'Female' : null,
            assumed: reference?.source === 'assumed',
            hiddenSensitive,
          })}
        />
      ) : null}

      {usable && !busy ? (
        catalogError ? (
          <p className="inline-error" role="alert">
            The trait catalog could not be loaded: {catalogError}
          </p>
        ) : entry?.error ? (
          <div className="banner banner-error" role="alert">
            <AlertIcon size={18} />
            <div>
              <strong>The traits could not be loaded.</strong>
              <p>{entry.error}</p>
            </div>
            <div className="banner-actions">
              <button
                type="button"
                className="button button-small"
                onClick={() => void useTraits.getState().loadProfileTraits(id)}
              >
                Try again
              </button>
            </div>
          </div>
        ) : catalog && entry?.loaded ? (
          <TraitBrowser profileId={id} rows={rows} hideSensitive={hideSensitive} />
        ) : (
          <div className="card loading-card" role="status">
            <Spinner size={18} />{' '}
            <span className="muted">
              {scoring?.total
                ? `Computing your results: ${formatInt(scoring.done)} of ${formatInt(scoring.total)} traits…`
                : scoring
                  ? 'Computing your results…'
                  : 'Loading traits…'}
            </span>
          </div>
        )
      ) : null}
    </main>
  );
}
