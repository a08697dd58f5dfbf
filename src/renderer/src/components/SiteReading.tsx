/**
 * How the DNA file's sites were read (the summary's `site_reading`, docs/file-formats.md
 * "Sequencing files"): only the lines it lists, a VCF of variants only whose unlisted
 * markers are read as matching the reference genome, or a gVCF's reference blocks. For a
 * VCF the person can say which it is; the file is then read again that way
 * (`?variants_only=` on processing). A gVCF states its reference blocks, so it has no choice.
 * A file read by position or as variants only also says why it keeps tens of thousands of
 * markers, not millions (shared/file-limits.ts).
 */
import { api } from '../api/client.js';
import type { GenotypeInfo } from '../state/profiles.js';
import { ReadAgainStatus, useReadAgain } from './ReadAgain.js';
import { fileLimitsOf, fileLimitsText } from '../../../shared/file-limits.js';
import { SITE_READING_FROM_TEXT, SITE_READING_TEXT } from '../../../shared/site-reading.js';
import { formatInt } from '../lib/format.js';

export function SiteReading({ profileId, metadata }: { profileId: string; metadata: GenotypeInfo['metadata'] }) {
  const { state, run } = useReadAgain(profileId);
  const reading = metadata.site_reading;
  if (!reading) return null;
  const from = metadata.site_reading_from;
  const limits = fileLimitsOf(metadata);
  const canChoose = metadata.format === 'vcf' && reading !== 'reference_blocks';
  const readAgain = () => run(() => api.processAgain(profileId, reading !== 'variants_only'));

  return (
    <div className="site-reading" data-testid="site-reading">
      <h3>How the file’s sites were read</h3>
      <p className="small" data-reading={reading}>
        {SITE_READING_TEXT[reading]}
        {from ? ` (${SITE_READING_FROM_TEXT[from]})` : ''}.
      </p>
      {limits && typeof metadata.snp_count === 'number' ? (
        <p className="small" data-testid="file-limits">
          {formatInt(metadata.snp_count)} markers were kept: Traitscope reads such a file at the markers its results
          use, not at every site it lists. {fileLimitsText(limits)}
        </p>
      ) : null}
      {canChoose ? (
        <p className="small">
          <button type="button" className="button button-small" disabled={state.busy} onClick={() => void readAgain()}>
            {reading === 'variants_only'
              ? 'My file lists every site: read only its lines'
              : 'My file lists only variants: read the rest as reference'}
          </button>
        </p>
      ) : null}
      <ReadAgainStatus state={state} />
    </div>
  );
}
