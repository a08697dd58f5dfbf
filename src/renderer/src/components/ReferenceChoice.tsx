/**
 * Which reference population results are compared with: a prominent notice when it was only
 * assumed, and the dialog to choose one super-population, a mixture, or the DNA's estimate.
 */
import { useState } from 'react';
import type { Profile } from '../../../shared/api.js';
import { formatInt, formatPercent, POPULATION_NAMES } from '../lib/format.js';
import { POPULATIONS, type Population } from '../../../shared/populations.js';
import { ETHNICITY_OF, mixtureText, referenceName, type Mixture, type Reference } from '../lib/reference.js';
import { saveProfileChange, type ProfileChange } from '../state/profile-changes.js';
import { FormDialog } from './FormDialog.js';
import { RadioOption } from './RadioChoices.js';
import { AlertIcon } from './icons.js';

/** The DNA's ancestry estimate, as the genotype summary carries it. */
export interface AncestryEstimate {
  best: Population | null;
  proportions: Partial<Mixture>;
  markers_used?: number;
  confidence?: number;
  admixed?: boolean;
  sufficient?: boolean;
  reason?: string | null;
}

export function AssumedReferenceBanner({ reference, onChoose }: { reference: Reference; onChoose: () => void }) {
  return (
    <div className="banner banner-warn" role="region" aria-labelledby="assumed-title" data-testid="assumed-banner">
      <AlertIcon size={20} />
      <div>
        <strong id="assumed-title">
          Your results are compared with the {referenceName(reference)} reference, but that was only assumed.
        </strong>
        <p>
          {reference.reason ||
            'Your DNA file holds too little ancestry evidence to estimate which reference population fits you.'}
        </p>
        <p>
          Percentiles depend on the reference. Choose the population (or mixture) that fits your ancestry, or accept the
          estimate from your DNA.
        </p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button button-primary" onClick={onChoose}>
          Choose reference…
        </button>
      </div>
    </div>
  );
}

type Choice = { kind: 'estimate' } | { kind: 'single'; population: Population } | { kind: 'mixture' };

function estimateChange(estimate: AncestryEstimate): ProfileChange {
  const props = Object.entries(estimate.proportions).filter(([, v]) => (v ?? 0) > 0);
  const dominant = estimate.best && (estimate.proportions[estimate.best] ?? 0) >= 0.9;
  if (dominant || props.length <= 1)
    return { ethnicity: ETHNICITY_OF[estimate.best ?? (props[0]?.[0] as Population)], reference_mixture: null };
  return {
    ethnicity: 0,
    reference_mixture: Object.fromEntries(POPULATIONS.map((p) => [p, estimate.proportions[p] ?? 0])) as Mixture,
  };
}

