/**
 * A printable report of one profile's results. The desktop app saves it as a PDF through
 * the preload bridge; in a browser it prints (Save as PDF in the print dialog) or
 * downloads as a self-contained HTML file. CSV and JSON exports sit beside it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ProfileTrait } from '../../../shared/api.js';
import { ArrowLeft, DownloadIcon, PrinterIcon, Spinner } from '../components/icons.js';
import { copyReportHtml } from '../lib/report-html.js';
import { downloadText, safeFileStem } from '../lib/download.js';
import { orderedResults, resultsCsv, resultsJson, type ReportData } from '../lib/export.js';
import { firstSentence, formatDate, formatInt, formatPercent, ordinal, populationName, profileFacts, profileName, vendorName } from '../lib/format.js';
import { desktopBridge } from '../platform/bridge.js';
import { hasFile, useProfile, useProfiles } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { useSettings } from '../state/settings.js';
import { toast } from '../state/toasts.js';
import { useTraits } from '../state/traits.js';
import { NotFound } from './NotFound.js';

export function ReportView({ id }: { id: string }) {
  const profile = useProfile(id);
  const genotype = useProfiles((s) => s.genotypes[id]);
  const entry = useTraits((s) => s.byProfile[id]);
  const catalog = useTraits((s) => s.catalog);
  const version = useSettings((s) => s.info?.version);
  const paper = useRef<HTMLDivElement>(null);
  const [saving, setSaving] = useState(false);
  const bridge = desktopBridge();

  useEffect(() => {
    void useTraits.getState().loadProfileTraits(id);
  }, [id]);

  const data = useMemo<ReportData | null>(() => {
    if (!profile || !entry?.loaded) return null;
    const pricing = Object.fromEntries((catalog ?? []).map((c) => [c.trait.code, c.type]));
    return { profile, genotype, results: Object.values(entry.results), pricing, generatedAt: new Date(), appVersion: version };
  }, [profile, genotype, entry, catalog, version]);

  if (!profile) return <NotFound what="profile" />;
  const name = profileName(profile);
  const stem = safeFileStem(`Traitscope report - ${name}`);

  const savePdf = async () => {
    if (!bridge) return window.print();
    setSaving(true);
    try {
      const result = await bridge.printToPDF({ fileName: `${stem}.pdf` });
      if (result.saved) toast.success(`Report saved${result.path ? ` to ${result.path}` : ''}.`);
    } catch (err) {
      toast.error(`The PDF could not be saved: ${(err as Error).message}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <main className="page report-page" aria-labelledby="report-title" data-testid="report-view">
      <div className="report-toolbar">
        <nav className="breadcrumbs" aria-label="Breadcrumb">
          <a href={`#/profiles/${id}`} onClick={(e) => (e.preventDefault(), navigate({ name: 'profile', id }))}>
            <ArrowLeft size={15} /> {name}
          </a>
        </nav>
        <div className="report-toolbar-row">
          <div>
            <h1 id="report-title">Report</h1>
            <p className="muted">Everything below is what the PDF or printout contains.</p>
          </div>
          <div className="page-actions">
            <button type="button" className="button button-primary" onClick={savePdf} disabled={!data || saving}>
              {saving ? <Spinner size={14} /> : <PrinterIcon size={16} />}
              {bridge ? 'Save as PDF…' : 'Print or save as PDF…'}
            </button>
            <button
              type="button"
              className="button"
              disabled={!data}
              onClick={() => paper.current && downloadText(`${stem}.html`, copyReportHtml(paper.current, `Traitscope report – ${name}`), 'text/html')}
            >
              <DownloadIcon size={16} /> HTML
            </button>
            <button type="button" className="button" disabled={!data} onClick={() => data && downloadText(`${stem}.csv`, resultsCsv(data), 'text/csv')}>
              <DownloadIcon size={16} /> CSV
            </button>
            <button type="button" className="button" disabled={!data} onClick={() => data && downloadText(`${stem}.json`, resultsJson(data), 'application/json')}>
              <DownloadIcon size={16} /> JSON
            </button>
          </div>
        </div>
      </div>

      {!data ? (
        <div className="card loading-card">
          <Spinner size={18} /> <span className="muted">Preparing the report…</span>
        </div>
      ) : (
        <div className="report-paper" ref={paper}>
          <ReportDocument data={data} />
        </div>
      )}
    </main>
  );
}

function groupByCategory(results: ProfileTrait[]): Array<[string, ProfileTrait[]]> {
  const map = new Map<string, ProfileTrait[]>();
  for (const r of results) {
    const key = r.trait.category || 'Other';
    if (!map.has(key)) map.set(key, []);
    map.get(key)!.push(r);
  }
  return [...map.entries()].sort(([a], [b]) => (a === 'Other' ? 1 : b === 'Other' ? -1 : a.localeCompare(b)));
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function pct(r: ProfileTrait): string {
  return typeof r.percentile === 'number' ? ordinal(Math.min(99, Math.max(1, r.percentile))) : '—';
}

function ResultTable({ results, withMeaning }: { results: ProfileTrait[]; withMeaning?: boolean }) {
  return (
    <table className="rt-table">
      <thead>
        <tr>
          <th scope="col">Trait</th>
          <th scope="col">Result</th>
          <th scope="col" className="rt-num">
            Percentile
          </th>
          <th scope="col" className="rt-num">
            Coverage
          </th>
          <th scope="col">Evidence</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={r.trait.code}>
            <th scope="row">
              {r.trait.name}
              {withMeaning && r.recommendations ? <span className="rt-meaning">{firstSentence(r.recommendations)}</span> : null}
            </th>
            <td>
              <span className={`rt-level rt-lvl-${r.assessment_level ?? 3}`}>{r.level_label ?? `Level ${r.assessment_level}`}</span>
            </td>
            <td className="rt-num">{pct(r)}</td>
            <td className="rt-num">{typeof r.coverage === 'number' ? formatPercent(r.coverage) : '—'}</td>
            <td>
              {r.trait.quality ? `${capitalise(r.trait.quality.evidence)}${r.trait.quality.pmid ? ` · PMID ${r.trait.quality.pmid}` : ''}` : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ReportDocument({ data }: { data: ReportData }) {
  const { profile, genotype } = data;
  const ordered = orderedResults(data.results);
  const featured = ordered.filter((r) => r.trait.featured);
  const others = ordered.filter((r) => !r.trait.featured);
  const m = hasFile(genotype) ? (genotype.metadata as Record<string, unknown>) : null;
  const ancestry = m?.ancestry as { population?: string } | undefined;

  return (
    <article className="report-doc">
      <header className="rt-header">
        <div className="rt-brand">Traitscope</div>
        <h1>Genetic trait report</h1>
        <p className="rt-person">{profileName(profile)}</p>
        <p className="rt-meta">
          {[profileFacts(profile), `Generated ${formatDate(data.generatedAt.toISOString())}`].filter(Boolean).join(' · ')}
        </p>
      </header>

      {m ? (
        <section className="rt-section">
          <h2>DNA file</h2>
          <dl className="rt-facts">
            <div>
              <dt>Source</dt>
              <dd>{vendorName(m.vendor)}</dd>
            </div>
            <div>
              <dt>Genome build</dt>
              <dd>{m.build ? `GRCh${String(m.build).replace(/\D/g, '')}` : '—'}</dd>
            </div>
            <div>
              <dt>Markers</dt>
              <dd>{typeof m.snp_count === 'number' ? formatInt(m.snp_count) : '—'}</dd>
            </div>
            <div>
              <dt>Call rate</dt>
              <dd>{typeof m.call_rate === 'number' ? formatPercent(m.call_rate, 1) : '—'}</dd>
            </div>
            <div>
              <dt>Inferred sex</dt>
              <dd>{m.inferred_sex === 'female' ? 'Female' : m.inferred_sex === 'male' ? 'Male' : 'Undetermined'}</dd>
            </div>
            <div>
              <dt>Ancestry</dt>
              <dd>{ancestry?.population ? populationName(ancestry.population) : '—'}</dd>
            </div>
          </dl>
        </section>
      ) : null}

      {ordered.length === 0 ? (
        <section className="rt-section">
          <p>No results have been computed for this profile yet.</p>
        </section>
      ) : null}

      {featured.length > 0 ? (
        <section className="rt-section">
          <h2>Featured traits</h2>
          <ResultTable results={featured} withMeaning />
        </section>
      ) : null}

      {groupByCategory(others).map(([category, list]) => (
        <section className="rt-section" key={category}>
          <h2>
            {category} <span className="rt-count">{formatInt(list.length)}</span>
          </h2>
          <ResultTable results={list} />
        </section>
      ))}

      <footer className="rt-footer">
        <p>
          <strong>How to read this report.</strong> Each result compares this person’s genetic score for a trait with a reference population of the same
          ancestry. Percentiles say what share of that population has a lower score; levels group percentiles into five bands (lowest 10 %, next 20 %, middle
          40 %, next 20 %, highest 10 %). Coverage is the share of the score’s markers found in the DNA file.
        </p>
        <p>
          Genetic scores describe tendencies in large groups, not certainties for one person, and are not a medical diagnosis. Lifestyle, environment and
          variants not measured by consumer tests often matter more. Discuss health-related results with a doctor or genetic counsellor.
        </p>
        <p className="rt-small">Computed offline by Traitscope{data.appVersion ? ` ${data.appVersion}` : ''}. Sources: the studies cited by PubMed ID (PMID).</p>
      </footer>
    </article>
  );
}
