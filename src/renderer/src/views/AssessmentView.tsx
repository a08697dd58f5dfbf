/**
 * One trait for one person: where they stand in the reference population, what the level
 * means, how complete the data was, which markers went in, and the research behind it.
 */
import { useMemo, useState } from 'react';
import type { ProfileTrait } from '../../../shared/api.js';
import { isFileSiteMarker } from '../../../shared/marker-ids.js';
import { DistributionPlot } from '../components/DistributionPlot.js';
import { ExternalLink } from '../components/ExternalLink.js';
import { AlertIcon, ArrowLeft, BeakerIcon, Spinner } from '../components/icons.js';
import { LevelBadge, LevelMeter } from '../components/LevelMeter.js';
import { InfoMeter, infoMeterBasis } from '../components/InfoMeter.js';
import { ResultMeaningCard } from '../components/ResultMeaning.js';
import { useDocumentTitle } from '../lib/document-title.js';
import {
  capitalise,
  formatDateTime,
  formatInt,
  formatPercent,
  percentileFigure,
  percentileWords,
  profileName,
} from '../lib/format.js';
import { evidenceWords } from '../lib/evidence-words.js';
import { varianceExplained } from '../lib/notable.js';
import { comparedWith } from '../lib/reference.js';
import { readableName } from '../lib/results.js';
import { RichText } from '../lib/rich-text.js';
import { useProfile } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { computeOne, useAssessment, useCatalog, useProfileTraits } from '../state/traits.js';
import { NotFound } from './NotFound.js';

const MARKER_PAGE = 40;

