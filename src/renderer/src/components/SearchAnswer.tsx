/**
 * What the results search knows beyond the phenotype list: the everyday term's note, the
 * finding it concerns, and the person's own genotype at the markers it names or the rsIDs
 * typed, read from their file (never from an online resource).
 */
import { useEffect, useState } from 'react';
import type { GenotypeSnp } from '../../../shared/api.js';
import { api } from '../api/client.js';
import type { SearchPlan } from '../lib/everyday-search.js';

function showFinding(code: string): void {
  const el = document.querySelector<HTMLElement>(`[data-testid="finding-${code}"]`);
  if (!el) return;
  el.tabIndex = -1;
  el.scrollIntoView({ block: 'center' });
  el.focus();
}

export function SearchAnswer({ profileId, plan }: { profileId: string; plan: SearchPlan }) {
  const [calls, setCalls] = useState<{ key: string; found: GenotypeSnp[] } | { key: string; error: string } | null>(
    null,
  );
  const key = plan.rsids.join(',');
  useEffect(() => {
    if (!key) return;
    let live = true;
    api
      .snps(profileId, key.split(','))
      .then((found) => live && setCalls({ key, found }))
      .catch((err: Error) => live && setCalls({ key, error: err.message }));
    return () => {
      live = false;
    };
  }, [profileId, key]);

  const { term } = plan;
  if (!term && !key) return null;
  const known = new Map((term?.markers ?? []).map((m) => [m.rsid, m]));
  const current = calls && calls.key === key ? calls : null;
  const findingOnPage = term?.finding ? !!document.querySelector(`[data-testid="finding-${term.finding}"]`) : false;
  return (
    <div className="search-answer" data-testid="search-answer" aria-live="polite">
      {term?.note ? <p>{term.note}</p> : null}
      {term?.finding ? (
        findingOnPage ? (
          <p>
            Your file’s answer is a single-variant finding:{' '}
            <button type="button" className="link-button" onClick={() => showFinding(term.finding!)}>
              show it above
            </button>
            .
          </p>
        ) : (
          <p>Your file’s answer is among the single-variant findings, when they are shown for this profile.</p>
        )
      ) : null}
      {key ? (
        <>
          <h3 className="search-answer-title">Your genotype in your file</h3>
          {current && 'error' in current ? (
            <p className="inline-error" role="alert">
              {current.error}
            </p>
          ) : !current ? (
            <p className="muted small">Reading your file…</p>
          ) : (
            <ul className="search-answer-markers">
              {key.split(',').map((rsid) => {
                const call = current.found.find((s) => s.rsid === rsid);
                const m = known.get(rsid);
                return (
                  <li key={rsid} data-testid={`search-genotype-${rsid}`}>
                    <span className="mono">{rsid}</span>
                    {m ? ` (${m.gene}, ${m.known_for}${m.pmid ? `; PMID ${m.pmid}` : ''})` : ''}:{' '}
                    <strong className="mono">
                      {!call ? 'not in your file' : call.genotype === '--' ? 'no call in your file' : call.genotype}
                    </strong>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      ) : null}
    </div>
  );
}
