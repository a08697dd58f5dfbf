/**
 * Single-variant findings (APOE, Factor V Leiden, HFE, lactase, ALDH2) with a citation for
 * every statement and plain words about what a chip cannot tell, and a look-up of any
 * marker (rsID) or finding gene in the person's own genotype. Disease and cancer statements
 * appear only after the person chose to see them.
 */
import { useState } from 'react';
import type { Finding, FindingsResponse, GenotypeSnp } from '../../../shared/api.js';
import { api } from '../api/client.js';
import { useProfileResource } from '../lib/profile-resource.js';
import { usePreferences } from '../state/preferences.js';
import { ExternalLink } from './ExternalLink.js';
import { SearchIcon, Spinner } from './icons.js';

export function useFindings(profileId: string): { data: FindingsResponse | null; error: string | null } {
  return useProfileResource('findings', api.findings, profileId);
}

function Pmid({ pmid, sources }: { pmid: string; sources: Record<string, string> }) {
  return (
    <ExternalLink className="pmid" href={`https://pubmed.ncbi.nlm.nih.gov/${pmid}/`} description={sources[pmid]}>
      PMID {pmid}
    </ExternalLink>
  );
}

export function FindingCard({
  finding,
  sources,
  showClinical,
}: {
  finding: Finding;
  sources: Record<string, string>;
  showClinical: boolean;
}) {
  const statements = finding.statements.filter((s) => showClinical || !s.clinical);
  return (
    <li className={`finding finding-${finding.status}`} data-testid={`finding-${finding.code}`}>
      <div className="finding-head">
        <h3>{finding.name}</h3>
        <span className="finding-result">{finding.result ?? 'Not determined'}</span>
      </div>
      <p>{finding.summary}</p>
      {/* rare_in_reference is the first limit below; the other flags change what the result means. */}
      {finding.flags
        .filter((f) => f.code !== 'rare_in_reference')
        .map((f) => (
          <p key={f.code} className="finding-flag" role="note">
            {f.text}
          </p>
        ))}
      <table className="table finding-markers">
        <caption className="visually-hidden">Markers read for {finding.name}</caption>
        <thead>
          <tr>
            <th scope="col">Marker</th>
            <th scope="col">What it tells</th>
            <th scope="col">In your file</th>
          </tr>
        </thead>
        <tbody>
          {finding.markers.map((m) => (
            <tr key={m.rsid}>
              <th scope="row" className="mono">
                {m.rsid}
              </th>
              <td>{m.role}</td>
              <td className="mono">
                {m.state === 'missing'
                  ? 'not in the file'
                  : m.state === 'no_call'
                    ? m.genotype?.length === 1
                      ? `single letter ${m.genotype}: read as a no-call`
                      : 'no-call (--)'
                    : m.genotype}
                {m.strand_flipped ? ' (other strand)' : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {statements.length > 0 ? (
        <ul className="finding-statements">
          {statements.map((s) => (
            <li key={s.text}>
              {s.text} <Pmid pmid={s.pmid} sources={sources} />
            </li>
          ))}
        </ul>
      ) : null}
      {finding.statements.length > statements.length ? (
        <p className="muted small">A statement about disease or cancer risk is hidden, as chosen for this profile.</p>
      ) : null}
      <ul className="finding-limits">
        {finding.limits.map((s) => (
          <li key={s.text} className="muted small">
            {s.text} <Pmid pmid={s.pmid} sources={sources} />
          </li>
        ))}
      </ul>
    </li>
  );
}

/** rsIDs in a query ("rs429358, rs7412"), or the rsIDs of a finding gene ("APOE"). */
function markersFor(
  query: string,
  genes: Record<string, string[]>,
): { rsids: string[]; gene: string | null } | { error: string } {
  const words = query.split(/[\s,;]+/).filter(Boolean);
  if (words.length === 0) return { error: 'Type an rsID such as rs4988235, or a gene such as APOE.' };
  if (words.every((w) => /^rs\d{1,10}$/i.test(w)))
    return { rsids: words.map((w) => w.toLowerCase()).slice(0, 200), gene: null };
  const gene = Object.keys(genes).find((g) => g.toLowerCase() === query.trim().toLowerCase());
  if (gene) return { rsids: genes[gene], gene };
  return {
    error: `“${query.trim()}” is neither an rsID (like rs4988235) nor a gene with findings (${Object.keys(genes).join(', ')}). For another gene, look up its rsIDs (for example in dbSNP) and search for those.`,
  };
}

function MarkerSearch({ profileId, genes }: { profileId: string; genes: Record<string, string[]> }) {
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ asked: string[]; found: GenotypeSnp[]; gene: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const search = async () => {
    const want = markersFor(query, genes);
    if ('error' in want) {
      setError(want.error);
      setAnswer(null);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const found = await api.snps(profileId, want.rsids);
      setAnswer({ asked: want.rsids, found, gene: want.gene });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="marker-search" data-testid="marker-search">
      <h3 id="marker-search-title">Look up a marker or gene in your file</h3>
      <form
        className="marker-search-form"
        role="search"
        aria-labelledby="marker-search-title"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label className="search">
          <SearchIcon size={16} />
          <span className="visually-hidden">rsID or gene</span>
          <input
            className="search-input"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="rs4988235, or APOE"
            aria-describedby={error ? 'marker-search-error' : undefined}
          />
        </label>
        <button type="submit" className="button" disabled={busy}>
          {busy ? <Spinner size={14} /> : null} Look up
        </button>
      </form>
      {error ? (
        <p className="inline-error" id="marker-search-error" role="alert">
          {error}
        </p>
      ) : null}
      {answer ? (
        <div aria-live="polite">
          <table className="table">
            <caption className="visually-hidden">Your genotype at the markers looked up</caption>
            <thead>
              <tr>
                <th scope="col">Marker</th>
                <th scope="col">Chromosome</th>
                <th scope="col">Position</th>
                <th scope="col">Your genotype</th>
              </tr>
            </thead>
            <tbody>
              {answer.asked.map((rsid) => {
                const snp = answer.found.find((s) => s.rsid === rsid);
                return (
                  <tr key={rsid}>
                    <th scope="row" className="mono">
                      {rsid}
                    </th>
                    <td>{snp?.chromosome ?? '—'}</td>
                    <td className="tabular">{snp?.position ?? '—'}</td>
                    <td className="mono">
                      {snp ? (snp.genotype === '--' ? 'no-call (--)' : snp.genotype) : 'not in your file'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="muted small">
            Genotypes are given as the file reports them (forward strand for most companies). A marker not in the file
            was not tested by your chip.
          </p>
        </div>
      ) : null}
    </div>
  );
}

export function Findings({ profileId, showClinical }: { profileId: string; showClinical: boolean }) {
  const { data, error } = useFindings(profileId);
  const choose = usePreferences((s) => s.setSensitive);
  // The button that was pressed is replaced by its opposite: keep focus on this section.
  const setSensitive = (id: string, choice: 'show' | 'hide') => {
    choose(id, choice);
    requestAnimationFrame(() => document.getElementById('disease-results-title')?.focus());
  };
  const shown = data?.findings.filter((f) => showClinical || !f.clinical) ?? [];
  const hidden = (data?.findings.length ?? 0) - shown.length;

  return (
    <section className="card findings-card" aria-labelledby="findings-title" data-testid="findings">
      <header className="card-header">
        <div>
          <h2 id="findings-title">Single-variant findings</h2>
          <p className="muted small">
            Well-studied variants your chip reads directly. Every statement names the study it rests on.
          </p>
        </div>
      </header>
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : !data ? (
        <p className="muted">
          <Spinner size={14} /> Reading your findings…
        </p>
      ) : (
        <ul className="finding-list">
          {shown.map((f) => (
            <FindingCard key={f.code} finding={f} sources={data.sources} showClinical={showClinical} />
          ))}
        </ul>
      )}
      <div className="disease-choice" id="disease-results">
        <h3 id="disease-results-title" tabIndex={-1}>
          Disease results
        </h3>
        {showClinical ? (
          <p className="small">
            Disease, cancer and psychiatric results are shown for this profile.{' '}
            <button type="button" className="link-button" onClick={() => setSensitive(profileId, 'hide')}>
              Hide them
            </button>
          </p>
        ) : (
          <p className="small">
            {hidden > 0 ? `${hidden} findings about disease risk (APOE, Factor V Leiden, HFE) and ` : ''}disease, cancer
            and psychiatric results are hidden for this profile.{' '}
            <button type="button" className="link-button" onClick={() => setSensitive(profileId, 'show')}>
              Show them
            </button>
          </p>
        )}
      </div>
      {data ? <MarkerSearch profileId={profileId} genes={data.genes} /> : null}
    </section>
  );
}
