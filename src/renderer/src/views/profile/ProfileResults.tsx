/**
 * The profile's results, once its file is read: the question about disease results, then
 * what single variants say (findings, and the medication card when the person opted in),
 * the notable results with what the file cannot tell, and every result.
 */
import { useMemo } from 'react';
import type { Profile } from '../../../../shared/api.js';
import { Findings } from '../../components/Findings.js';
import { AlertIcon, Spinner } from '../../components/icons.js';
import { Pharmacogenes } from '../../components/Pharmacogenes.js';
import { SensitiveQuestion } from '../../components/SensitiveQuestion.js';
import { cantTellItems, notableItems, Summary } from '../../components/Summary.js';
import { TraitBrowser } from '../../components/TraitBrowser.js';
import { formatInt, profileName } from '../../lib/format.js';
import type { Reference } from '../../lib/reference.js';
import { isSensitive } from '../../lib/results.js';
import { useSensitiveChoice } from '../../state/preferences.js';
import { refreshResults, useCatalog, useProfileRows, useProfileTraits, useScoring } from '../../state/traits.js';

export function ProfileResults({ profile, reference }: { profile: Profile; reference: Reference | undefined }) {
  const id = profile.id;
  const name = profileName(profile);
  const choice = useSensitiveChoice(id);
  const hideSensitive = choice !== 'show';
  const { catalog, error: catalogError } = useCatalog();
  const { data: lists, error } = useProfileTraits(id);
  const rows = useProfileRows(id);
  const notable = useMemo(() => notableItems(rows, hideSensitive), [rows, hideSensitive]);
  const hiddenSensitive = useMemo(
    () => (hideSensitive ? rows.filter((r) => isSensitive(r.main.trait)).length : 0),
    [rows, hideSensitive],
  );
  const hasResults = rows.some((r) => r.main.result);

  if (catalogError)
    return (
      <p className="inline-error" role="alert">
        The trait catalog could not be loaded: {catalogError}
      </p>
    );
  if (error) return <ListError message={error} onRetry={() => void refreshResults(id).catch(() => undefined)} />;
  if (!catalog || !lists) return <ResultsWaiting profileId={id} />;
  return (
    <>
      {hasResults && !choice ? <SensitiveQuestion profileId={id} name={name} /> : null}
      {/* What a single variant says comes first (findings, then drug–gene results when the
          person opted in: the medication card goes here), then the ranked results. */}
      {hasResults ? <Findings profileId={id} showClinical={choice === 'show'} /> : null}
      {hasResults ? <Pharmacogenes profileId={id} name={name} show={choice === 'show'} /> : null}
      {hasResults ? (
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
      <TraitBrowser profileId={id} rows={rows} hideSensitive={hideSensitive} />
    </>
  );
}

/** Before the lists are read: the service is still scoring every trait, or the lists are on their way. */
function ResultsWaiting({ profileId }: { profileId: string }) {
  const scoring = useScoring((s) => s.progress[profileId]);
  return (
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
  );
}

function ListError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="banner banner-error" role="alert">
      <AlertIcon size={18} />
      <div>
        <strong>The traits could not be loaded.</strong>
        <p>{message}</p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button button-small" onClick={onRetry}>
          Try again
        </button>
      </div>
    </div>
  );
}
