/** "How much this tells you": four steps and a word, from what the score can explain, the markers read and the size of its effect. */
import type { ProfileTrait } from '../../../shared/api.js';
import { formatPercent } from '../lib/format.js';
import {
  informativeness,
  informativenessLevel,
  NOTABLE_MIN_POINTS,
  pointsFromAverage,
  varianceExplained,
} from '../lib/notable.js';

/** Why the meter reads what it reads, in one line. */
export function infoMeterBasis(r: ProfileTrait): string {
  const coverage = r.evidence?.coverage ?? r.coverage;
  const v = varianceExplained(r);
  const points = r.meaning?.kind === 'risk' ? pointsFromAverage(r) : null;
  return [
    v === null ? 'share of the trait explained: unknown' : `explains ${formatPercent(v, v < 0.1 ? 1 : 0)} of the trait`,
    typeof coverage === 'number' ? `${formatPercent(coverage)} of markers read` : null,
    points === null
      ? null
      : points < NOTABLE_MIN_POINTS
        ? `moves the chance by only ${points.toFixed(1)} of a percentage point`
        : `moves the chance by ${points.toFixed(1)} percentage points`,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function InfoMeter({ result, compact }: { result: ProfileTrait; compact?: boolean }) {
  const { step, label } = informativenessLevel(informativeness(result));
  return (
    <span className={`info-meter ${compact ? 'is-compact' : ''}`} title={infoMeterBasis(result)}>
      <span className="info-meter-bars" aria-hidden="true">
        {[1, 2, 3, 4].map((n) => (
          <span key={n} className={n <= step ? 'is-on' : undefined} />
        ))}
      </span>
      <span className="info-meter-label">
        {compact ? (
          <span className="visually-hidden">How much this tells you: </span>
        ) : (
          <span className="info-meter-caption">How much this tells you: </span>
        )}
        {label}
      </span>
    </span>
  );
}
