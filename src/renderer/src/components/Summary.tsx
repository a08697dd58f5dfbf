/**
 * The answer first: the person's notable results (docs/ui.md, "Notable results"), each with
 * how much it tells, and what the file cannot tell at all.
 */
import type { ProfileTrait } from '../../../shared/api.js';
import { caveatSentence, resultCaveats } from '../lib/caveats.js';
import { firstSentence, formatInt, percentileWords } from '../lib/format.js';
import { notableResults, varianceExplained } from '../lib/notable.js';
import { isSensitive, type PhenotypeRow } from '../lib/results.js';
import { navigate } from '../state/router.js';
import { InfoMeter } from './InfoMeter.js';
import { AlertIcon } from './icons.js';
import { LevelBadge, LevelMeter } from './LevelMeter.js';
import { resultLinkName } from './TraitBrowser.js';

export interface NotableItem {
  row: PhenotypeRow;
  result: ProfileTrait;
  featured: boolean;
}

/** One result per phenotype, minus what the person chose not to see; at most 10 of them. */
export function notableItems(rows: PhenotypeRow[], hideSensitive: boolean): NotableItem[] {
  const candidates = rows
    .filter((row) => row.main.result && !(hideSensitive && isSensitive(row.main.trait)))
    .map((row) => ({ row, result: row.main.result!, featured: row.featured }));
  return notableResults(candidates);
}

export interface CantTell {
  key: string;
  text: string;
}

/** What this file cannot tell, from the results themselves and the limits of chips. */
export function cantTellItems(
  rows: PhenotypeRow[],
  opts: { sexLabel: string | null; assumed: boolean; hiddenSensitive: number },
): CantTell[] {
  let lowCoverage = 0;
  let notApplicable = 0;
  let unknownExplained = 0;
  let results = 0;
  for (const r of rows) {
    if (r.main.result) {
      results++;
      if (varianceExplained(r.main.result) === null) unknownExplained++;
    } else if (r.main.reason?.code === 'not_applicable') notApplicable++;
    else lowCoverage++;
  }
  const items: CantTell[] = [];
  if (opts.assumed)
    items.push({
      key: 'reference',
      text: 'Which reference population fits you: your file holds too little ancestry evidence, so a reference was assumed (see the notice above).',
    });
  if (lowCoverage)
    items.push({
      key: 'coverage',
      text: `${formatInt(lowCoverage)} phenotypes: your file lacks too many of their markers (a score needs at least 75 % of them).`,
    });
  if (notApplicable)
    items.push({
      key: 'sex',
      text: `${formatInt(notApplicable)} phenotypes do not apply${opts.sexLabel ? ` to a ${opts.sexLabel.toLowerCase()} profile` : ' to this profile’s sex'}.`,
    });
  if (unknownExplained)
    items.push({
      key: 'explained',
      text: `How much ${formatInt(unknownExplained)} of your ${formatInt(results)} results explain: nobody published how much of the trait their score accounts for.`,
    });
  if (opts.hiddenSensitive)
    items.push({
      key: 'hidden',
      text: `${formatInt(opts.hiddenSensitive)} disease, cancer and psychiatric phenotypes, hidden as chosen for this profile.`,
    });
  items.push({
    key: 'rare',
    text: 'Rare variants with large effects (for example in BRCA1 and BRCA2): a chip reads selected positions only and cannot rule them out.',
  });
  items.push({
    key: 'fate',
    text: 'What will happen: a genetic score describes a tendency in large groups. Lifestyle, environment and chance often matter more.',
  });
  return items;
}

export function Summary({
  profileId,
  items,
  cantTell,
}: {
  profileId: string;
  items: NotableItem[];
  cantTell: CantTell[];
}) {
  return (
    <section className="card summary-card" aria-labelledby="summary-title" data-testid="summary">
      <header className="card-header">
        <div>
          <h2 id="summary-title" tabIndex={-1}>
            Your notable results
          </h2>
          <p className="muted small">
            Ranked by how far from average each result is, times how much it tells you (evidence, markers read, how much
            the score explains); one per phenotype, featured traits first, at most 10.
          </p>
        </div>
      </header>
      {items.length === 0 ? (
        <p className="muted">
          None of your results stands out: they are close to average, or tell too little to single out.
        </p>
      ) : (
        <ol className="notable-list">
          {items.map(({ row, result }) => (
            <li key={row.key} className="notable" data-testid="notable">
              <div className="notable-head">
                <a
                  className="notable-name"
                  href={`#/profiles/${profileId}/traits/${encodeURIComponent(result.trait.code)}`}
                  aria-label={resultLinkName(row.name, result)}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate({ name: 'trait', id: profileId, code: result.trait.code });
                  }}
                >
                  {row.name}
                </a>
                <span className="notable-result">
                  <LevelMeter
                    level={result.assessment_level ?? 3}
                    label={`Level ${result.assessment_level ?? 3} of 5`}
                  />
                  <LevelBadge level={result.assessment_level ?? 3} label={result.level_label ?? ''} />
                  <span className="muted small tabular">{percentileWords(result)}</span>
                </span>
              </div>
              {result.recommendations ? (
                <p className="notable-meaning muted small">{firstSentence(result.recommendations)}</p>
              ) : null}
              {resultCaveats(result).length > 0 ? (
                <p className="notable-caveat small" data-testid="notable-caveat">
                  <AlertIcon size={14} /> {caveatSentence(resultCaveats(result))}
                </p>
              ) : null}
              <InfoMeter result={result} />
            </li>
          ))}
        </ol>
      )}
      <div className="cant-tell" data-testid="cant-tell">
        <h3>What your file can’t tell you</h3>
        <ul>
          {cantTell.map((c) => (
            <li key={c.key}>{c.text}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