export function ReferenceDialog({
  profile,
  estimate,
  current,
  onClose,
}: {
  profile: Profile;
  estimate: AncestryEstimate | null;
  current?: Reference;
  onClose: () => void;
}) {
  const mixtureSupported = 'reference_mixture' in profile;
  const hasEstimate = !!estimate && !!estimate.best;
  // Nothing the person did not choose is pre-selected: not an estimate from a handful of
  // markers, not an assumed reference, not a mixture of made-up shares.
  const saved = (profile as { reference_mixture?: Partial<Mixture> | null }).reference_mixture ?? null;
  const [choice, setChoice] = useState<Choice | null>(() => {
    if (hasEstimate && estimate.sufficient !== false && current?.source !== 'ethnicity') return { kind: 'estimate' };
    if (current?.source !== 'ethnicity') return null;
    if (current.population === 'MIXED') return saved ? { kind: 'mixture' } : null;
    return { kind: 'single', population: current.population };
  });
  const [mix, setMix] = useState<Record<Population, string>>(
    () =>
      Object.fromEntries(
        POPULATIONS.map((p) => [p, saved && typeof saved[p] === 'number' ? String(Math.round(100 * saved[p])) : '']),
      ) as Record<Population, string>,
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The shares as numbers, read once for the total shown and the mixture saved.
  const shares = Object.fromEntries(POPULATIONS.map((p) => [p, Number(mix[p]) || 0])) as Mixture;
  const total = POPULATIONS.reduce((sum, p) => sum + shares[p], 0);

  const submit = async () => {
    let change: ProfileChange;
    if (!choice) return setError('Choose a reference population, a mixture or the estimate from your DNA.');
    if (choice.kind === 'estimate' && estimate) change = estimateChange(estimate);
    else if (choice.kind === 'single')
      change = { ethnicity: ETHNICITY_OF[choice.population], ...(mixtureSupported ? { reference_mixture: null } : {}) };
    else {
      const bad = POPULATIONS.find((p) => !/^\d{1,3}$/.test(mix[p].trim() || '0') || shares[p] > 100);
      if (bad) return setError(`${POPULATION_NAMES[bad]} must be a whole number from 0 to 100.`);
      if (total === 0) return setError('Enter the share of each population in the mixture; they must add up to 100 %.');
      if (total !== 100) return setError(`The shares add up to ${total} %; they must add up to 100 %.`);
      change = {
        ethnicity: 0,
        reference_mixture: Object.fromEntries(POPULATIONS.map((p) => [p, shares[p] / 100])) as Mixture,
      };
    }
    setBusy(true);
    setError(null);
    try {
      await saveProfileChange(profile, change);
      onClose();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="Choose the reference population"
      description={
        <p>
          Each result is a percentile among people of the reference population. Choose the one that fits your ancestry
          best; every result is recalculated.
        </p>
      }
      onClose={onClose}
      busy={busy}
      testId="reference-dialog"
      formId="reference-form"
      formClassName="reference-form"
      submitLabel={busy ? 'Recalculating…' : 'Use this reference'}
      onSubmit={() => void submit()}
      below={
        error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null
      }
    >
      <fieldset className="choice-list">
        <legend className="field-label">Reference</legend>
        {hasEstimate && estimate ? (
          <RadioOption
            name="reference"
            checked={choice?.kind === 'estimate'}
            onSelect={() => setChoice({ kind: 'estimate' })}
            title={<strong>The estimate from your DNA: {mixtureText(estimate.proportions)}</strong>}
            hint={
              <>
                {estimate.markers_used !== undefined
                  ? `From ${formatInt(estimate.markers_used)} ancestry markers`
                  : 'From your DNA file'}
                {typeof estimate.confidence === 'number' ? `, confidence ${formatPercent(estimate.confidence)}` : ''}
                {estimate.sufficient === false
                  ? '. Too little evidence to rely on by itself: accept it only if it matches what you know.'
                  : '.'}
              </>
            }
          />
        ) : null}
        {POPULATIONS.map((p) => (
          <RadioOption
            key={p}
            name="reference"
            checked={choice?.kind === 'single' && choice.population === p}
            onSelect={() => setChoice({ kind: 'single', population: p })}
            title={
              <strong>
                {POPULATION_NAMES[p]} ({p})
              </strong>
            }
          />
        ))}
        {mixtureSupported ? (
          <RadioOption
            name="reference"
            checked={choice?.kind === 'mixture'}
            onSelect={() => setChoice({ kind: 'mixture' })}
            title={<strong>A mixture</strong>}
            hint="For mixed ancestry: the reference is built from the shares you give."
          />
        ) : null}
      </fieldset>
      {choice?.kind === 'mixture' ? (
        <fieldset className="mixture-grid">
          <legend className="field-label">Shares (must add up to 100 %)</legend>
          {POPULATIONS.map((p) => (
            <label key={p} className="field">
              <span className="field-label">{POPULATION_NAMES[p]} %</span>
              <input
                className="input"
                inputMode="numeric"
                value={mix[p]}
                onChange={(e) => setMix({ ...mix, [p]: e.target.value })}
              />
            </label>
          ))}
          <p className={`small ${total === 100 ? 'muted' : 'warn-text'}`} aria-live="polite">
            Total: {total} %
          </p>
        </fieldset>
      ) : null}
    </FormDialog>
  );
}