export function AssessmentView({ id, code }: { id: string; code: string }) {
  const profile = useProfile(id);
  const { full, error: loadError, loading } = useAssessment(id, code);
  const { catalog } = useCatalog();
  const catalogTrait = catalog?.find((c) => c.trait.code === code);
  const [busy, setBusy] = useState(false);
  const [computeError, setError] = useState<string | null>(null);
  const error = computeError ?? loadError;

  const trait = full?.trait ?? catalogTrait?.trait;
  const title = readableName(trait?.group?.name ?? trait?.name ?? code);
  useDocumentTitle(profile ? `${title} – ${profileName(profile)}` : title);
  if (!profile) return <NotFound what="profile" />;
  const name = profileName(profile);

  const compute = async () => {
    setError(null);
    setBusy(true);
    try {
      await computeOne(id, code);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page assessment-page" aria-labelledby="trait-title" data-testid="assessment-view">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <a href={`#/profiles/${id}`} onClick={(e) => (e.preventDefault(), navigate({ name: 'profile', id }))}>
          <ArrowLeft size={15} /> {name}
        </a>
      </nav>

      <header className="page-header">
        <div>
          <p className="eyebrow">
            {[trait?.category, trait?.featured ? 'Featured' : null].filter(Boolean).join(' · ')}
          </p>
          <h1 id="trait-title">{title}</h1>
          {trait?.study_label ? <p className="muted">Study: {trait.study_label}</p> : null}
        </div>
      </header>

      {error ? (
        <div className="banner banner-error" role="alert">
          <AlertIcon size={18} />
          <div>
            <strong>This result could not be loaded.</strong>
            <p>{error}</p>
          </div>
        </div>
      ) : null}

      {loading && !full ? (
        <div className="card loading-card">
          <Spinner size={18} /> <span className="muted">Loading…</span>
        </div>
      ) : full && full.status === 'computed' ? (
        <Computed a={full} />
      ) : full ? (
        <section className="card status-card">
          {full.status === 'available' ? (
            <>
              <h2>Not computed yet</h2>
              <p className="muted">
                {name}’s DNA file has enough of this trait’s markers. Compute it to see where {name} stands.
              </p>
              <button type="button" className="button button-primary" onClick={() => void compute()} disabled={busy}>
                {busy ? <Spinner size={14} /> : <BeakerIcon size={16} />} Compute {trait?.name}
              </button>
            </>
          ) : full.status_reason?.code === 'not_applicable' ? (
            <>
              <h2>Does not apply to {name}</h2>
              <p className="muted">{full.status_reason.detail}</p>
            </>
          ) : (
            <>
              <h2>Not available for {name}</h2>
              <p className="muted">
                {full.status_reason?.detail ??
                  `${name}’s DNA file lacks too many of the markers this trait’s score needs${trait?.quality ? ` (${formatInt(trait.quality.markers)} in all)` : ''}.`}{' '}
                Tests from other companies, or newer chip versions, may cover them.
              </p>
            </>
          )}
        </section>
      ) : null}

      {trait ? <OtherStudies profileId={id} trait={trait} /> : null}
      {trait ? <Evidence trait={trait} /> : null}
    </main>
  );
}

function Computed({ a }: { a: ProfileTrait }) {
  const level = a.assessment_level ?? 3;
  const percentile = a.percentile ?? 50;
  const ve = varianceExplained(a);
  const ev = a.evidence;
  const markers = useMemo(
    () => [...(a.markers ?? [])].sort((x, y) => Math.abs(y.weight) - Math.abs(x.weight)),
    [a.markers],
  );
  const [showAll, setShowAll] = useState(false);
  // The service's match report when it sends one; otherwise counted from the markers.
  const match = (
    a as { match?: { markers: number; observed: number; imputed: number; excluded: number; strand_flipped: number } }
  ).match;
  const observed = match?.observed ?? markers.filter((m) => m.use === 'observed').length;
  const total = match?.markers ?? a.trait.quality?.markers ?? markers.length;

  return (
    <>
      <section className="card result-card" aria-label="Result">
        <div className="result-summary">
          <div className="result-figure">
            <span className="result-number tabular" data-testid="percentile">
              {percentileFigure(a)}
            </span>
            <span className="result-unit">percentile</span>
          </div>
          <div className="result-level">
            <LevelBadge level={level} label={a.level_label ?? `Level ${level}`} />
            <LevelMeter level={level} label={`Level ${level} of 5: ${a.level_label ?? ''}`} />
            <span className="muted small">Level {level} of 5</span>
          </div>
          <p className="result-explain">
            {a.percentile_bound === 'above_99.9' ? (
              <>
                A higher genetic score than <strong>more than 99.9 of 100</strong> people in the reference population:
                beyond the 99.9th percentile.
              </>
            ) : a.percentile_bound === 'below_0.1' ? (
              <>
                A lower genetic score than <strong>more than 99.9 of 100</strong> people in the reference population:
                below the 0.1st percentile.
              </>
            ) : (
              <>
                A higher genetic score than about{' '}
                <strong>{Math.min(99, Math.max(1, Math.round(percentile)))} of 100</strong> people in the reference
                population.
              </>
            )}
          </p>
        </div>
        <p className="result-reference" data-testid="result-reference">
          Compared with: <strong>{comparedWith(a)}</strong>
          {a.reference?.reason ? <span className="muted small"> — {a.reference.reason}</span> : null}
        </p>
        <InfoMeter result={a} />
        {a.distribution && typeof a.score === 'number' ? (
          <DistributionPlot
            density={a.distribution.density}
            score={a.score}
            percentile={percentile}
            bound={a.percentile_bound}
            reachableLevels={a.reachable_levels}
            referenceText={comparedWith(a)}
            level={level}
            traitName={a.trait.group?.name ?? a.trait.name}
          />
        ) : null}
      </section>

      <ResultMeaningCard result={a} />

      {a.recommendations ? (
        <section className="card" aria-labelledby="meaning-title">
          <h2 id="meaning-title">What this means</h2>
          <p className="prose">{a.recommendations}</p>
        </section>
      ) : null}

      <section className="card" aria-labelledby="quality-title" data-testid="result-evidence">
        <h2 id="quality-title">Evidence and how this was computed</h2>
        <p className="muted small">{infoMeterBasis(a)}</p>
        {ev?.reasons?.length ? (
          <ul className="evidence-reasons small">
            {ev.reasons.map((r) => (
              <li key={r}>{capitalise(r)}</li>
            ))}
          </ul>
        ) : null}
        <dl className="stat-grid">
          <div className="stat">
            <dt>Coverage</dt>
            <dd className="tabular">{typeof a.coverage === 'number' ? formatPercent(a.coverage) : '—'}</dd>
            <dd className="stat-sub">
              {formatInt(observed)} of {formatInt(total)} markers genotyped
              {match && match.imputed > 0 ? `, ${formatInt(match.imputed)} filled with the population average` : ''}
              {match && match.strand_flipped > 0
                ? `, ${formatInt(match.strand_flipped)} read on the opposite strand`
                : ''}
            </dd>
            {typeof a.coverage === 'number' ? (
              <div className="meter" aria-hidden="true">
                <span style={{ width: `${a.coverage * 100}%` }} />
              </div>
            ) : null}
          </div>
          <div className="stat">
            <dt>Evidence</dt>
            <dd>{capitalise(ev?.label ?? a.trait.evidence?.label ?? 'limited')}</dd>
            <dd className="stat-sub" data-testid="evidence-words">
              {evidenceWords(
                ev?.label ?? a.trait.evidence?.label ?? 'limited',
                ev?.reasons ?? a.trait.evidence?.reasons,
              )}
            </dd>
          </div>
          <div className="stat">
            <dt>How much the score explains</dt>
            <dd>{ve === null ? 'Unknown' : formatPercent(ve, ve < 0.1 ? 1 : 0)}</dd>
            <dd className="stat-sub">
              {ve === null ? 'Not published for this score' : 'of the differences between people in this trait'}
            </dd>
          </div>
          <div className="stat">
            <dt>Largest single marker</dt>
            <dd className="tabular">
              {formatPercent(ev?.top_marker_share ?? a.trait.evidence?.top_marker_share ?? 0)}
            </dd>
            <dd className="stat-sub">of the score’s weight</dd>
          </div>
          <div className="stat">
            <dt>Genome-wide significant markers</dt>
            <dd className="tabular">
              {(ev?.genome_wide_markers ?? a.trait.evidence?.genome_wide_markers) == null
                ? 'Unknown'
                : formatInt((ev?.genome_wide_markers ?? a.trait.evidence?.genome_wide_markers)!)}
            </dd>
          </div>
          <div className="stat">
            <dt>Genetic score</dt>
            <dd className="tabular">{typeof a.score === 'number' ? a.score.toFixed(3) : '—'}</dd>
            {a.distribution ? (
              <dd className="stat-sub">
                Reference mean {a.distribution.mean.toFixed(3)}, SD {a.distribution.sd.toFixed(3)}
              </dd>
            ) : null}
          </div>
          <div className="stat">
            <dt>Computed</dt>
            <dd>{formatDateTime(a.computed_at) || '—'}</dd>
          </div>
        </dl>
      </section>

      {markers.length > 0 ? (
        <section className="card" aria-labelledby="markers-title" data-testid="markers">
          <header className="card-header">
            <h2 id="markers-title">Markers used</h2>
            <span className="muted small">
              {formatInt(markers.length)} markers, strongest effect first. Weight is the effect of each copy of the
              effect allele.
            </span>
          </header>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Marker</th>
                  <th scope="col">Your genotype</th>
                  <th scope="col">Effect allele</th>
                  <th scope="col">Copies</th>
                  <th scope="col" className="num">
                    Weight
                  </th>
                  <th scope="col">Used as</th>
                </tr>
              </thead>
              <tbody>
                {(showAll ? markers : markers.slice(0, MARKER_PAGE)).map((m) => (
                  <tr key={m.rsid} className={m.use !== 'observed' ? 'is-dim' : ''}>
                    <th scope="row">
                      {isFileSiteMarker(m.rsid) ? (
                        <span title="Your file gives this variant no rsID: Traitscope read it by its position and numbers it itself, so it has no dbSNP page.">
                          by position
                        </span>
                      ) : (
                        <ExternalLink className="mono" href={`https://www.ncbi.nlm.nih.gov/snp/${m.rsid}`}>
                          {m.rsid}
                        </ExternalLink>
                      )}
                    </th>
                    <td className="mono">{m.genotype && m.genotype !== '--' ? m.genotype : 'not tested'}</td>
                    <td className="mono">{m.effect_allele}</td>
                    <td className="tabular">
                      {m.use === 'observed' ? m.dosage : m.use === 'imputed' ? `${m.dosage.toFixed(2)} (average)` : '—'}
                    </td>
                    <td className="num tabular mono">
                      {m.weight > 0 ? '+' : ''}
                      {m.weight.toPrecision(3)}
                    </td>
                    <td>
                      <span className={`use use-${m.use}`}>
                        {m.use === 'observed' ? 'Measured' : m.use === 'imputed' ? 'Population average' : 'Excluded'}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {markers.length > MARKER_PAGE ? (
            <div className="show-more">
              <button type="button" className="button button-ghost" onClick={() => setShowAll(!showAll)}>
                {showAll ? 'Show fewer' : `Show all ${formatInt(markers.length)} markers`}
              </button>
            </div>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

/** The other studies of the same phenotype, with this person's result in each. */
function OtherStudies({ profileId, trait }: { profileId: string; trait: ProfileTrait['trait'] }) {
  const group = trait.group;
  const { catalog } = useCatalog();
  const results = useProfileTraits(profileId).data?.results;
  if (!group || group.size < 2 || !catalog) return null;
  const studies = catalog.filter((c) => c.trait.group?.code === group.code && c.trait.code !== trait.code);
  return (
    <section className="card" aria-labelledby="studies-title" data-testid="other-studies">
      <h2 id="studies-title">Other studies of {group.name}</h2>
      <p className="muted small">
        {group.headline
          ? 'This is the headline study: the one with the most power (sample size, established markers, curation).'
          : 'The headline study is listed first.'}
      </p>
      <ul className="study-list">
        {studies
          .sort((x, y) => Number(!!y.trait.group?.headline) - Number(!!x.trait.group?.headline))
          .map((c) => {
            const r = results?.[c.trait.code];
            return (
              <li key={c.trait.code}>
                <a
                  href={`#/profiles/${profileId}/traits/${encodeURIComponent(c.trait.code)}`}
                  onClick={(e) => (e.preventDefault(), navigate({ name: 'trait', id: profileId, code: c.trait.code }))}
                >
                  {c.trait.study_label ?? c.trait.name}
                  {c.trait.group?.headline ? ' (headline)' : ''}
                </a>{' '}
                <span className="muted small">
                  {r ? `${r.level_label}, ${percentileWords(r)}` : 'no result for you'}
                </span>
              </li>
            );
          })}
      </ul>
    </section>
  );
}

function Evidence({ trait }: { trait: NonNullable<ProfileTrait['trait']> }) {
  const q = trait.quality;
  return (
    <section className="card" aria-labelledby="evidence-title" data-testid="evidence">
      <h2 id="evidence-title">About this trait and the research</h2>
      {trait.overview ? <RichText html={trait.overview} className="prose" /> : null}
      {q ? (
        <>
          <dl className="stat-grid evidence-grid">
            <div className="stat">
              <dt>Evidence</dt>
              <dd>
                <span className={`evidence evidence-${trait.evidence?.label ?? q.evidence}`}>
                  {capitalise(trait.evidence?.label ?? q.evidence)}
                </span>
              </dd>
              <dd className="stat-sub" data-testid="trait-evidence-words">
                {evidenceWords(trait.evidence?.label ?? q.evidence, trait.evidence?.reasons)}
              </dd>
            </div>
            <div className="stat">
              <dt>Study size</dt>
              <dd className="tabular">{q.sample_size ? `${formatInt(q.sample_size)} people` : '—'}</dd>
            </div>
            <div className="stat">
              <dt>Published</dt>
              <dd className="tabular">{q.publication_year ?? '—'}</dd>
            </div>
            <div className="stat">
              <dt>Markers in score</dt>
              <dd className="tabular">{formatInt(q.markers)}</dd>
            </div>
          </dl>
          <div className="citation">
            <h3>Source</h3>
            <p>{q.citation}</p>
            {q.pmid ? (
              <ExternalLink className="button button-small" href={`https://pubmed.ncbi.nlm.nih.gov/${q.pmid}/`}>
                Read on PubMed (PMID {q.pmid}){' '}
              </ExternalLink>
            ) : null}
          </div>
        </>
      ) : null}
      <p className="disclaimer">
        Genetic scores describe tendencies in large groups, not certainties for one person. They are not a diagnosis.
        Talk to a doctor or genetic counsellor before acting on a health-related result.
      </p>
    </section>
  );
}
