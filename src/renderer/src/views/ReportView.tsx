/**
 * The report builder: the person chooses what goes in (summary and plots come first; all
 * results, other studies, single-variant findings, disease results, the DNA file), and the
 * document shows exactly what the PDF or printout contains. Every printed page carries the
 * name and a page number (CSS page margin boxes); page 1 says how to read it and which
 * reference the results were compared with.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Finding, FindingsResponse, PharmacogeneList, Profile, ProfileTrait } from '../../../shared/api.js';
import { api } from '../api/client.js';
import { DistributionPlot } from '../components/DistributionPlot.js';
import { useFindings } from '../components/Findings.js';
import { MedicationCard, usePharmacogenes } from '../components/Pharmacogenes.js';
import { ArrowLeft, DownloadIcon, PrinterIcon, Spinner } from '../components/icons.js';
import { cantTellItems, notableItems, type CantTell, type NotableItem } from '../components/Summary.js';
import { sexFacts, sexText, buildName } from '../components/GenotypeCard.js';
import { useDocumentTitle } from '../lib/document-title.js';
import { downloadText, safeFileStem } from '../lib/download.js';
import { medicationCsv, resultsCsv, resultsJson, type ReportData } from '../lib/export.js';
import {
  capitalise,
  firstSentence,
  formatDate,
  formatInt,
  formatPercent,
  percentileWords,
  profileName,
  vendorName,
} from '../lib/format.js';
import { caveatSentence, resultCaveats } from '../lib/caveats.js';
import { informativeness, informativenessLevel } from '../lib/notable.js';
import { comparedWith, commonReference, type Reference } from '../lib/reference.js';
import { categoriesOf, evidenceLabel, isSensitive, sortRows, type PhenotypeRow } from '../lib/results.js';
import { copyReportHtml } from '../lib/report-html.js';
import { MeaningInBrief } from '../components/ResultMeaning.js';
import { desktopBridge } from '../platform/bridge.js';
import { useSensitiveChoice } from '../state/preferences.js';
import { hasFile, useGenotype, useProfile } from '../state/profiles.js';
import { navigate } from '../state/router.js';
import { useSettings } from '../state/settings.js';
import { toast } from '../state/toasts.js';
import { useProfileRows, useProfileTraits } from '../state/traits.js';
import { NotFound } from './NotFound.js';

export interface ReportOptions {
  plots: boolean;
  findings: boolean;
  medications: boolean;
  results: boolean;
  otherStudies: boolean;
  sensitive: boolean;
  dnaFile: boolean;
}

const OPTION_LABELS: Array<[keyof ReportOptions, string, string]> = [
  ['plots', 'Plots of the notable results', 'Where each notable result sits among the reference population'],
  ['findings', 'Single-variant findings', 'APOE, Factor V Leiden, HFE, lactase, ALDH2'],
  ['medications', 'Medication card', 'Drug–gene results on one page (with the disease results only)'],
  ['results', 'All results', 'One row per phenotype, by category'],
  ['otherStudies', 'Other studies of each phenotype', 'Every study under its phenotype (longer)'],
  ['sensitive', 'Disease, cancer and psychiatric results', 'Leave out when sharing with a relative or an employer'],
  ['dnaFile', 'DNA file details', 'Source, build, markers, call rate'],
];

export const reportTitle = (name: string) => `Traitscope report – ${name}`;

/** A CSS string literal for the page margin boxes. */
const cssString = (s: string) => `"${s.replace(/[\\"]/g, '\\$&').replace(/[\n\r]/g, ' ')}"`;

/** The printed pages' margins: the title at the top of every page, page n of m at the bottom. */
export function pageMarginCss(name: string, generatedAt: Date): string {
  return `@page { @top-left { content: ${cssString(reportTitle(name))}; } @bottom-right { content: "Page " counter(page) " of " counter(pages); } @bottom-left { content: ${cssString(`Generated ${formatDate(generatedAt.toISOString())} by Traitscope`)}; } }`;
}

