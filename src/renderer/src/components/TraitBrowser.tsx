/**
 * Every result of one profile, one row per phenotype: the headline study's result, how the
 * other studies agree, the evidence and the reference it was compared with. Sorted and
 * filtered over the whole catalog; shown a page at a time (about 1,400 phenotypes).
 */
import { startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { ProfileTrait } from '../../../shared/api.js';
import { searchPlan } from '../lib/everyday-search.js';
import { capitalise, formatInt, formatPercent, percentileWords } from '../lib/format.js';
import { SearchAnswer } from './SearchAnswer.js';
import { comparedWith } from '../lib/reference.js';
import {
  categoriesOf,
  evidenceLabel,
  isSensitive,
  rowMatches,
  sortRows,
  type PhenotypeRow,
  type ShowKey,
  type SortKey,
  type Study,
} from '../lib/results.js';
import { PAGE, useBrowser } from '../state/browser.js';
import { navigate } from '../state/router.js';
import { useScoring } from '../state/traits.js';
import { ChevronDown, ChevronRight, SearchIcon, Spinner, XIcon } from './icons.js';
import { InfoMeter } from './InfoMeter.js';
import { Segmented } from './RadioChoices.js';
import { LevelBadge, LevelMeter } from './LevelMeter.js';

const SORTS: Array<[SortKey, string]> = [
  ['notable', 'Most notable first'],
  ['percentile_high', 'Percentile, highest first'],
  ['percentile_low', 'Percentile, lowest first'],
  ['evidence', 'Strongest evidence first'],
  ['name', 'Name, A–Z'],
];
const SHOWS: Array<[ShowKey, string]> = [
  ['results', 'Results'],
  ['unavailable', 'Not available'],
  ['all', 'All'],
];
const EVIDENCE = ['strong', 'moderate', 'limited', 'suggestive'] as const;

/**
 * Rows drawn in the frame a profile's first results appear. The list starts screens below
 * the page's top (the reference banner, the file, the notable results come first), and its
 * first page of rows was most of that frame's work; the rest follows in the next one.
 */
const FIRST_ROWS = 12;
/** Profiles whose list was drawn in full once: shown in full at once when opened again (scroll restored). */
const drawnInFull = new Set<string>();

/** Whether the whole page of rows is drawn yet: not in the first frame of a profile's first results. */
function useAllRowsDrawn(profileId: string): boolean {
  const [all, setAll] = useState(() => drawnInFull.has(profileId));
  useEffect(() => {
    if (all) {
      drawnInFull.add(profileId);
      return;
    }
    // After the frame that shows the first rows: a task queued from the frame callback runs after it is drawn.
    let task = 0;
    const frame = requestAnimationFrame(() => {
      task = window.setTimeout(() => startTransition(() => setAll(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [all, profileId]);
  return all;
}

/** "Height: much lower than average, 2nd percentile" — what a result link says to a screen reader. */
export function resultLinkName(name: string, r: ProfileTrait | undefined, reason?: string): string {
  if (!r) return reason ? `${name}: not available, ${reason}` : `${name}: no result yet`;
  return `${name}: ${(r.level_label ?? `level ${r.assessment_level}`).toLowerCase()}, ${percentileWords(r)}`;
}

function reasonText(s: Study): string {
  if (s.reason?.code === 'not_applicable') return s.reason.detail || 'Does not apply to this profile';
  if (s.reason?.code === 'low_coverage') return s.reason.detail || 'Not enough of its markers in your file';
  if (s.reason) return s.reason.detail;
  return s.status === 'available' ? 'Being computed…' : 'Not enough of its markers in your file';
}

export function TraitBrowser({
  profileId,
  rows,
  hideSensitive,
}: {
  profileId: string;
  rows: PhenotypeRow[];
  hideSensitive: boolean;
}) {
  const { query, sort, show, evidence, category, shown, set, showMore } = useBrowser();
  const deferredQuery = useDeferredValue(query);
  const scoring = useScoring((s) => s.progress[profileId]);

  const categories = useMemo(() => categoriesOf(rows), [rows]);
  const counts = useMemo(() => {
    let results = 0;
    for (const r of rows) if (r.main.result) results++;
    return { results, unavailable: rows.length - results, all: rows.length };
  }, [rows]);

  const plan = useMemo(() => searchPlan(deferredQuery), [deferredQuery]);
  const filtered = useMemo(() => {
    const f = { query: deferredQuery, show, evidence, hideSensitive, category };
    return sortRows(
      rows.filter((r) => plan.alternatives.some((terms) => rowMatches(r, f, terms))),
      sort,
    );
  }, [rows, deferredQuery, plan, show, evidence, hideSensitive, category, sort]);
  // Phenotypes the words match with every filter off: "no match" must not be said of a hidden one.
  const hiddenByFilters = useMemo(() => {
    if (filtered.length > 0 || !deferredQuery.trim()) return 0;
    const f = { query: deferredQuery, show: 'all' as const, evidence: [], hideSensitive: false, category: '' };
    return rows.filter((r) => plan.alternatives.some((terms) => rowMatches(r, f, terms))).length;
  }, [rows, deferredQuery, plan, filtered.length]);
  const hiddenSensitive = useMemo(
    () => (hideSensitive ? rows.filter((r) => isSensitive(r.main.trait)).length : 0),
    [rows, hideSensitive],
  );

  const allDrawn = useAllRowsDrawn(profileId);
  const limit = shown[profileId] ?? PAGE;
  const visible = filtered.slice(0, allDrawn ? limit : Math.min(limit, FIRST_ROWS));

  return (
    <section className="card traits-card" aria-labelledby="traits-title" data-testid="trait-browser">
      <header className="traits-header">
        <div>
          <h2 id="traits-title">All results</h2>
          <p className="muted small">
            {formatInt(counts.results)} phenotypes with a result · {formatInt(counts.unavailable)} not available · one
            row per phenotype, other studies under it
          </p>
        </div>
        {scoring ? (
          <div className="compute-progress" role="status">
            <Spinner size={14} />
            <span>
              {scoring.total ? `Computing ${formatInt(scoring.done)} of ${formatInt(scoring.total)}…` : 'Computing…'}
            </span>
          </div>
        ) : null}
      </header>

      <div className="traits-toolbar" role="search" aria-label="Find results">
        <label className="search">
          <SearchIcon size={16} />
          <span className="visually-hidden">Search results</span>
          <input
            type="search"
            className="search-input"
            placeholder="Search, e.g. caffeine, height, cholesterol"
            value={query}
            onChange={(e) => set({ query: e.target.value })}
          />
          {query ? (
            <button
              type="button"
              className="icon-button small"
              aria-label="Clear search"
              onClick={() => set({ query: '' })}
            >
              <XIcon size={14} />
            </button>
          ) : null}
        </label>
        <label className="toolbar-field">
          <span>Sort</span>
          <select className="input select" value={sort} onChange={(e) => set({ sort: e.target.value as SortKey })}>
            {SORTS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span>Category</span>
          <select className="input select" value={category} onChange={(e) => set({ category: e.target.value })}>
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="traits-toolbar">
        <Segmented
          compact
          label="Show"
          name="result-show"
          value={show}
          onChange={(value) => set({ show: value })}
          options={SHOWS.map(([value, label]) => [
            value,
            <>
              {label} <span className="segment-count">{formatInt(counts[value])}</span>
            </>,
          ])}
        />
        <fieldset className="evidence-filter">
          <legend>Evidence</legend>
          {EVIDENCE.map((e) => (
            <label key={e} className="check">
              <input
                type="checkbox"
                checked={evidence.includes(e)}
                onChange={(ev) =>
                  set({ evidence: ev.target.checked ? [...evidence, e] : evidence.filter((x) => x !== e) })
                }
              />
              {capitalise(e)}
            </label>
          ))}
        </fieldset>
      </div>
      {hiddenSensitive > 0 ? (
        <p className="muted small hidden-note">
          {formatInt(hiddenSensitive)} disease, cancer and psychiatric phenotypes are hidden, as chosen for this profile
          (change it under “Disease results” above).
        </p>
      ) : null}

      {deferredQuery.trim() ? <SearchAnswer profileId={profileId} plan={plan} /> : null}
      {filtered.length === 0 ? (
        <div className="empty-inline" data-testid="search-empty">
          <strong>
            {hiddenByFilters > 0
              ? `${formatInt(hiddenByFilters)} ${hiddenByFilters === 1 ? 'phenotype matches' : 'phenotypes match'} “${query.trim()}”, but the filters hide ${hiddenByFilters === 1 ? 'it' : 'them'}.`
              : query.trim()
                ? `No phenotype matches “${query.trim()}”.`
                : 'Nothing to show with these filters.'}
          </strong>
          <span className="muted">
            {hiddenByFilters > 0
              ? 'Show all, clear the evidence and category filters, or show disease results.'
              : 'Try a shorter word, another category, or show all.'}
          </span>
        </div>
      ) : (
        <>
          <p className="visually-hidden" aria-live="polite">
            {formatInt(filtered.length)} phenotypes shown
          </p>
          {/* Busy while only the first rows are drawn: the rest follow in the next frame. */}
          <ul className="trait-list" aria-label="Results" aria-busy={!allDrawn}>
            {visible.map((row) => (
              <ResultRow key={row.key} profileId={profileId} row={row} />
            ))}
          </ul>
          {filtered.length > limit ? (
            <div className="show-more">
              <button
                type="button"
                className="button button-ghost"
                onClick={() => showMore(profileId, limit + PAGE * 4)}
              >
                Show {formatInt(Math.min(PAGE * 4, filtered.length - limit))} more
              </button>
              <button
                type="button"
                className="button button-ghost"
                onClick={() => showMore(profileId, filtered.length)}
              >
                Show all {formatInt(filtered.length)}
              </button>
              <span className="muted small">
                {formatInt(limit)} of {formatInt(filtered.length)} shown
              </span>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function StudyResult({ study }: { study: Study }) {
  const r = study.result;
  if (r && !r.assessment_level)
    return <span className="row-reason">Raw score only: no reference frequencies for a percentile</span>;
  if (!r || !r.assessment_level) return <span className="row-reason">{reasonText(study)}</span>;
  return (
    <span className="trait-result-text">
      <LevelMeter level={r.assessment_level} label={`Level ${r.assessment_level} of 5`} />
      <LevelBadge level={r.assessment_level} label={r.level_label ?? `Level ${r.assessment_level}`} />
      <span className="muted small tabular">{percentileWords(r)}</span>
    </span>
  );
}

function ResultRow({ profileId, row }: { profileId: string; row: PhenotypeRow }) {
  const openKey = `${profileId}/${row.key}`;
  const open = useBrowser((s) => !!s.open[openKey]);
  const toggle = useBrowser((s) => s.toggle);
  const { main } = row;
  const r = main.result;
  const na = main.reason?.code === 'not_applicable';
  const status = r ? 'computed' : na ? 'not-applicable' : 'unavailable';
  const agreement = r?.group_agreement;
  const othersWithResult = row.others.filter((o) => o.result).length;
  const panelId = `studies-${row.key}`;

  return (
    <li
      className={`trait-row status-${status}`}
      data-testid={`trait-${main.trait.code}`}
      data-status={r ? 'computed' : main.status}
      data-group={row.key}
      data-category={row.category}
      data-percentile={r?.percentile}
    >
      <div className="trait-row-main">
        <div className="trait-row-title">
          <a
            className="trait-name"
            href={`#/profiles/${profileId}/traits/${encodeURIComponent(main.trait.code)}`}
            aria-label={resultLinkName(row.name, r, r ? undefined : reasonText(main))}
            onClick={(e) => {
              e.preventDefault();
              navigate({ name: 'trait', id: profileId, code: main.trait.code });
            }}
          >
            {row.name}
          </a>
          <span className={`evidence-pill evidence-${evidenceLabel(main)}`}>
            {capitalise(evidenceLabel(main))} evidence
          </span>
        </div>
        <p className="trait-line">
          {main.trait.study_label ? <span>Study: {main.trait.study_label}</span> : null}
          {r ? <span data-testid="row-reference">Compared with: {comparedWith(r)}</span> : null}
          {r && typeof r.coverage === 'number' ? <span>{formatPercent(r.coverage)} of markers read</span> : null}
        </p>
        {r ? <InfoMeter result={r} compact /> : null}
        {row.others.length > 0 ? (
          <div className="row-studies">
            <button
              type="button"
              className="link-button"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => toggle(openKey)}
            >
              {open ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
              {agreement && agreement.others > 0
                ? agreement.summary
                : `${formatInt(row.others.length)} other ${row.others.length === 1 ? 'study' : 'studies'}${othersWithResult ? ` (${formatInt(othersWithResult)} with a result)` : ''}`}
            </button>
            {open ? (
              <ul id={panelId} className="study-list">
                {row.others.map((s) => (
                  <li key={s.trait.code} className={s.result ? undefined : 'is-dim'}>
                    <a
                      href={`#/profiles/${profileId}/traits/${encodeURIComponent(s.trait.code)}`}
                      aria-label={resultLinkName(
                        s.trait.study_label ?? s.trait.name,
                        s.result,
                        s.result ? undefined : reasonText(s),
                      )}
                      onClick={(e) => {
                        e.preventDefault();
                        navigate({ name: 'trait', id: profileId, code: s.trait.code });
                      }}
                    >
                      {s.trait.study_label ?? s.trait.name}
                    </a>
                    <StudyResult study={s} />
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="trait-row-result">
        <StudyResult study={main} />
      </div>
    </li>
  );
}
