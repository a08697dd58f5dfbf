/**
 * What a result means for this person, in absolute terms (docs/science.md, "What a result
 * means"): an icon array of 100 people for a chance, the expected shift and remaining spread
 * for a measurement, or why the result stays a rank. The icon array is plain SVG with its
 * colours in attributes, so it prints and survives the report's standalone copy unchanged; its
 * layout is in styles/report.css, which the app and the standalone report both load.
 */
import type { ProfileTrait } from '../../../shared/api.js';

type Meaning = NonNullable<ProfileTrait['meaning']>;

const FILLED = '#b4442f';
const EMPTY = '#d9d4cc';
const COLUMNS = 10;

/** Whole people out of 100 for a percentage: at least 1 when the chance is above zero, so a rare risk is not drawn as none. */
function peopleOf(percent: number): number {
  if (percent <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round(percent)));
}

function formatChance(percent: number): string {
  if (percent < 1) return `${(Math.round(percent * 10) / 10).toFixed(1)} in 100`;
  return `${percent < 10 ? (Math.round(percent * 10) / 10).toString() : Math.round(percent)} in 100`;
}

/** 100 people, the first `filled` of them coloured; a person is a head and shoulders. */
export function IconArray({ filled, label, compact }: { filled: number; label: string; compact?: boolean }) {
  const size = 14;
  const people = Array.from({ length: 100 }, (_, i) => i);
  return (
    <figure
      className={`icon-array${compact ? ' icon-array-compact' : ''}`}
      data-testid="icon-array"
      data-filled={filled}
    >
      <svg
        viewBox={`0 0 ${COLUMNS * size} ${COLUMNS * size}`}
        width={COLUMNS * size}
        height={COLUMNS * size}
        role="img"
        aria-label={label}
      >
        {people.map((i) => {
          // Filled from the bottom row up, left to right, as icon arrays are usually read.
          const row = COLUMNS - 1 - Math.floor(i / COLUMNS);
          const col = i % COLUMNS;
          const x = col * size + size / 2;
          const y = row * size;
          const fill = i < filled ? FILLED : EMPTY;
          return (
            <g key={i} fill={fill}>
              <circle cx={x} cy={y + 4} r={2.6} />
              <path
                d={`M${x - 4.2} ${y + 12.5} Q${x - 4.2} ${y + 7} ${x} ${y + 7} Q${x + 4.2} ${y + 7} ${x + 4.2} ${y + 12.5} Z`}
              />
            </g>
          );
        })}
      </svg>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

/** The two icon arrays of a risk: people with a score like this person's, and everyone. */
export function RiskArrays({ meaning, compact }: { meaning: Meaning; compact?: boolean }) {
  if (meaning.kind !== 'risk' || typeof meaning.yours !== 'number' || typeof meaning.average !== 'number') return null;
  return (
    <div className="icon-arrays">
      <IconArray
        filled={peopleOf(meaning.yours)}
        label={`People with a score like yours: ${formatChance(meaning.yours)}`}
        compact={compact}
      />
      <IconArray
        filled={peopleOf(meaning.average)}
        label={`Everyone: ${formatChance(meaning.average)}`}
        compact={compact}
      />
    </div>
  );
}

/** The detail page's card: the meaning in words, the icon arrays or the shift, the source, the model and the reliability. */
export function ResultMeaningCard({ result }: { result: ProfileTrait }) {
  const m = result.meaning;
  if (!m) return null;
  return (
    <section className="card" aria-labelledby="absolute-title" data-testid="result-meaning" data-kind={m.kind}>
      <h2 id="absolute-title">For people with a score like yours</h2>
      <p className="prose" data-testid="meaning-summary">
        {m.summary}
      </p>
      <RiskArrays meaning={m} />
      {m.kind === 'value' && typeof m.yours === 'number' && typeof m.spread === 'number' ? (
        <p className="muted small" data-testid="meaning-value">
          Expected difference from average: {m.yours >= 0 ? '+' : '−'}
          {Math.abs(m.yours).toFixed(2)} SD; spread among people with this score: {m.spread.toFixed(2)} SD.
        </p>
      ) : null}
      {m.frequency ? (
        <p className="muted small" data-testid="meaning-source">
          Frequency: {m.frequency.value < 1 ? m.frequency.value.toFixed(2) : m.frequency.value.toFixed(1)} % (
          {m.frequency.measure}, {m.frequency.horizon}) — {m.frequency.source}, PMID {m.frequency.pmid}.
          {m.limits ? ` ${m.limits}` : ''}
        </p>
      ) : null}
      <p className={`small${m.less_certain ? ' meaning-less-certain' : ' muted'}`} data-testid="meaning-reliability">
        {m.less_certain ? <strong>Less certain for you. </strong> : null}
        {m.reliability}
      </p>
      <details className="small">
        <summary>How this was worked out</summary>
        <p className="muted">{m.model}</p>
        {typeof m.effect_per_sd === 'number' ? (
          <p className="muted">
            Effect per standard deviation of the score:{' '}
            {m.effect_scale === 'odds_ratio'
              ? `odds ratio ${m.effect_per_sd.toFixed(2)}`
              : m.effect_scale === 'percentage_points'
                ? `${m.effect_per_sd.toFixed(2)} percentage points`
                : `${m.effect_per_sd.toFixed(3)} SD of the trait`}
            {typeof m.variance_explained === 'number'
              ? `; share of the trait explained: ${(100 * m.variance_explained).toFixed(m.variance_explained < 0.1 ? 2 : 1)} %`
              : ''}
            .
          </p>
        ) : null}
      </details>
    </section>
  );
}

/** One line and, for a risk, small icon arrays: the report's notable results. */
export function MeaningInBrief({ result }: { result: ProfileTrait }) {
  const m = result.meaning;
  if (!m || m.kind === 'relative') return null;
  return (
    <span className="rt-meaning" data-testid="report-meaning">
      {m.summary}
      {m.kind === 'risk' ? <RiskArrays meaning={m} compact /> : null}
    </span>
  );
}