/**
 * Applies CSS to the document while mounted. A constructed style sheet, because the
 * Content-Security-Policy (style-src 'self') rightly refuses inline <style> elements.
 */
function useDocumentCss(css: string): void {
  useEffect(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    };
  }, [css]);
}

export function ReportView({ id }: { id: string }) {
  const profile = useProfile(id);
  const genotype = useGenotype(id);
  const { data: entry } = useProfileTraits(id);
  const version = useSettings((s) => s.info?.version);
  const choice = useSensitiveChoice(id);
  const paper = useRef<HTMLDivElement>(null);
  const [saving, setSaving] = useState(false);
  const [options, setOptions] = useState<ReportOptions>({
    plots: true,
    findings: true,
    medications: true,
    // Every result is opt-in: with it the default report of a full file ran to 88 pages.
    results: false,
    otherStudies: false,
    sensitive: choice === 'show',
    dnaFile: true,
  });
  const [plots, setPlots] = useState<Record<string, ProfileTrait>>({});
  const [csvBusy, setCsvBusy] = useState(false);
  const { data: findings } = useFindings(id);
  const { data: pharmacogenes } = usePharmacogenes(id, options.sensitive && options.medications);
  const bridge = desktopBridge();
  const name = profile ? profileName(profile) : 'Profile';
  useDocumentTitle(reportTitle(name), true);

  const rows = useProfileRows(id);
  const notable = useMemo(() => notableItems(rows, !options.sensitive), [rows, options.sensitive]);

  // Plots need each notable result's full assessment (its distribution).
  useEffect(() => {
    if (!options.plots) return;
    let live = true;
    for (const { result } of notable) {
      const code = result.trait.code;
      if (plots[code]) continue;
      api
        .assessment(id, code)
        .then((full) => live && setPlots((p) => ({ ...p, [code]: full })))
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [notable, options.plots, id]); // eslint-disable-line react-hooks/exhaustive-deps

  const data = useMemo<ReportData | null>(() => {
    if (!profile || !entry) return null;
    const results = Object.values(entry.results).filter((r) => options.sensitive || !isSensitive(r.trait));
    return { profile, genotype, results, generatedAt: new Date(), appVersion: version };
  }, [profile, genotype, entry, version, options.sensitive]);

  if (!profile) return <NotFound what="profile" />;
  const stem = safeFileStem(reportTitle(name).replace('–', '-'));

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

  const saveCsv = async () => {
    if (!data) return;
    setCsvBusy(true);
    try {
      downloadText(`${stem}.csv`, await resultsCsv(data, (rsids) => api.snps(id, rsids)), 'text/csv');
      if (options.medications && options.sensitive && pharmacogenes)
        downloadText(`${stem}-medications.csv`, medicationCsv(pharmacogenes), 'text/csv');
    } catch (err) {
      toast.error(`The CSV could not be made: ${(err as Error).message}`);
    } finally {
      setCsvBusy(false);
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
            <p className="muted">Choose what goes in. Everything below is what the PDF or printout contains.</p>
          </div>
          <div className="page-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => void savePdf()}
              disabled={!data || saving}
            >
              {saving ? <Spinner size={14} /> : <PrinterIcon size={16} />}
              {bridge ? 'Save as PDF…' : 'Print or save as PDF…'}
            </button>
            <button
              type="button"
              className="button"
              disabled={!data}
              onClick={() =>
                paper.current &&
                data &&
                downloadText(
                  `${stem}.html`,
                  copyReportHtml(paper.current, reportTitle(name), pageMarginCss(name, data.generatedAt)),
                  'text/html',
                )
              }
            >
              <DownloadIcon size={16} /> HTML
            </button>
            <button type="button" className="button" disabled={!data || csvBusy} onClick={() => void saveCsv()}>
              {csvBusy ? <Spinner size={14} /> : <DownloadIcon size={16} />} CSV
            </button>
            <button
              type="button"
              className="button"
              disabled={!data}
              onClick={() => data && downloadText(`${stem}.json`, resultsJson(data), 'application/json')}
            >
              <DownloadIcon size={16} /> JSON
            </button>
          </div>
        </div>
        <fieldset className="report-options" data-testid="report-options">
          <legend>Sections (the summary and “How to read” always come first)</legend>
          {OPTION_LABELS.map(([key, label, hint]) => (
            <label key={key} className="check report-option">
              <input
                type="checkbox"
                checked={options[key]}
                onChange={(e) => setOptions({ ...options, [key]: e.target.checked })}
              />
              <span>
                {label}
                <span className="muted small"> · {hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>

      {!data ? (
        <div className="card loading-card">
          <Spinner size={18} /> <span className="muted">Preparing the report…</span>
        </div>
      ) : (
        <div className="report-paper" ref={paper}>
          <ReportDocument
            profile={profile}
            genotype={data.genotype}
            rows={rows}
            notable={notable}
            plots={plots}
            findings={findings}
            pharmacogenes={pharmacogenes}
            options={options}
            appVersion={version}
            generatedAt={data.generatedAt}
          />
        </div>
      )}
    </main>
  );
}

function LevelCell({ r }: { r: ProfileTrait }) {
  return (
    <span className={`rt-level rt-lvl-${r.assessment_level ?? 3}`}>
      {r.level_label ?? `Level ${r.assessment_level}`}
    </span>
  );
}

function ResultTable({ rows, otherStudies }: { rows: PhenotypeRow[]; otherStudies: boolean }) {
  return (
    <table className="rt-table">
      <thead>
        <tr>
          <th scope="col">Phenotype and study</th>
          <th scope="col">Result</th>
          <th scope="col" className="rt-num">
            Percentile
          </th>
          <th scope="col">Evidence</th>
          <th scope="col" className="rt-num">
            Markers read
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.flatMap((row) => {
          const studies = otherStudies ? [row.main, ...row.others.filter((o) => o.result)] : [row.main];
          return studies
            .filter((s) => s.result)
            .map((s, i) => {
              const r = s.result!;
              return (
                <tr key={s.trait.code} className={i > 0 ? 'rt-sub' : undefined}>
                  <th scope="row">
                    {i === 0 ? row.name : <span className="rt-indent">Other study</span>}
                    <span className="rt-meaning">
                      {s.trait.study_label ?? ''}
                      {i === 0 && r.group_agreement && r.group_agreement.others > 0
                        ? ` · ${r.group_agreement.summary}`
                        : ''}
                    </span>
                  </th>
                  <td>
                    <LevelCell r={r} />
                  </td>
                  <td className="rt-num">{percentileWords(r).replace(' percentile', '')}</td>
                  <td>{capitalise(evidenceLabel(s))}</td>
                  <td className="rt-num">{typeof r.coverage === 'number' ? formatPercent(r.coverage) : '—'}</td>
                </tr>
              );
            });
        })}
      </tbody>
    </table>
  );
}

function ReportFindings({ findings, sensitive }: { findings: FindingsResponse; sensitive: boolean }) {
  const list: Finding[] = findings.findings.filter((f) => sensitive || !f.clinical);
  return (
    <section className="rt-section rt-break-before">
      <h2>Single-variant findings</h2>
      {list.map((f) => (
        <div key={f.code} className="rt-finding">
          <h3>
            {f.name}: {f.result ?? 'not determined'}
          </h3>
          <p>{f.summary}</p>
          <ul>
            {f.statements
              .filter((s) => sensitive || !s.clinical)
              .map((s) => (
                <li key={s.text}>
                  {s.text} (PMID {s.pmid})
                </li>
              ))}
            {f.limits.map((s) => (
              <li key={s.text} className="rt-muted">
                {s.text} (PMID {s.pmid})
              </li>
            ))}
          </ul>
        </div>
      ))}
      {!sensitive && list.length < findings.findings.length ? (
        <p className="rt-muted">Findings about disease risk were left out of this report.</p>
      ) : null}
    </section>
  );
}

export interface ReportDocumentProps {
  profile: Profile;
  genotype: ReportData['genotype'];
  rows: PhenotypeRow[];
  notable: NotableItem[];
  plots: Record<string, ProfileTrait>;
  findings: FindingsResponse | null;
  pharmacogenes?: PharmacogeneList | null;
  options: ReportOptions;
  appVersion?: string;
  generatedAt: Date;
}

export function ReportDocument({
  profile,
  genotype,
  rows,
  notable,
  plots,
  findings,
  pharmacogenes,
  options,
  appVersion,
  generatedAt,
}: ReportDocumentProps) {
  const name = profileName(profile);
  const m = hasFile(genotype) ? (genotype.metadata as Record<string, unknown>) : null;
  const shownRows = rows.filter((r) => r.main.result && (options.sensitive || !isSensitive(r.main.trait)));
  const reference: Reference | undefined =
    (m?.reference as Reference | undefined) ?? commonReference(shownRows.map((r) => r.main.result!));
  const assumed = reference?.source === 'assumed';
  const refText = reference ? comparedWith({ reference }) : 'no reference (no results yet)';
  const cantTell: CantTell[] = cantTellItems(rows, {
    sexLabel: profile.gender === 1 ? 'Male' : profile.gender === 2 ? 'Female' : null,
    assumed,
    hiddenSensitive: options.sensitive ? 0 : rows.filter((r) => isSensitive(r.main.trait)).length,
  });
  const byCategory = categoriesOf(shownRows).map(
    (c) =>
      [
        c,
        sortRows(
          shownRows.filter((r) => r.category === c),
          'name',
        ),
      ] as const,
  );
  useDocumentCss(pageMarginCss(name, generatedAt));

  return (
    <article className="report-doc" data-testid="report-document">
      <header className="rt-header">
        <div className="rt-brand">Traitscope</div>
        <h1>Genetic trait report</h1>
        <p className="rt-person">{name}</p>
        <p className="rt-meta">
          {[sexText(sexFacts(profile, m ?? {})), `Generated ${formatDate(generatedAt.toISOString())}`]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <p className="rt-reference" data-testid="report-reference">
          Results compared with: <strong>{refText}</strong>
          {assumed
            ? ' — the DNA file holds too little ancestry evidence, so this reference was assumed, not chosen or estimated.'
            : ''}
        </p>
      </header>

      <section className="rt-section rt-howto" data-testid="report-howto">
        <h2>How to read this report</h2>
        <p>
          Each result compares {name}’s genetic score for a trait with the scores of the reference population named
          above. The percentile is the share of that population with a lower score; levels group percentiles into five
          bands (lowest 10 %, next 20 %, middle 40 %, next 20 %, highest 10 %). “How much this tells you” combines the
          evidence behind the score, the share of its markers read, and how much of the trait it explains. Genetic
          scores describe tendencies in large groups, not certainties for one person, and are not a diagnosis.
        </p>
      </section>

      <section className="rt-section">
        <h2>Notable results</h2>
        {notable.length === 0 ? (
          <p>No result stands out: they are close to average, or tell too little to single out.</p>
        ) : (
          <table className="rt-table">
            <thead>
              <tr>
                <th scope="col">Phenotype</th>
                <th scope="col">Result</th>
                <th scope="col" className="rt-num">
                  Percentile
                </th>
                <th scope="col">How much this tells you</th>
              </tr>
            </thead>
            <tbody>
              {notable.map(({ row, result }) => (
                <tr key={row.key}>
                  <th scope="row">
                    {row.name}
                    <span className="rt-meaning">{firstSentence(result.recommendations)}</span>
                    <MeaningInBrief result={result} />
                    {resultCaveats(result).length > 0 ? (
                      <span className="rt-meaning rt-caveat" data-testid="report-caveat">
                        {caveatSentence(resultCaveats(result))}
                      </span>
                    ) : null}
                  </th>
                  <td>
                    <LevelCell r={result} />
                  </td>
                  <td className="rt-num">{percentileWords(result).replace(' percentile', '')}</td>
                  <td>{informativenessLevel(informativeness(result)).label}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h3 className="rt-h3">What this file can’t tell</h3>
        <ul className="rt-list">
          {cantTell.map((c) => (
            <li key={c.key}>{c.text}</li>
          ))}
        </ul>
      </section>

      {options.plots && notable.length > 0 ? (
        <section className="rt-section rt-break-before">
          <h2>Where the notable results sit</h2>
          <div className="rt-plots">
            {notable.map(({ row, result }) => {
              const full = plots[result.trait.code];
              return (
                <div key={row.key} className="rt-plot">
                  <h3>{row.name}</h3>
                  {full?.distribution && typeof full.score === 'number' ? (
                    <DistributionPlot
                      density={full.distribution.density}
                      score={full.score}
                      percentile={full.percentile ?? 50}
                      bound={full.percentile_bound}
                      reachableLevels={full.reachable_levels}
                      level={full.assessment_level ?? 3}
                      traitName={row.name}
                    />
                  ) : (
                    <p className="rt-muted">Loading the distribution…</p>
                  )}
                </div>
              );
            })}
          </div>
        </section>
      ) : null}

      {options.findings && findings ? <ReportFindings findings={findings} sensitive={options.sensitive} /> : null}
      {options.medications && options.sensitive && pharmacogenes ? (
        <section className="rt-section">
          <MedicationCard results={pharmacogenes} name={name} />
        </section>
      ) : null}

      {options.results ? (
        <section className="rt-section rt-break-before">
          <h2>
            All results <span className="rt-count">{formatInt(shownRows.length)} phenotypes</span>
          </h2>
          {byCategory.map(([category, list]) => (
            <div key={category} className="rt-category">
              <h3 className="rt-h3">
                {category} <span className="rt-count">{formatInt(list.length)}</span>
              </h3>
              <ResultTable rows={list} otherStudies={options.otherStudies} />
            </div>
          ))}
        </section>
      ) : null}

      {options.dnaFile && m ? (
        <section className="rt-section">
          <h2>DNA file</h2>
          <dl className="rt-facts">
            <div>
              <dt>Source</dt>
              <dd>{vendorName(m.vendor)}</dd>
            </div>
            <div>
              <dt>Genome build</dt>
              <dd>{buildName(m.build)}</dd>
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
              <dt>Sex used</dt>
              <dd>{sexText(sexFacts(profile, m))}</dd>
            </div>
            <div>
              <dt>Reference</dt>
              <dd>{refText}</dd>
            </div>
          </dl>
        </section>
      ) : null}

      <footer className="rt-footer">
        <p>
          Every percentile compares {name}’s score with the {reference ? comparedWith({ reference }) : 'reference'}{' '}
          reference population.
          {assumed
            ? ' That reference was assumed, not chosen or estimated from the DNA: if it does not match this person’s ancestry, percentiles can be far off.'
            : reference?.source === 'inferred'
              ? ' That reference was estimated from the DNA file.'
              : reference?.source === 'ethnicity'
                ? ' That reference was chosen in the profile.'
                : ''}
        </p>
        <p>
          Genetic scores describe tendencies in large groups, not certainties for one person, and are not a medical
          diagnosis. Lifestyle, environment and variants not measured by consumer tests often matter more. Discuss
          health-related results with a doctor or genetic counsellor.
        </p>
        <p className="rt-small">
          Computed offline by Traitscope{appVersion ? ` ${appVersion}` : ''}. Sources: the studies cited by PubMed ID
          (PMID).
        </p>
      </footer>
    </article>
  );
}
