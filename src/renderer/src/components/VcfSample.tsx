/**
 * A VCF of several people (a family's, a trio's): which sample is this profile's. The first
 * is read until the person chooses another; the file is then read again at that sample
 * (`?sample=` on processing), and the choice holds until a new file is uploaded.
 */
import { useState } from 'react';
import { api } from '../api/client.js';
import type { GenotypeInfo } from '../state/profiles.js';
import { ReadAgainStatus, useReadAgain } from './ReadAgain.js';

export function VcfSample({ profileId, metadata }: { profileId: string; metadata: GenotypeInfo['metadata'] }) {
  const samples = metadata.vcf_samples ?? [];
  const current = metadata.vcf_sample ?? samples[0];
  const [picked, setChosen] = useState(current);
  // A name picked for an earlier file of the profile is not one of this file's.
  const chosen = picked !== undefined && samples.includes(picked) ? picked : current;
  const { state, run } = useReadAgain(profileId);
  if (samples.length < 2) return null;
  const readAgain = () => run(() => api.readSample(profileId, chosen ?? samples[0]));
  return (
    <div className="vcf-sample" data-testid="vcf-sample">
      <h3>Whose genotypes in the file</h3>
      <p className="small">
        This file holds the genotypes of {samples.length} people. The results are those of “{current}”; if this profile
        is someone else’s, choose their sample and the file is read again.
      </p>
      <p className="small">
        <label>
          Sample{' '}
          <select value={chosen} disabled={state.busy} onChange={(e) => setChosen(e.target.value)}>
            {samples.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>{' '}
        <button
          type="button"
          className="button button-small"
          disabled={state.busy || chosen === current}
          onClick={() => void readAgain()}
        >
          Read this sample
        </button>
      </p>
      <ReadAgainStatus state={state} />
    </div>
  );
}
