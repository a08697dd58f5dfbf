/**
 * The traits of one profile: featured first, then grouped by category, searchable and
 * filterable by status. About 2,000 traits exist, so groups open on demand and show a
 * page of rows at a time rather than rendering every row at once.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import type { ClientTrait, ProfileTrait, TraitStatus } from '../../../shared/api.js';
import { firstSentence, formatInt, percentileText } from '../lib/format.js';
import { useBrowser, type StatusFilter } from '../state/browser.js';
import { navigate } from '../state/router.js';
import { toast } from '../state/toasts.js';
import { assessmentKey, useTraits, type ProfileTraits } from '../state/traits.js';
import { BeakerIcon, ChevronDown, ChevronRight, SearchIcon, Spinner, XIcon } from './icons.js';
import { LevelBadge, LevelMeter } from './LevelMeter.js';

const PAGE = 25;
const FEATURED = 'Featured';

interface Item {
  ct: ClientTrait;
  status: TraitStatus;
  result?: ProfileTrait;
  haystack: string;
}

interface Group {
  name: string;
  items: Item[];
  computed: number;
}

function groupItems(items: Item[]): Group[] {
  const featured: Item[] = [];
  const byCategory = new Map<string, Item[]>();
  for (const it of items) {
    if (it.ct.trait.featured) featured.push(it);
    else {
      const cat = it.ct.trait.category || 'Other';
      if (!byCategory.has(cat)) byCategory.set(cat, []);
      byCategory.get(cat)!.push(it);
    }
  }
  const categories = [...byCategory.keys()].sort((a, b) => (a === 'Other' ? 1 : b === 'Other' ? -1 : a.localeCompare(b)));
  const groups: Group[] = [];
  const make = (name: string, list: Item[]) => ({ name, items: list, computed: list.filter((i) => i.status === 'computed').length });
  if (featured.length) groups.push(make(FEATURED, featured));
  for (const c of categories) groups.push(make(c, byCategory.get(c)!.sort((a, b) => a.ct.trait.name.localeCompare(b.ct.trait.name))));
  return groups;
}

export function TraitBrowser({ profileId, catalog, entry }: { profileId: string; catalog: ClientTrait[]; entry: ProfileTraits }) {
  const { query, status, expanded, shown, setQuery, setStatus, toggle, showMore } = useBrowser();
  const deferredQuery = useDeferredValue(query);
  const computing = useTraits((s) => s.computing[profileId]);
  const computeMany = useTraits((s) => s.computeMany);
  const [computeError, setComputeError] = useState<string | null>(null);

  const items = useMemo<Item[]>(
    () =>
      catalog.map((ct) => ({
        ct,
        status: entry.statuses[ct.trait.code] ?? 'unavailable',
        result: entry.results[ct.trait.code],
        haystack: `${ct.trait.name} ${ct.trait.code} ${ct.trait.category ?? ''}`.toLowerCase(),
      })),
    [catalog, entry.statuses, entry.results],
  );

  const counts = useMemo(() => {
    const c = { all: items.length, computed: 0, available: 0, unavailable: 0 };
    for (const it of items) c[it.status]++;
    return c;
  }, [items]);

  const searching = deferredQuery.trim().length > 0;
  const groups = useMemo(() => {
    const terms = deferredQuery.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const filtered = items.filter((it) => (status === 'all' || it.status === status) && terms.every((t) => it.haystack.includes(t)));
    return groupItems(filtered);
  }, [items, status, deferredQuery]);
  const matches = groups.reduce((n, g) => n + g.items.length, 0);

  const computeAll = async () => {
    const codes = items.filter((i) => i.status === 'available').map((i) => i.ct.trait.code);
    if (codes.length === 0) return;
    setComputeError(null);
    try {
      const n = await computeMany(profileId, codes);
      toast.success(`${formatInt(n)} ${n === 1 ? 'trait' : 'traits'} computed.`);
    } catch (err) {
      setComputeError((err as Error).message);
    }
  };

  const FILTERS: Array<[StatusFilter, string]> = [
    ['all', 'All'],
    ['computed', 'Results'],
    ['available', 'Not computed yet'],
    ['unavailable', 'Unavailable'],
  ];

  return (
    <section className="card traits-card" aria-labelledby="traits-title" data-testid="trait-browser">
      <header className="traits-header">
        <div>
          <h2 id="traits-title">Traits</h2>
          <p className="muted small">
            {formatInt(counts.computed)} results · {formatInt(counts.available)} ready to compute · {formatInt(counts.all)} traits in the catalog
          </p>
        </div>
        <div className="traits-header-actions">
          {computing ? (
            <div className="compute-progress" role="status">
              <Spinner size={14} />
              <span>
                Computing {formatInt(computing.done)} of {formatInt(computing.total)}…
              </span>
              <div className="progress" role="progressbar" aria-label="Computing traits" aria-valuemin={0} aria-valuemax={computing.total} aria-valuenow={computing.done}>
                <span className="progress-bar" style={{ width: `${(computing.done / Math.max(1, computing.total)) * 100}%` }} />
              </div>
            </div>
          ) : (
            <button type="button" className="button button-primary" onClick={computeAll} disabled={counts.available === 0} data-testid="compute-all">
              <BeakerIcon size={16} />
              {counts.available === 0 ? 'All available traits computed' : `Compute all available (${formatInt(counts.available)})`}
            </button>
          )}
        </div>
      </header>
      {computeError ? (
        <p className="inline-error" role="alert">
          {computeError}
        </p>
      ) : null}

      <div className="traits-toolbar">
        <label className="search">
          <SearchIcon size={16} />
          <span className="visually-hidden">Search traits</span>
          <input
            type="search"
            className="search-input"
            placeholder="Search traits, e.g. caffeine, height, cholesterol"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {query ? (
            <button type="button" className="icon-button small" aria-label="Clear search" onClick={() => setQuery('')}>
              <XIcon size={14} />
            </button>
          ) : null}
        </label>
        <div className="segmented compact" role="radiogroup" aria-label="Show">
          {FILTERS.map(([value, label]) => (
            <label key={value} className={`segment ${status === value ? 'is-selected' : ''}`}>
              <input type="radio" name="trait-status" value={value} checked={status === value} onChange={() => setStatus(value)} />
              {label} <span className="segment-count">{formatInt(counts[value])}</span>
            </label>
          ))}
        </div>
      </div>

      {matches === 0 ? (
        <div className="empty-inline">
          {searching ? (
            <>
              <strong>No traits match “{query.trim()}”.</strong>
              <span className="muted">Try a shorter or more general word, or show all statuses.</span>
            </>
          ) : status === 'computed' ? (
            <>
              <strong>No results yet.</strong>
              <span className="muted">Compute the available traits to see results here.</span>
            </>
          ) : (
            <strong>Nothing to show here.</strong>
          )}
        </div>
      ) : (
        <div className="trait-groups">
          {searching ? (
            <p className="muted small" aria-live="polite">
              {formatInt(matches)} {matches === 1 ? 'trait matches' : 'traits match'}
            </p>
          ) : null}
          {groups.map((g) => {
            const open = searching || !!expanded[g.name];
            const limit = shown[g.name] ?? PAGE;
            const panelId = `group-${g.name.replace(/\W+/g, '-')}`;
            return (
              <section key={g.name} className={`trait-group ${open ? 'is-open' : ''}`}>
                <h3 className="trait-group-heading">
                  <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => toggle(g.name, !open)} disabled={searching}>
                    {open ? <ChevronDown size={16} /> : <ChevronRight size={16} />}
                    <span className="trait-group-name">{g.name}</span>
                    <span className="trait-group-count">
                      {g.computed > 0 ? `${formatInt(g.computed)} of ${formatInt(g.items.length)} computed` : `${formatInt(g.items.length)} traits`}
                    </span>
                  </button>
                </h3>
                {open ? (
                  <div id={panelId}>
                    <ul className="trait-list">
                      {g.items.slice(0, limit).map((it) => (
                        <TraitRow key={it.ct.trait.code} profileId={profileId} item={it} />
                      ))}
                    </ul>
                    {g.items.length > limit ? (
                      <div className="show-more">
                        <button type="button" className="button button-ghost" onClick={() => showMore(g.name, limit + PAGE * 2)}>
                          Show {formatInt(Math.min(PAGE * 2, g.items.length - limit))} more
                        </button>
                        <span className="muted small">
                          {formatInt(limit)} of {formatInt(g.items.length)} shown
                        </span>
                      </div>
                    ) : null}
                  </div>
                ) : null}
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}

function TraitRow({ profileId, item }: { profileId: string; item: Item }) {
  const { ct, status, result } = item;
  const t = ct.trait;
  const busy = useTraits((s) => !!s.computingOne[assessmentKey(profileId, t.code)]);
  const computeOne = useTraits((s) => s.computeOne);
  const [error, setError] = useState<string | null>(null);
  const href = `#/profiles/${profileId}/traits/${encodeURIComponent(t.code)}`;

  const compute = async () => {
    setError(null);
    try {
      await computeOne(profileId, t.code);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const secondary =
    status === 'computed' && result ? firstSentence(result.recommendations) : [t.category, t.quality ? `${t.quality.evidence} evidence` : ''].filter(Boolean).join(' · ');

  return (
    <li className={`trait-row status-${status}`} data-testid={`trait-${t.code}`} data-status={status}>
      <div className="trait-row-main">
        <div className="trait-row-title">
          <a
            className="trait-name stretched"
            href={href}
            onClick={(e) => {
              e.preventDefault();
              navigate({ name: 'trait', id: profileId, code: t.code });
            }}
          >
            {t.name}
          </a>
          <span className={`pill pill-${ct.type}`} title={ct.type === 'free' ? 'Free: computed automatically when a DNA file is read' : 'Basic: computed when you ask'}>
            {ct.type === 'free' ? 'Free' : 'Basic'}
          </span>
        </div>
        <p className="trait-line" title={secondary}>
          {secondary}
        </p>
        {error ? (
          <p className="inline-error small" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="trait-row-result">
        {status === 'computed' && result && result.assessment_level ? (
          <>
            <LevelMeter level={result.assessment_level} label={result.level_label} />
            <span className="trait-result-text">
              <LevelBadge level={result.assessment_level} label={result.level_label ?? `Level ${result.assessment_level}`} />
              {typeof result.percentile === 'number' ? <span className="muted small tabular">{percentileText(result.percentile)}</span> : null}
            </span>
          </>
        ) : status === 'available' ? (
          <button type="button" className="button button-small raised" onClick={compute} disabled={busy} aria-label={`Compute ${t.name}`}>
            {busy ? <Spinner size={12} /> : null}
            Compute
          </button>
        ) : status === 'unavailable' ? (
          <span className="muted small">Not enough markers</span>
        ) : null}
      </div>
      <ChevronRight size={16} className="trait-row-chevron" />
    </li>
  );
}
