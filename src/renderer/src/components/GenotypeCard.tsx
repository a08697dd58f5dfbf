/**
 * The DNA file: where it came from, how complete it is, the sex results use (and whether
 * the DNA agrees), the ancestry estimate, and warnings about the file. Once results exist it
 * folds to one line, so the answers come first.
 */
import { useState } from 'react';
import type { Profile } from '../../../shared/api.js';
import { formatBytes } from '../../../shared/format-bytes.js';
import { formatDate, formatInt, formatPercent, populationName, vendorName } from '../lib/format.js';
import { comparedWith, mixtureText, type Reference } from '../lib/reference.js';
import type { GenotypeInfo } from '../state/profiles.js';
import { fileWarnings } from '../lib/file-warnings.js';
import { AlertIcon, ChevronDown, ChevronRight } from './icons.js';
import { SiteReading } from './SiteReading.js';
import { VcfSample } from './VcfSample.js';

const BUILD_NAMES: Record<string, string> = { '36': 'GRCh36 (hg18)', '37': 'GRCh37 (hg19)', '38': 'GRCh38 (hg38)' };

export function buildName(build: unknown): string {
  if (build === null || build === undefined || build === '') return 'Unknown';
  const text = typeof build === 'string' || typeof build === 'number' ? String(build) : JSON.stringify(build);
  const key = text.replace(/^(grch|hg|build\s*)/i, '');
  if (key === '19') return BUILD_NAMES['37'];
  return BUILD_NAMES[key] ?? text;
}

const SEX_WORD: Record<string, string> = { female: 'Female', male: 'Male' };

export interface SexFacts {
  /** The sex results use, or null when unknown. */
  value: 'male' | 'female' | null;
  source: 'profile' | 'dna' | null;
  dna: 'male' | 'female' | null;
  mismatch: boolean;
}

/** The service's `metadata.sex` when present, else worked out from the profile and the DNA the same way. */
export function sexFacts(profile: Profile, metadata: Record<string, unknown>): SexFacts {
  const given = metadata.sex as Partial<SexFacts> | undefined;
  const dna = (given?.dna ?? metadata.inferred_sex ?? null) as SexFacts['dna'];
  if (given && 'value' in given)
    return { value: given.value ?? null, source: given.source ?? null, dna, mismatch: !!given.mismatch };
  const declared = profile.gender === 1 ? 'male' : profile.gender === 2 ? 'female' : null;
  const value = declared ?? dna;
  return {
    value,
    source: declared ? 'profile' : dna ? 'dna' : null,
    dna,
    mismatch: !!declared && !!dna && declared !== dna,
  };
}

export function sexText(s: SexFacts): string {
  if (!s.value) return 'Unknown';
  return `${SEX_WORD[s.value]} (${s.source === 'profile' ? 'from your profile' : 'from your DNA'})`;
}

interface Props {
  profile: Profile;
  genotype: GenotypeInfo;
  reference?: Reference;
  /** Fold to one line (results exist); the person can open it. */
  compact: boolean;
  /** The file's last line, when this session saw the file stop mid-line. */
  cutLine?: string | null;
}

export function GenotypeCard({ profile, genotype, reference, compact, cutLine }: Props) {
  const [open, setOpen] = useState(false);
  const m = genotype.metadata as Record<string, unknown> & GenotypeInfo['metadata'];
  const ancestry = m.ancestry as
    | {
        best?: string | null;
        proportions?: Record<string, number>;
        markers_used?: number;
        confidence?: number;
        sufficient?: boolean;
      }
    | null
    | undefined;
  const callRate = typeof m.call_rate === 'number' ? m.call_rate : null;
  const sex = sexFacts(profile, m);
  const warnings = fileWarnings(m, cutLine);
  const line = [
    vendorName(m.vendor),
    buildName(m.build),
    typeof m.snp_count === 'number' ? `${formatInt(m.snp_count)} markers` : null,
    callRate !== null ? `call rate ${formatPercent(callRate, 1)}` : null,
    sexText(sex),
  ]
    .filter(Boolean)
    .join(' · ');
  const expanded = !compact || open;

  return (
    <section
      className={`card genotype-card ${expanded ? '' : 'is-compact'}`}
      aria-labelledby="genotype-title"
      data-testid="genotype-card"
    >
      <header className="card-header">
        <h2 id="genotype-title">DNA file</h2>
        {compact ? (
          <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
            {open ? 'Fewer details' : 'Details'}
          </button>
        ) : null}
      </header>
      {!expanded ? <p className="genotype-line">{line}</p> : null}
      {sex.mismatch ? (
        <p className="inline-warning" data-testid="sex-mismatch">
          <AlertIcon size={16} /> Your profile says {SEX_WORD[sex.value ?? ''] ?? 'unknown'}, but the DNA file looks{' '}
          {SEX_WORD[sex.dna ?? ''] ?? 'unknown'}. Results use the profile’s sex; check it with Edit if it is wrong.
        </p>
      ) : null}
      {warnings.length > 0 ? (
        <ul className="file-warnings" data-testid="file-warnings">
          {warnings.map((w) => (
            <li key={w} className="inline-warning">
              <AlertIcon size={16} /> {w}
            </li>
          ))}
        </ul>
      ) : null}
      {expanded ? (
        <>
          <p className="muted small">
            {m.status === 'failed'
              ? `Added ${formatDate(genotype.created_at)}`
              : `Added ${formatDate(genotype.created_at)}${genotype.updated_at !== genotype.created_at ? ` · replaced ${formatDate(genotype.updated_at)}` : ''} · ${formatBytes(Number(genotype.size))}`}
          </p>
          <dl className="stat-grid">
            <div className="stat">
              <dt>Source</dt>
              <dd>{vendorName(m.vendor)}</dd>
            </div>
            <div className="stat">
              <dt>Genome build</dt>
              <dd>{buildName(m.build)}</dd>
            </div>
            <div className="stat">
              <dt>Markers read</dt>
              <dd className="tabular">{typeof m.snp_count === 'number' ? formatInt(m.snp_count) : '—'}</dd>
            </div>
            <div className="stat">
              <dt>Call rate</dt>
              <dd className="tabular">{callRate !== null ? formatPercent(callRate, 1) : '—'}</dd>
            </div>
            <div className="stat">
              <dt>Sex used for results</dt>
              <dd>{sexText(sex)}</dd>
            </div>
            <div className="stat">
              <dt>Sex from the DNA</dt>
              <dd>{SEX_WORD[sex.dna ?? ''] ?? 'Undetermined'}</dd>
            </div>
          </dl>
          <VcfSample profileId={profile.id} metadata={m} />
          <SiteReading profileId={profile.id} metadata={m} />
          <div className="ancestry">
            <h3>Reference population and ancestry</h3>
            <p className="small">
              {reference ? <>Results are compared with: {comparedWith({ reference })}.</> : 'No results yet.'}
            </p>
            {ancestry?.proportions && Object.keys(ancestry.proportions).length ? (
              <p className="muted small">
                Ancestry estimate from{' '}
                {typeof ancestry.markers_used === 'number' ? `${formatInt(ancestry.markers_used)} markers` : 'the file'}
                : {mixtureText(ancestry.proportions)}
                {ancestry.best ? ` (closest: ${populationName(ancestry.best)})` : ''}
                {typeof ancestry.confidence === 'number' ? `, confidence ${formatPercent(ancestry.confidence)}` : ''}
                {ancestry.sufficient === false ? '; too little evidence to rely on.' : '.'}
              </p>
            ) : (
              <p className="muted small">No ancestry estimate: the file lacks the markers it needs.</p>
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}
